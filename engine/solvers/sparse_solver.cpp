// Factory, names and the pattern-change check shared by the saddle-point back ends.
#include "engine/solvers/sparse_solver.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include "engine/solvers/block_tridiagonal_solver.h"
#include "engine/solvers/ldlt_solver.h"
#include "engine/solvers/umfpack_solver.h"

namespace varsim {

const char* sparseSolverName(SparseSolverKind kind) {
  return kind == SparseSolverKind::Ldlt ? "ldlt" : kind == SparseSolverKind::Block ? "block" : "umfpack";
}

SparseSolverKind parseSparseSolverKind(const std::string& name) {
  if (name == "ldlt") return SparseSolverKind::Ldlt;
  if (name == "umfpack") return SparseSolverKind::Umfpack;
  if (name == "block") return SparseSolverKind::Block;
  throw BadInput("solver '" + name + "' is not allowed; one of: ldlt, umfpack, block");
}

void SparseSolver::setThreads(int threads) {
  if (threads < 1 || threads > 2)
    throw BadInput("solver threads = " + std::to_string(threads) + " is not allowed; allowed 1 or 2");
}

bool SparseSolver::samePattern(const SparseMatrixD& J, long patternId) const {
  const long nnz = J.nonZeros();
  if (rows_ != J.rows() || cols_ != J.cols() || nonZeros_ != nnz) return false;
  if (patternId != 0 || patternId_ != 0) return patternId == patternId_;  // an id names one pattern for good
  return std::memcmp(outer_.data(), J.outerIndexPtr(), sizeof(int) * size_t(J.cols() + 1)) == 0 &&
         (nnz == 0 || std::memcmp(inner_.data(), J.innerIndexPtr(), sizeof(int) * size_t(nnz)) == 0);
}

namespace {
// inv = 1 / m, 0 where m is, as (1 − z) / (m + z) with z = [m = 0]: the same bits as 1 / m elsewhere (NaN, inf
// included), 0 / 1 at a zero, and one division per entry that GCC vectorises (a select after the division is
// not if-converted; Eigen's select is scalar).
void inverseOrZero(const double* __restrict m, double* __restrict inv, long n) {
  for (long i = 0; i < n; ++i) {
    const double z = m[i] == 0.0 ? 1.0 : 0.0;
    inv[i] = (1.0 - z) / (m[i] + z);
  }
}
}  // namespace

// M = massDiag (+ shift) and M⁻¹ in one vectorised pass: the division, then 0 where M is (no branch).
void SparseSolver::setMass(const double* __restrict massDiag, const double* __restrict shift, long n) {
  massDiag_.resize(n);
  invMass_.resize(n);
  double* __restrict mass = massDiag_.data();
  double* __restrict inv = invMass_.data();
  if (shift)
    for (long i = 0; i < n; ++i) mass[i] = massDiag[i] + shift[i];
  else
    std::memcpy(mass, massDiag, sizeof(double) * size_t(n));
  inverseOrZero(mass, inv, n);
}

bool SparseSolver::beginFactor(const Eigen::VectorXd& massDiag, const SparseMatrixD& J, const Eigen::VectorXd& dDiag,
                               long patternId, const Eigen::VectorXd* shift) {
  if (!J.isCompressed()) throw BadInput("SparseSolver: J must be compressed");
  const long n = massDiag.size();
  if (shift && shift->size() != n)
    throw BadInput("SparseSolver: mass shift of " + std::to_string(shift->size()) + " entries for " + std::to_string(n) +
                   " coordinates");
  if (shift) setMass(massDiag.data(), shift->data(), n);  // a shifted M changes on every solve: no compare
  else if (massDiag_.size() != n || std::memcmp(massDiag_.data(), massDiag.data(), sizeof(double) * size_t(n)) != 0)
    setMass(massDiag.data(), nullptr, n);  // M is constant in most scenes: its n divisions once, not per step
  dDiag_ = &dDiag;
  J_ = &J;
  const bool same = samePattern(J, patternId);
  stats_.lastAnalysisReused = same;
  if (same) {
    stats_.analyseUs = 0.0;
    return true;
  }
  rows_ = J.rows();
  cols_ = J.cols();
  nonZeros_ = J.nonZeros();
  patternId_ = patternId;
  if (patternId == 0) {
    outer_ = Eigen::Map<const Eigen::VectorXi>(J.outerIndexPtr(), J.cols() + 1);
    inner_ = Eigen::Map<const Eigen::VectorXi>(J.innerIndexPtr(), nonZeros_);
  } else {
    outer_.resize(0);
    inner_.resize(0);
  }
  return false;
}

void SparseSolver::solve(const Eigen::VectorXd& r, const Eigen::VectorXd& t, Eigen::VectorXd& x, Eigen::VectorXd& y) {
  if (!J_) throw SingularSystem("SparseSolver::solve called before factor");
  const auto start = SteadyClock::now();
  factorInSolveUs_ = 0;
  solveFactored(r, t, x, y);
  stats_.solveUs = microsecondsSince(start) - factorInSolveUs_;
  if (!checksResidual()) {  // one pass over J's columns (no temporaries)
    const SparseMatrixD& J = *J_;
    const int* outer = J.outerIndexPtr();
    residualStart(t, y);
    for (long c = 0; c < J.cols(); ++c)
      residualColumn(c, x[c], r[c], J.innerIndexPtr() + outer[c], J.valuePtr() + outer[c], outer[c + 1] - outer[c], y.data());
  }
  residualFinish(x, y);
}

// Backward error of the original, printed system per block row: ‖b − A z‖∞ / ‖|A||z| + |b|‖∞. A stable
// solve leaves ~1e-15; 1e-8 means the factors are junk (a singular matrix past the pivot checks).
void SparseSolver::residualStart(const Eigen::VectorXd& t, const Eigen::VectorXd& y, double* scratch) {
  const long m = y.size();
  const Eigen::VectorXd& D = *dDiag_;
  if (!scratch) {
    ownBottom_.resize(2 * m);
    scratch = ownBottom_.data();
  }
  resBottom_ = scratch;
  scaleBottom_ = scratch + m;
  bottomRows_ = m;
  for (long i = 0; i < m; ++i) {  // one pass over D, y, t for both
    resBottom_[i] = D[i] * y[i] - t[i];
    scaleBottom_[i] = std::abs(D[i]) * std::abs(y[i]) + std::abs(t[i]);
  }
  resTop_ = scaleTop_ = 0.0;
  finiteTop_ = true;
}

void SparseSolver::residualFinish(const Eigen::VectorXd& x, const Eigen::VectorXd& y) const {
  double backward = finiteTop_ ? resTop_ / (scaleTop_ + 1e-300) : std::numeric_limits<double>::quiet_NaN();
  if (bottomRows_ > 0) {
    const Eigen::Map<const Eigen::VectorXd> res(resBottom_, bottomRows_), scale(scaleBottom_, bottomRows_);
    backward = std::max(backward, res.lpNorm<Eigen::Infinity>() / (scale.lpNorm<Eigen::Infinity>() + 1e-300));
  }
  // Σ 0·z is 0 for finite entries and NaN if one is inf or NaN: one vectorised pass (allFinite branches per entry).
  const bool finite = (x.array() * 0.0).sum() == 0.0 && (y.array() * 0.0).sum() == 0.0;
  if (!finite || !(backward <= 1e-8)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", backward);
    throw SingularSystem(std::string("singular SPOOK system (") + sparseSolverName(kind()) + "): solution " +
                         (finite ? "" : "not finite, ") + "normwise backward error " + buf +
                         "; redundant constraints need epsilon > 0");
  }
}

std::unique_ptr<SparseSolver> makeSparseSolver(SparseSolverKind kind) {
  if (kind == SparseSolverKind::Umfpack) return std::make_unique<UmfpackSolver>();
  if (kind == SparseSolverKind::Block) return std::make_unique<BlockTridiagonalSolver>();
  return std::make_unique<LdltSolver>();
}

}  // namespace varsim
