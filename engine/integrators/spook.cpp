// SPOOK step (see spook.h). The Jacobian's sparsity pattern is fixed by the constraint list
// (ConstraintJacobian), so the solver re-uses its symbolic analysis across steps.
#include "engine/integrators/spook.h"

#include <algorithm>
#include <cmath>

#include "engine/sim/errors.h"

namespace varsim {

SpookStepper::SpookStepper(const ConstrainedModel& model, SpookConfig config)
    : model_(model), config_(config), solver_(makeSparseSolver(config.solver)), jacobian_(model) {
  relax_.assign(model.constraints().size(), ConstraintRelaxation{});
  D_.setZero(jacobian_.rows());
  t_.setZero(jacobian_.rows());
  multipliers_.setZero(jacobian_.rows());
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

  // Assembly: J(q_k), D = diag(Σ, Γ) and the right-hand sides r and (s, t) of eq. (29).
  jacobian_.evaluate(state.q, state.t);
  const SparseMatrixD& J = jacobian_.matrix();
  const Eigen::VectorXd& value = jacobian_.value();
  Jv_.noalias() = J * v;
  for (size_t i = 0; i < cs.size(); ++i) {
    const ConstraintRelaxation& rx = relax_[i];
    const bool holonomic = cs[i].kind == ConstraintKind::Holonomic;
    const double upsilon = 1.0 / (1.0 + 4.0 * rx.tau / h);
    for (int row = jacobian_.rowOffset(int(i)); row < jacobian_.rowOffset(int(i)) + cs[i].rows; ++row) {
      if (holonomic) {
        D_[row] = 4.0 * rx.epsilon * upsilon / (h * h);
        t_[row] = -(4.0 / h) * upsilon * value[row] + upsilon * Jv_[row];
      } else {
        D_[row] = rx.gamma / h;
        t_[row] = value[row];  // w(t_k)
      }
    }
  }
  model_.appliedForce(state.q, v, state.t, f_);
  r_ = M.cwiseProduct(v) + h * f_;
  profile_.assemblyUs = microsecondsSince(stepStart);

  solver_->factor(M, J, D_);
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
