// The stacked constraint Jacobian J(q) (holonomic G and nonholonomic A rows, constraints in model
// order) with its sparsity pattern built once from the model's column lists less their structural
// zeros (ConstraintDesc::structuralZero), so each evaluation only writes values. Shared by SPOOK
// and the RK4/RATTLE baselines.
#pragma once
#include <Eigen/Core>
#include <vector>

#include "engine/models/constrained_model.h"
#include "engine/solvers/sparse_solver.h"

namespace varsim {

class ConstraintJacobian {
 public:
  // Throws BadInput on a bad column list. withMatrix false: values only (evaluateValues: SPOOK's g_k and ğ with the
  // predicted linearisation) — no sparse pattern and no slot tables (at N = 5000 ~7 MB each never read), matrix()
  // stays empty and evaluate() throws std::logic_error.
  explicit ConstraintJacobian(const ConstrainedModel& model, bool withMatrix = true);
  // J = J(q) and value = g(q) on holonomic rows, w(t) on nonholonomic rows.
  void evaluate(const Eigen::VectorXd& q, double t);
  // value() alone (same bits as evaluate); matrix() keeps the values of the last evaluate().
  void evaluateValues(const Eigen::VectorXd& q, double t);
  // c = Ġv on holonomic rows, Ȧv − ẇ on nonholonomic rows (acceleration-level form).
  void curvature(const Eigen::VectorXd& q, const Eigen::VectorXd& v, double t, Eigen::VectorXd& c) const;
  const SparseMatrixD& matrix() const { return J_; }
  // Unique in the process to this object's pattern, which never changes after construction (SparseSolver::factor's
  // patternId: the solver then need not compare J's index arrays); a copy shares it with the same pattern. 0 without
  // a matrix.
  long patternId() const { return patternId_; }
  const Eigen::VectorXd& value() const { return value_; }
  int rows() const { return int(value_.size()); }
  int rowOffset(int constraint) const { return rowOffset_.at(size_t(constraint)); }
  bool holonomicRow(int row) const { return holonomicRow_[size_t(row)] != 0; }

 private:
  const ConstrainedModel& model_;
  SparseMatrixD J_;
  Eigen::VectorXd value_;
  std::vector<int> rowOffset_;
  std::vector<int> slot_;  // per block entry (structural zeros skipped, constraints in order): its storage index in J_
  std::vector<int> slotStart_;  // per constraint: its first entry there
  std::vector<int> source_;     // per stored entry: its index in the model's dense block (structural zeros skipped)
  std::vector<double> jac_;     // one dense block (the per-constraint path)
  std::vector<char> holonomicRow_;
  bool evaluated_ = false;  // J_ holds a whole evaluation (ConstrainedModel::evaluateStacked's keepFixed)
  bool withMatrix_;
  long patternId_ = 0;
};

}  // namespace varsim
