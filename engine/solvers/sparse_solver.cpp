// Factory, names and the pattern-change check shared by the saddle-point back ends.
#include "engine/solvers/sparse_solver.h"

#include <algorithm>
#include <cstring>

#include "engine/solvers/ldlt_solver.h"
#include "engine/solvers/umfpack_solver.h"

namespace varsim {

const char* sparseSolverName(SparseSolverKind kind) { return kind == SparseSolverKind::Ldlt ? "ldlt" : "umfpack"; }

SparseSolverKind parseSparseSolverKind(const std::string& name) {
  if (name == "ldlt") return SparseSolverKind::Ldlt;
  if (name == "umfpack") return SparseSolverKind::Umfpack;
  throw BadInput("solver '" + name + "' is not allowed; one of: ldlt, umfpack");
}

bool SparseSolver::beginFactor(const Eigen::VectorXd& massDiag, const SparseMatrixD& J, const Eigen::VectorXd& dDiag) {
  if (!J.isCompressed()) throw BadInput("SparseSolver: J must be compressed");
  massDiag_ = massDiag;
  dDiag_ = dDiag;
  J_ = &J;
  const long nnz = J.nonZeros();
  bool same = rows_ == J.rows() && cols_ == J.cols() && inner_.size() == nnz &&
              std::memcmp(outer_.data(), J.outerIndexPtr(), sizeof(int) * size_t(J.cols() + 1)) == 0 &&
              (nnz == 0 || std::memcmp(inner_.data(), J.innerIndexPtr(), sizeof(int) * size_t(nnz)) == 0);
  stats_.lastAnalysisReused = same;
  if (same) {
    stats_.analyseUs = 0.0;
    return true;
  }
  rows_ = J.rows();
  cols_ = J.cols();
  outer_ = Eigen::Map<const Eigen::VectorXi>(J.outerIndexPtr(), J.cols() + 1);
  inner_ = Eigen::Map<const Eigen::VectorXi>(J.innerIndexPtr(), nnz);
  return false;
}

void SparseSolver::solve(const Eigen::VectorXd& r, const Eigen::VectorXd& t, Eigen::VectorXd& x, Eigen::VectorXd& y) {
  if (!J_) throw SingularSystem("SparseSolver::solve called before factor");
  const auto start = SteadyClock::now();
  solveFactored(r, t, x, y);
  stats_.solveUs = microsecondsSince(start);
  // Backward error of the original (unsymmetric, as printed) system, scaled by the sizes of the
  // terms that enter it: a backward-stable solve leaves ~1e-15; 1e-8 means the factors are junk.
  const Eigen::VectorXd Jty = J_->transpose() * y;
  const Eigen::VectorXd Jx = (*J_) * x;
  const double resTop = (massDiag_.cwiseProduct(x) - Jty - r).lpNorm<Eigen::Infinity>();
  const double resBottom = y.size() ? (Jx + dDiag_.cwiseProduct(y) - t).lpNorm<Eigen::Infinity>() : 0.0;
  const double scaleTop = massDiag_.cwiseProduct(x).lpNorm<Eigen::Infinity>() + Jty.lpNorm<Eigen::Infinity>() +
                          r.lpNorm<Eigen::Infinity>();
  const double scaleBottom = y.size() ? Jx.lpNorm<Eigen::Infinity>() + dDiag_.cwiseProduct(y).lpNorm<Eigen::Infinity>() +
                                            t.lpNorm<Eigen::Infinity>()
                                      : 0.0;
  const bool finite = x.allFinite() && y.allFinite();
  if (!finite || resTop > 1e-8 * scaleTop + 1e-300 || resBottom > 1e-8 * scaleBottom + 1e-300)
    throw SingularSystem(std::string("singular SPOOK system (") + sparseSolverName(kind()) +
                         "): solution " + (finite ? "" : "not finite, ") + "relative residual " +
                         std::to_string(std::max(resTop / (scaleTop + 1e-300), resBottom / (scaleBottom + 1e-300))) +
                         "; redundant constraints need epsilon > 0");
}

std::unique_ptr<SparseSolver> makeSparseSolver(SparseSolverKind kind) {
  if (kind == SparseSolverKind::Umfpack) return std::make_unique<UmfpackSolver>();
  return std::make_unique<LdltSolver>();
}

}  // namespace varsim
