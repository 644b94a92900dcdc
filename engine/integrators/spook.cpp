// SPOOK step (see spook.h). The Jacobian's sparsity pattern is fixed by the constraint list, so it
// is built once here and each step only writes values through slot_; the solver re-uses its
// symbolic analysis as long as that pattern does not change.
#include "engine/integrators/spook.h"

#include <algorithm>
#include <cmath>

#include "engine/sim/errors.h"

namespace varsim {

SpookStepper::SpookStepper(const ConstrainedModel& model, SpookConfig config)
    : model_(model), config_(config), solver_(makeSparseSolver(config.solver)) {
  const auto& cs = model.constraints();
  const int n = model.coordinateCount();
  relax_.assign(cs.size(), ConstraintRelaxation{});
  std::vector<Eigen::Triplet<double, int>> triplets;
  int row = 0;
  size_t width = 0;
  for (const auto& c : cs) {
    rowOffset_.push_back(row);
    slotStart_.push_back(int(triplets.size()));
    for (int r = 0; r < c.rows; ++r)
      for (int col : c.columns) {
        if (col < 0 || col >= n) throw BadInput("SpookStepper: constraint '" + c.name + "' names column " + std::to_string(col));
        triplets.emplace_back(row + r, col, double(triplets.size()) + 1.0);
      }
    row += c.rows;
    width = std::max(width, size_t(c.rows) * c.columns.size());
  }
  slotStart_.push_back(int(triplets.size()));
  J_.resize(row, n);
  J_.setFromTriplets(triplets.begin(), triplets.end());
  J_.makeCompressed();
  if (J_.nonZeros() != long(triplets.size()))
    throw BadInput("SpookStepper: a constraint lists the same column twice");
  slot_.assign(triplets.size(), 0);
  for (long p = 0; p < J_.nonZeros(); ++p) slot_[size_t(J_.valuePtr()[p] - 1.0)] = int(p);
  D_.setZero(row);
  t_.setZero(row);
  multipliers_.setZero(row);
  value_.assign(3, 0.0);
  jac_.assign(std::max<size_t>(width, 1), 0.0);
}

static void checkRelaxation(const ConstraintRelaxation& r) {
  auto ok = [](double v) { return std::isfinite(v) && v >= 0.0; };
  if (!ok(r.epsilon)) throw BadInput("SPOOK: epsilon = " + std::to_string(r.epsilon) + ": allowed [0, inf)");
  if (!ok(r.tau)) throw BadInput("SPOOK: tau = " + std::to_string(r.tau) + ": allowed [0, inf) s");
  if (!ok(r.gamma)) throw BadInput("SPOOK: gamma = " + std::to_string(r.gamma) + ": allowed [0, inf)");
}

void SpookStepper::setRelaxation(int constraint, const ConstraintRelaxation& r) {
  checkRelaxation(r);
  relax_.at(size_t(constraint)) = r;
}

void SpookStepper::setGroupRelaxation(int group, const ConstraintRelaxation& r) {
  checkRelaxation(r);
  const auto& cs = model_.constraints();
  for (size_t i = 0; i < cs.size(); ++i)
    if (cs[i].group == group) relax_[i] = r;
}

void SpookStepper::setAllRelaxation(const ConstraintRelaxation& r) {
  checkRelaxation(r);
  std::fill(relax_.begin(), relax_.end(), r);
}

void SpookStepper::setSolver(SparseSolverKind kind) {
  if (kind != solver_->kind()) solver_ = makeSparseSolver(kind);
}

void SpookStepper::step(MechanicalState& state, double h) {
  if (!(h > 0) || !std::isfinite(h)) throw BadInput("SPOOK: step size h must be > 0");
  const auto stepStart = SteadyClock::now();
  const auto& cs = model_.constraints();
  const Eigen::VectorXd& M = model_.massDiagonal();
  const Eigen::VectorXd& v = state.v;
  double* Jv = J_.valuePtr();

  // Assembly: J(q_k) values, D = diag(Σ, Γ), right-hand sides r and (s, t) of eq. (29).
  for (size_t i = 0; i < cs.size(); ++i) {
    const ConstraintDesc& c = cs[i];
    const int width = int(c.columns.size());
    model_.evaluateConstraint(int(i), state.q, state.t, value_.data(), jac_.data());
    const ConstraintRelaxation& rx = relax_[i];
    const int* slot = slot_.data() + slotStart_[i];
    for (int r = 0; r < c.rows; ++r) {
      const int row = rowOffset_[i] + r;
      double Gv = 0.0;
      for (int k = 0; k < width; ++k) {
        const double a = jac_[size_t(r * width + k)];
        Jv[slot[r * width + k]] = a;
        Gv += a * v[c.columns[size_t(k)]];
      }
      if (c.kind == ConstraintKind::Holonomic) {
        const double upsilon = 1.0 / (1.0 + 4.0 * rx.tau / h);
        D_[row] = 4.0 * rx.epsilon * upsilon / (h * h);
        t_[row] = -(4.0 / h) * upsilon * value_[size_t(r)] + upsilon * Gv;
      } else {
        D_[row] = rx.gamma / h;
        t_[row] = value_[size_t(r)];  // w(t_k)
      }
    }
  }
  model_.appliedForce(state.q, v, state.t, f_);
  r_ = M.cwiseProduct(v) + h * f_;
  profile_.assemblyUs = microsecondsSince(stepStart);

  solver_->factor(M, J_, D_);
  solver_->solve(r_, t_, vNext_, lambda_);
  const SparseSolveStats& st = solver_->stats();
  profile_.factorUs = st.factorUs;
  profile_.analyseUs = st.analyseUs;
  profile_.solveUs = st.solveUs;
  profile_.factorNnz = st.factorNnz;
  profile_.matrixNnz = st.matrixNnz;
  profile_.analyses = st.analyses;

  const auto updateStart = SteadyClock::now();
  MechanicalState next{state.q + h * vNext_, vNext_, state.t + h, state.step + 1};
  checkDivergence(model_, next, config_.limits, "SPOOK");
  state = std::move(next);
  multipliers_ = lambda_;
  profile_.updateUs = microsecondsSince(updateStart);
  profile_.stepUs = microsecondsSince(stepStart);
}

}  // namespace varsim
