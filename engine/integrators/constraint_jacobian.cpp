// Fixed-pattern constraint Jacobian (see constraint_jacobian.h). The pattern is built from triplets
// whose values are their own ordinal, so after compression each block entry knows its storage slot.
#include "engine/integrators/constraint_jacobian.h"

#include <algorithm>
#include <atomic>
#include <stdexcept>

#include "engine/sim/errors.h"

namespace varsim {

ConstraintJacobian::ConstraintJacobian(const ConstrainedModel& model, bool withMatrix)
    : model_(model), withMatrix_(withMatrix) {
  const auto& cs = model.constraints();
  const int n = model.coordinateCount();
  std::vector<Eigen::Triplet<double, int>> triplets;
  int row = 0;
  size_t width = 1;
  for (const auto& c : cs) {
    // 0 rows: a constraint the model's coordinates satisfy by construction (a rigid rod's unit length).
    if (c.rows < 0 || c.rows > 3) throw BadInput("constraint '" + c.name + "': 0 to 3 rows allowed");
    const size_t block = size_t(c.rows) * c.columns.size();
    if (!c.structuralZero.empty() && c.structuralZero.size() != block)
      throw BadInput("constraint '" + c.name + "': structural-zero mask of " + std::to_string(c.structuralZero.size()) +
                     " entries for a " + std::to_string(block) + "-entry block");
    rowOffset_.push_back(row);
    slotStart_.push_back(int(triplets.size()));
    for (int r = 0; r < c.rows; ++r) {
      holonomicRow_.push_back(c.kind == ConstraintKind::Holonomic);
      for (size_t k = 0; k < c.columns.size(); ++k) {
        const int col = c.columns[k];
        if (col < 0 || col >= n) throw BadInput("constraint '" + c.name + "' names column " + std::to_string(col));
        const size_t entry = size_t(r) * c.columns.size() + k;
        if (!c.structuralZero.empty() && c.structuralZero[entry]) continue;
        if (!withMatrix) continue;  // the columns are checked all the same
        source_.push_back(int(entry));
        triplets.emplace_back(row + r, col, double(triplets.size()) + 1.0);
      }
    }
    row += c.rows;
    width = std::max(width, size_t(c.rows) * c.columns.size());
  }
  slotStart_.push_back(int(triplets.size()));
  value_.setZero(row);
  if (!withMatrix) {
    std::vector<int>().swap(slotStart_);
    return;
  }
  J_.resize(row, n);
  J_.setFromTriplets(triplets.begin(), triplets.end());
  J_.makeCompressed();
  if (J_.nonZeros() != long(triplets.size())) throw BadInput("a constraint lists the same column twice");
  slot_.assign(triplets.size(), 0);
  for (long p = 0; p < J_.nonZeros(); ++p) slot_[size_t(J_.valuePtr()[p] - 1.0)] = int(p);
  jac_.assign(width, 0.0);
  static std::atomic<long> patterns{0};  // scenes may be built on several threads (tests, the app's loader)
  patternId_ = ++patterns;
}

void ConstraintJacobian::evaluate(const Eigen::VectorXd& q, double t) {
  if (!withMatrix_) throw std::logic_error("ConstraintJacobian::evaluate on a Jacobian built for values only");
  double* Jv = J_.valuePtr();
  const bool stacked = model_.evaluateStacked(q, t, value_.data(), Jv, slot_.data(), evaluated_);
  evaluated_ = true;  // J_'s values are written only here: the entries fixed for all q, t stay
  if (stacked) return;
  const auto& cs = model_.constraints();
  for (size_t i = 0; i < cs.size(); ++i) {
    model_.evaluateConstraint(int(i), q, t, value_.data() + rowOffset_[i], jac_.data());
    const int count = slotStart_[i + 1] - slotStart_[i];
    const int* slot = slot_.data() + slotStart_[i];
    const int* source = source_.data() + slotStart_[i];
    for (int k = 0; k < count; ++k) Jv[slot[k]] = jac_[size_t(source[k])];
  }
}

void ConstraintJacobian::evaluateValues(const Eigen::VectorXd& q, double t) {
  model_.constraintValues(q, t, value_.data());
}

void ConstraintJacobian::curvature(const Eigen::VectorXd& q, const Eigen::VectorXd& v, double t, Eigen::VectorXd& c) const {
  c.resize(rows());
  const auto& cs = model_.constraints();
  for (size_t i = 0; i < cs.size(); ++i) model_.constraintCurvature(int(i), q, v, t, c.data() + rowOffset_[i]);
}

}  // namespace varsim
