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
#include <algorithm>
#include <chrono>
#include <cmath>
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
  // SingularSystem (message says why) if the matrix is singular to working precision — the block
  // back end defers the numbers to the next solve (fused with it), which then throws instead (J and D
  // must stay alive and unchanged until then, as for every solve; M is copied).
  void factor(const Eigen::VectorXd& massDiag, const SparseMatrixD& J, const Eigen::VectorXd& dDiag) {
    factor(massDiag, J, dDiag, 0, nullptr);
  }
  // factor() for a J whose pattern the caller names: patternId ≠ 0 is unique to one pattern for the life of the
  // process (ConstraintJacobian::patternId(): its pattern is built once, only values change). The pattern is then
  // known to be unchanged from the id, J's sizes and nonzero count, without comparing J's index arrays with a copy
  // (at N = 5000 rods 1.8 MB read per solve and 1.8 MB kept). A new id, or a call without one (0), re-analyses once.
  // massShift (optional, massDiag's size): M = diag(massDiag + massShift), summed in the pass that inverts it (a
  // caller whose shift changes M on every solve, SPOOK's Newton iterate, need not store the sum).
  virtual void factor(const Eigen::VectorXd& massDiag, const SparseMatrixD& J, const Eigen::VectorXd& dDiag, long patternId,
                      const Eigen::VectorXd* massShift) = 0;
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
  // True if solveFactored feeds the residual check itself (residualStart, then residualColumn for every
  // column of J in its last pass over J), saving solve() a pass; solve() then only calls residualFinish.
  virtual bool checksResidual() const { return false; }
  // The backward-error check of solve(), in three parts (one code path for every back end).
  // `scratch` (2 m doubles, or null: the solver's own vectors) holds the bottom row's residual and scale: a back end
  // passes memory that is dead by then (the block back end: its factor store after the backward pass), so the
  // check adds 16 bytes per row to nothing in the step's working set.
  void residualStart(const Eigen::VectorXd& t, const Eigen::VectorXd& y, double* scratch = nullptr);
  inline void residualColumn(long c, double xc, double rc, const int* rows, const double* values, int count,
                             const double* y);
  // The same given the column's sums s = r_c + Σ J_ic y_i and sAbs = |r_c| + Σ |J_ic y_i| (a back end that just
  // summed them for x = M⁻¹ s passes them on instead of having them summed again).
  inline void residualColumn(long c, double xc, double s, double sAbs, double rc, const int* rows, const double* values,
                             int count);
  void residualFinish(const Eigen::VectorXd& x, const Eigen::VectorXd& y) const;  // throws SingularSystem
  // Keeps the operands for the residual check and returns true if J has the same pattern as the last analysed
  // one: by the caller's pattern id if it named one, else by J's sizes and index arrays against a copy (else
  // records the new pattern: the caller re-analyses).
  bool beginFactor(const Eigen::VectorXd& massDiag, const SparseMatrixD& J, const Eigen::VectorXd& dDiag, long patternId,
                   const Eigen::VectorXd* massShift);
  const Eigen::VectorXd& factoredMass() const { return massDiag_; }  // the last factor()'s M (shift included)
  const Eigen::VectorXd& inverseMass() const { return invMass_; }  // the last factor()'s M⁻¹, 0 where M is 0
  const Eigen::VectorXd& factoredD() const { return *dDiag_; }  // the last factor()'s D (the caller's)
  const SparseMatrixD& factoredJ() const { return *J_; }        // the last factor()'s J (the caller's)
  SparseSolveStats stats_;
  double factorInSolveUs_ = 0;  // set by a solveFactored that ran a deferred factorisation (not solve time)

 private:
  bool samePattern(const SparseMatrixD& J, long patternId) const;
  void setMass(const double* massDiag, const double* shift, long n);
  Eigen::VectorXd massDiag_, invMass_;  // kept for the residual check (invMass_: 0 where M is)
  const Eigen::VectorXd* dDiag_ = nullptr;
  Eigen::VectorXd ownBottom_;                 // its work space when the back end lends none (no allocation per step)
  double *resBottom_ = nullptr, *scaleBottom_ = nullptr;  // m each: in ownBottom_ or the back end's scratch
  long bottomRows_ = 0;
  double resTop_ = 0.0, scaleTop_ = 0.0;
  bool finiteTop_ = true;  // std::max drops a NaN: keep track of it here
  const SparseMatrixD* J_ = nullptr;
  Eigen::VectorXi outer_, inner_;  // the analysed pattern's index arrays, kept only when it has no id
  long rows_ = -1, cols_ = -1, nonZeros_ = -1;
  long patternId_ = 0;  // the analysed pattern's id (0: none, compare outer_/inner_)
};

std::unique_ptr<SparseSolver> makeSparseSolver(SparseSolverKind kind);

// Column c of the top block row, (M x − r − Jᵀ y)_c = M_c x_c − s and its scale |M x|_c + |r_c| + Σ|J_ic y_i| (|A||z| rather
// than |Az| so cancellation does not shrink the scale), and J's column c times x_c into the bottom block row,
// whose scale also gets |J_ic| |r_c / M_c|: the free motion J M⁻¹ r that eliminating x cancels against J M⁻¹ Jᵀ y.
// Without it a body held at rest (x ≈ 0 while M⁻¹ r ≈ h g) measured the round-off of that cancellation against
// |J x| ≈ 0: a one-rod chain at ε = 1e-10, h = 0.1 was refused as singular (backward error 2.5e-8) once at rest.
inline void SparseSolver::residualColumn(long c, double xc, double rc, const int* rows, const double* values, int count,
                                         const double* y) {
  double s = rc, sAbs = std::abs(rc);
  for (int p = 0; p < count; ++p) {
    const double vy = values[p] * y[rows[p]];
    s += vy;
    sAbs += std::abs(vy);
  }
  residualColumn(c, xc, s, sAbs, rc, rows, values, count);
}

inline void SparseSolver::residualColumn(long c, double xc, double s, double sAbs, double rc, const int* rows,
                                         const double* values, int count) {
  const double mx = massDiag_[c] * xc;
  const double motion = std::abs(xc) + std::abs(rc) * invMass_[c];
  const double res = mx - s, scale = std::abs(mx) + sAbs;
  for (int p = 0; p < count; ++p) {
    resBottom_[rows[p]] += values[p] * xc;
    scaleBottom_[rows[p]] += std::abs(values[p]) * motion;
  }
  finiteTop_ = finiteTop_ && std::isfinite(res) && std::isfinite(scale);
  resTop_ = std::max(resTop_, std::abs(res));
  scaleTop_ = std::max(scaleTop_, scale);
}

}  // namespace varsim
