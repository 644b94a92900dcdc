// One sparse linear solve per SPOOK step behind a small interface (ARCHITECTURE "Solver notes"):
// the saddle-point system [[M, -Jᵀ], [J, D]] [x; y] = [r; t] of seed 001 eq. (29), M diagonal SPD,
// J sparse (holonomic G and nonholonomic A rows stacked), D = diag(Σ, Γ) ≥ 0. Three back ends:
// UMFPACK LU on the printed unsymmetric matrix (the paper's path), an LDLᵀ on the symmetric
// quasi-definite form [[M, Jᵀ], [J, -D]] (unknown -y) and a block-tridiagonal Cholesky of the Schur
// complement J M⁻¹ Jᵀ + D (block_tridiagonal_solver.h). Symbolic analysis once per sparsity
// pattern (re-done automatically when the pattern changes), numeric factorisation each call.
#pragma once
#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <chrono>
#include <memory>
#include <string>

#include "engine/sim/errors.h"

namespace varsim {

using SparseMatrixD = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;
using SteadyClock = std::chrono::steady_clock;
inline double microsecondsSince(SteadyClock::time_point start) {
  return std::chrono::duration<double, std::micro>(SteadyClock::now() - start).count();
}

// The system matrix is singular to working precision (e.g. redundant constraints with ε = 0,
// τ = 0). It is a SimulationDiverged (exit code 3 headless): the step is refused, state kept.
struct SingularSystem : SimulationDiverged {
  using SimulationDiverged::SimulationDiverged;
};

enum class SparseSolverKind { Ldlt, Umfpack, Block };
const char* sparseSolverName(SparseSolverKind kind);                // "ldlt" | "umfpack" | "block"
SparseSolverKind parseSparseSolverKind(const std::string& name);  // throws BadInput

// Per-call statistics (the last factor/solve) plus running counts.
struct SparseSolveStats {
  double analyseUs = 0;       // symbolic analysis time of the last analysis (0 if reused)
  double factorUs = 0;        // numeric factorisation (includes copying values into the matrix)
  double solveUs = 0;         // forward/back substitution
  long matrixNnz = 0;         // stored nonzeros of the matrix handed to the back end
  long factorNnz = 0;         // nonzeros of the factors (L + D, or L + U)
  long analyses = 0;          // symbolic analyses so far (1 while the pattern does not change)
  long factorizations = 0;    // numeric factorisations so far
  bool lastAnalysisReused = false;
};

class SparseSolver {
 public:
  virtual ~SparseSolver() = default;
  virtual SparseSolverKind kind() const = 0;
  // Numeric factorisation of the saddle matrix for M = diag(massDiag), J, D = diag(dDiag).
  // Re-analyses only if J's pattern (or the sizes) changed since the last call. Throws
  // SingularSystem (message says why) if the matrix is singular to working precision.
  virtual void factor(const Eigen::VectorXd& massDiag, const SparseMatrixD& J, const Eigen::VectorXd& dDiag) = 0;
  // Solves with the last factorisation: [[M, -Jᵀ], [J, D]] [x; y] = [r; t], then checks the
  // residual of the original system (a near-singular matrix that slipped past the pivot checks
  // shows up here) and throws SingularSystem if it is not small or not finite.
  void solve(const Eigen::VectorXd& r, const Eigen::VectorXd& t, Eigen::VectorXd& x, Eigen::VectorXd& y);
  const SparseSolveStats& stats() const { return stats_; }
  // Threads for factor/solve, 1 or 2 (else BadInput). Only the block back end uses a second thread.
  virtual void setThreads(int threads);

 protected:
  virtual void solveFactored(const Eigen::VectorXd& r, const Eigen::VectorXd& t, Eigen::VectorXd& x,
                             Eigen::VectorXd& y) = 0;
  // Keeps the operands for the residual check and returns true if J has the same sizes and index
  // arrays as the last analysed pattern (else records the new one: the caller re-analyses).
  bool beginFactor(const Eigen::VectorXd& massDiag, const SparseMatrixD& J, const Eigen::VectorXd& dDiag);
  SparseSolveStats stats_;

 private:
  Eigen::VectorXd massDiag_, dDiag_;  // kept for the residual check
  Eigen::VectorXd resBottom_, scaleBottom_;  // its work space (no allocation per step)
  const SparseMatrixD* J_ = nullptr;
  Eigen::VectorXi outer_, inner_;
  long rows_ = -1, cols_ = -1;
};

std::unique_ptr<SparseSolver> makeSparseSolver(SparseSolverKind kind);

}  // namespace varsim
