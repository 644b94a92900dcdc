// LDLᵀ back end of SparseSolver: Eigen's SimplicialLDLT (AMD ordering) on the symmetric
// quasi-definite form K = [[M, Jᵀ], [J, -D]] (lower triangle stored; unknown (x, -y)). For M ≻ 0 and
// D ≻ 0, K is quasi-definite and admits a stable LDLᵀ for any symmetric ordering (Vanderbei 1995):
// exactly n positive and m negative pivots. A pivot that cancels to round-off of the terms that
// formed it, or a wrong inertia, is reported as SingularSystem.
#pragma once
#include <Eigen/SparseCholesky>
#include <vector>

#include "engine/solvers/sparse_solver.h"

namespace varsim {

class LdltSolver : public SparseSolver {
 public:
  SparseSolverKind kind() const override { return SparseSolverKind::Ldlt; }
  void factor(const Eigen::VectorXd& massDiag, const SparseMatrixD& J, const Eigen::VectorXd& dDiag) override;

 protected:
  void solveFactored(const Eigen::VectorXd& r, const Eigen::VectorXd& t, Eigen::VectorXd& x,
                     Eigen::VectorXd& y) override;

 private:
  void buildPattern(const SparseMatrixD& J);
  SparseMatrixD K_;                 // lower triangle of the quasi-definite matrix
  std::vector<int> diagPos_;        // value index of K(i, i), i < n + m
  Eigen::SimplicialLDLT<SparseMatrixD, Eigen::Lower, Eigen::AMDOrdering<int>> ldlt_;
  Eigen::VectorXd rhs_, z_, scale_;
  long n_ = 0, m_ = 0;
};

}  // namespace varsim
