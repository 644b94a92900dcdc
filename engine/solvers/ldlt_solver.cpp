// LDLᵀ on the quasi-definite form of the SPOOK saddle matrix (see ldlt_solver.h). K's pattern is
// built once per J pattern; each factor() only copies values: column j < n holds M_jj then J's
// column j (constraint row i at K row rowPos_[i]), column rowPos_[i] holds -D_i.
#include "engine/solvers/ldlt_solver.h"

#include <Eigen/OrderingMethods>
#include <algorithm>
#include <cmath>
#include <utility>
#include <string>

namespace varsim {

void LdltSolver::buildPattern(const SparseMatrixD& J) {
  n_ = J.cols();
  m_ = J.rows();
  const long size = n_ + m_;
  // AMD on the constraint graph J Jᵀ: perm.indices()[k] = constraint eliminated k-th.
  rowPos_.assign(size_t(m_), 0);
  if (m_ > 0) {
    const SparseMatrixD JJt = J * SparseMatrixD(J.transpose());
    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> perm;
    Eigen::AMDOrdering<int> amd;
    amd(JJt, perm);
    for (long k = 0; k < m_; ++k) rowPos_[size_t(perm.indices()[k])] = int(n_ + k);
  }
  K_.resize(size, size);
  K_.resizeNonZeros(J.nonZeros() + size);
  int* outer = K_.outerIndexPtr();
  int* inner = K_.innerIndexPtr();
  diagPos_.assign(size_t(size), 0);
  jPos_.assign(size_t(J.nonZeros()), 0);
  std::vector<std::pair<int, int>> column;  // (K row, J value index), sorted by row
  int pos = 0;
  for (long j = 0; j < n_; ++j) {
    outer[j] = pos;
    diagPos_[size_t(j)] = pos;
    inner[pos++] = int(j);
    column.clear();
    for (int p = J.outerIndexPtr()[j]; p < J.outerIndexPtr()[j + 1]; ++p) column.emplace_back(rowPos_[size_t(J.innerIndexPtr()[p])], p);
    std::sort(column.begin(), column.end());
    for (const auto& [row, p] : column) {
      jPos_[size_t(p)] = pos;
      inner[pos++] = row;
    }
  }
  for (long i = 0; i < m_; ++i) {
    outer[n_ + i] = pos;
    diagPos_[size_t(n_ + i)] = pos;
    inner[pos++] = int(n_ + i);
  }
  outer[size] = pos;
  const auto start = SteadyClock::now();
  ldlt_.analyzePattern(K_);
  stats_.analyseUs = microsecondsSince(start);
  ++stats_.analyses;
}

void LdltSolver::factor(const Eigen::VectorXd& massDiag, const SparseMatrixD& J, const Eigen::VectorXd& dDiag,
                        long patternId, const Eigen::VectorXd* massShift) {
  if (!beginFactor(massDiag, J, dDiag, patternId, massShift)) buildPattern(J);
  const auto start = SteadyClock::now();
  double* val = K_.valuePtr();
  const Eigen::VectorXd& M = factoredMass();  // massDiag with the caller's shift, if any
  for (long j = 0; j < n_; ++j) val[diagPos_[size_t(j)]] = M[j];
  const double* jv = J.valuePtr();
  for (size_t p = 0; p < jPos_.size(); ++p) val[jPos_[p]] = jv[p];
  for (long i = 0; i < m_; ++i) val[diagPos_[size_t(rowPos_[size_t(i)])]] = -dDiag[i];
  ldlt_.factorize(K_);
  stats_.factorUs = microsecondsSince(start);
  ++stats_.factorizations;
  stats_.matrixNnz = K_.nonZeros();
  stats_.factorNnz = long(ldlt_.matrixL().nestedExpression().nonZeros()) + n_ + m_;
  if (ldlt_.info() != Eigen::Success) throw SingularSystem("singular SPOOK system (ldlt): zero pivot; redundant constraints need epsilon > 0");
  // Quasi-definite inertia: n positive pivots (mass block), m negative (constraint block).
  // Singularity (D_i = 0 on a redundant row) shows as cancellation: d_k = K_kk − Σ_j L_kj² d_j
  // with |d_k| ≪ the terms (natural ordering on the pre-ordered K: no permutation to undo).
  const Eigen::VectorXd& d = ldlt_.vectorD();
  const long size = n_ + m_;
  scale_.setZero(size);
  for (long i = 0; i < size; ++i) scale_[i] = std::abs(val[diagPos_[size_t(i)]]);
  const SparseMatrixD& L = ldlt_.matrixL().nestedExpression();
  for (long j = 0; j < L.outerSize(); ++j)
    for (SparseMatrixD::InnerIterator it(L, j); it; ++it) scale_[it.row()] += it.value() * it.value() * std::abs(d[j]);
  long positive = 0, negative = 0, cancelled = 0;
  for (long i = 0; i < size; ++i) {
    if (!(std::abs(d[i]) > 1e-13 * scale_[i])) ++cancelled;
    else if (d[i] > 0) ++positive;
    else ++negative;
  }
  if (cancelled > 0 || positive != n_ || negative != m_)
    throw SingularSystem("singular SPOOK system (ldlt): " + std::to_string(cancelled) +
                         " pivot(s) cancelled to below 1e-13 of their terms, inertia (" + std::to_string(positive) + "+, " +
                         std::to_string(negative) + "-) instead of (" + std::to_string(n_) + "+, " + std::to_string(m_) +
                         "-); redundant constraints need epsilon > 0");
}

void LdltSolver::solveFactored(const Eigen::VectorXd& r, const Eigen::VectorXd& t, Eigen::VectorXd& x, Eigen::VectorXd& y) {
  rhs_.resize(n_ + m_);
  rhs_.head(n_) = r;
  for (long i = 0; i < m_; ++i) rhs_[rowPos_[size_t(i)]] = t[i];
  z_ = ldlt_.solve(rhs_);
  x = z_.head(n_);
  y.resize(m_);
  for (long i = 0; i < m_; ++i) y[i] = -z_[rowPos_[size_t(i)]];
}

}  // namespace varsim
