// LDLᵀ back end of SparseSolver: Eigen's SimplicialLDLT on the symmetric quasi-definite form
// K = [[M, Jᵀ], [J, -D]] (lower triangle stored; unknown (x, -y)). Quasi-definite matrices factor
// for any symmetric ordering (Vanderbei 1995), but not stably when D is tiny (ε = 1e-12): an
// ordering that eliminates a constraint row before its coordinates makes pivots −D and M + JᵀJ/D
// and later pivots cancel (measured: false "singular" reports at ε = 1e-12, τ ≥ 4h). So the
// ordering is fixed: coordinates first (M is diagonal, no fill among them), then the constraint
// rows in AMD order of J Jᵀ. The constraint pivots are then those of the SPD matrix J M⁻¹ Jᵀ + D
// (negated), which is backward stable; a pivot that cancels to round-off of the terms that formed
// it, or a wrong inertia, is reported as SingularSystem.
#pragma once
#include <Eigen/SparseCholesky>
#include <vector>

#include "engine/solvers/sparse_solver.h"

namespace varsim {

class LdltSolver : public SparseSolver {
 public:
  SparseSolverKind kind() const override { return SparseSolverKind::Ldlt; }
  using SparseSolver::factor;  // also the one without a pattern id or shift
  void factor(const Eigen::VectorXd& massDiag, const SparseMatrixD& J, const Eigen::VectorXd& dDiag, long patternId,
              const Eigen::VectorXd* massShift) override;

 protected:
  void solveFactored(const Eigen::VectorXd& r, const Eigen::VectorXd& t, Eigen::VectorXd& x,
                     Eigen::VectorXd& y) override;

 private:
  void buildPattern(const SparseMatrixD& J);
  SparseMatrixD K_;                 // lower triangle of the quasi-definite matrix
  std::vector<int> diagPos_;        // value index of K(i, i), i < n + m
  Eigen::SimplicialLDLT<SparseMatrixD, Eigen::Lower, Eigen::NaturalOrdering<int>> ldlt_;
  std::vector<int> rowPos_;         // K index of constraint row i (n + its AMD position)
  std::vector<int> jPos_;           // K value index of each J value (J's storage order)
  Eigen::VectorXd rhs_, z_, scale_;
  long n_ = 0, m_ = 0;
};

}  // namespace varsim
