// UMFPACK back end of SparseSolver: sparse LU with partial pivoting on the printed, unsymmetric
// SPOOK matrix [[M, -Jᵀ], [J, D]] (seed 001 eq. (29), the paper's recommended path). Symbolic
// analysis (column ordering) once per pattern; umfpack_di_numeric every factor(). A singular
// warning or a reciprocal pivot ratio below 1e-13 is reported as SingularSystem.
#pragma once
#include <vector>

#include "engine/solvers/sparse_solver.h"

namespace varsim {

class UmfpackSolver : public SparseSolver {
 public:
  UmfpackSolver();
  ~UmfpackSolver() override;
  UmfpackSolver(const UmfpackSolver&) = delete;
  UmfpackSolver& operator=(const UmfpackSolver&) = delete;
  SparseSolverKind kind() const override { return SparseSolverKind::Umfpack; }
  using SparseSolver::factor;  // also the one without a pattern id or shift
  void factor(const Eigen::VectorXd& massDiag, const SparseMatrixD& J, const Eigen::VectorXd& dDiag, long patternId,
              const Eigen::VectorXd* massShift) override;

 protected:
  void solveFactored(const Eigen::VectorXd& r, const Eigen::VectorXd& t, Eigen::VectorXd& x,
                     Eigen::VectorXd& y) override;

 private:
  void buildPattern(const SparseMatrixD& J);
  void freeFactors();
  std::vector<int> Ap_, Ai_;
  std::vector<double> Ax_;
  std::vector<int> massPos_;         // value index of M_jj
  std::vector<int> jPos_;            // value index of each J value (J's storage order)
  std::vector<int> jtPos_;           // value index of -Jᵀ entries, per J value
  std::vector<int> dPos_;            // value index of D_i
  std::vector<double> control_;
  void* symbolic_ = nullptr;
  void* numeric_ = nullptr;
  Eigen::VectorXd rhs_, z_;
  long n_ = 0, m_ = 0;
};

}  // namespace varsim
