// UMFPACK LU on the unsymmetric SPOOK matrix (see umfpack_solver.h). The CSC pattern of
// [[M, -Jᵀ], [J, D]] and the position of every J value in it (twice: J and -Jᵀ) are computed once
// per J pattern, so factor() is a value scatter plus umfpack_di_numeric.
#include "engine/solvers/umfpack_solver.h"

#include <umfpack.h>

#include <string>

namespace varsim {

UmfpackSolver::UmfpackSolver() : control_(UMFPACK_CONTROL) { umfpack_di_defaults(control_.data()); }

UmfpackSolver::~UmfpackSolver() {
  freeFactors();
  if (symbolic_) umfpack_di_free_symbolic(&symbolic_);
}

void UmfpackSolver::freeFactors() {
  if (numeric_) umfpack_di_free_numeric(&numeric_);
  numeric_ = nullptr;
}

void UmfpackSolver::buildPattern(const SparseMatrixD& J) {
  freeFactors();
  if (symbolic_) umfpack_di_free_symbolic(&symbolic_);
  symbolic_ = nullptr;
  n_ = J.cols();
  m_ = J.rows();
  const long size = n_ + m_, nnzJ = J.nonZeros();
  // Jᵀ with each value holding the storage index of the J value it came from.
  SparseMatrixD index = J;
  for (long p = 0; p < nnzJ; ++p) index.valuePtr()[p] = double(p);
  const SparseMatrixD indexT = index.transpose();
  Ap_.assign(size_t(size + 1), 0);
  Ai_.assign(size_t(2 * nnzJ + size), 0);
  Ax_.assign(Ai_.size(), 0.0);
  massPos_.assign(size_t(n_), 0);
  jPos_.assign(size_t(nnzJ), 0);
  jtPos_.assign(size_t(nnzJ), 0);
  dPos_.assign(size_t(m_), 0);
  int pos = 0;
  for (long j = 0; j < n_; ++j) {  // column j: M_jj, then J(:, j) below
    Ap_[size_t(j)] = pos;
    massPos_[size_t(j)] = pos;
    Ai_[size_t(pos++)] = int(j);
    for (int p = J.outerIndexPtr()[j]; p < J.outerIndexPtr()[j + 1]; ++p) {
      jPos_[size_t(p)] = pos;
      Ai_[size_t(pos++)] = int(n_) + J.innerIndexPtr()[p];
    }
  }
  for (long i = 0; i < m_; ++i) {  // column n + i: -J(i, :)ᵀ, then D_i
    Ap_[size_t(n_ + i)] = pos;
    for (int p = indexT.outerIndexPtr()[i]; p < indexT.outerIndexPtr()[i + 1]; ++p) {
      jtPos_[size_t(indexT.valuePtr()[p])] = pos;
      Ai_[size_t(pos++)] = indexT.innerIndexPtr()[p];
    }
    dPos_[size_t(i)] = pos;
    Ai_[size_t(pos++)] = int(n_ + i);
  }
  Ap_[size_t(size)] = pos;
  double info[UMFPACK_INFO];
  const auto start = SteadyClock::now();
  const int status = umfpack_di_symbolic(int(size), int(size), Ap_.data(), Ai_.data(), Ax_.data(), &symbolic_,
                                         control_.data(), info);
  stats_.analyseUs = microsecondsSince(start);
  ++stats_.analyses;
  if (status != UMFPACK_OK) throw SingularSystem("UMFPACK symbolic analysis failed, status " + std::to_string(status));
}

void UmfpackSolver::factor(const Eigen::VectorXd& massDiag, const SparseMatrixD& J, const Eigen::VectorXd& dDiag,
                           long patternId, const Eigen::VectorXd* massShift) {
  if (!beginFactor(massDiag, J, dDiag, patternId, massShift)) buildPattern(J);
  const auto start = SteadyClock::now();
  const Eigen::VectorXd& M = factoredMass();  // massDiag with the caller's shift, if any
  for (long j = 0; j < n_; ++j) Ax_[size_t(massPos_[size_t(j)])] = M[j];
  const double* jv = J.valuePtr();
  for (size_t p = 0; p < jPos_.size(); ++p) {
    Ax_[size_t(jPos_[p])] = jv[p];
    Ax_[size_t(jtPos_[p])] = -jv[p];
  }
  for (long i = 0; i < m_; ++i) Ax_[size_t(dPos_[size_t(i)])] = dDiag[i];
  freeFactors();
  double info[UMFPACK_INFO];
  const int status = umfpack_di_numeric(Ap_.data(), Ai_.data(), Ax_.data(), symbolic_, &numeric_, control_.data(), info);
  stats_.factorUs = microsecondsSince(start);
  ++stats_.factorizations;
  stats_.matrixNnz = long(Ap_.back());
  int lnz = 0, unz = 0, nRow = 0, nCol = 0, nzUdiag = 0;
  if (numeric_) umfpack_di_get_lunz(&lnz, &unz, &nRow, &nCol, &nzUdiag, numeric_);
  stats_.factorNnz = long(lnz) + long(unz) - (n_ + m_);  // both counts include the diagonal
  const double rcond = info[UMFPACK_RCOND];
  if (status == UMFPACK_WARNING_singular_matrix || (status == UMFPACK_OK && !(rcond > 1e-13)))
    throw SingularSystem("singular SPOOK system (umfpack): pivot ratio " + std::to_string(rcond) +
                         "; redundant constraints need epsilon > 0");
  if (status != UMFPACK_OK) throw SingularSystem("UMFPACK numeric factorisation failed, status " + std::to_string(status));
}

void UmfpackSolver::solveFactored(const Eigen::VectorXd& r, const Eigen::VectorXd& t, Eigen::VectorXd& x,
                                  Eigen::VectorXd& y) {
  if (!numeric_) throw SingularSystem("UMFPACK: no numeric factorisation to solve with");
  rhs_.resize(n_ + m_);
  rhs_.head(n_) = r;
  rhs_.tail(m_) = t;
  z_.resize(n_ + m_);
  double info[UMFPACK_INFO];
  const int status = umfpack_di_solve(UMFPACK_A, Ap_.data(), Ai_.data(), Ax_.data(), z_.data(), rhs_.data(), numeric_,
                                      control_.data(), info);
  if (status != UMFPACK_OK) throw SingularSystem("UMFPACK solve failed, status " + std::to_string(status));
  x = z_.head(n_);
  y = z_.tail(m_);
}

}  // namespace varsim
