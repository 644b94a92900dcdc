// engine/control/block_banded_hessian.cpp — the DMOC block-banded Hessian accumulator (block_banded_hessian.h).
#include "engine/control/block_banded_hessian.h"

namespace varsim {

BlockBandedHessian::BlockBandedHessian(int N, int block, std::vector<std::pair<int, int>> groups)
    : N_(N), block_(block), groups_(std::move(groups)) {
  D_.assign(size_t(N + 1), Eigen::MatrixXd::Zero(block, block));
  X_.assign(size_t(N), Eigen::Matrix<double, 3, 6>::Zero());
}

void BlockBandedHessian::addPoseRows(int k, const Matrix12d& P) {
  static const int z9[9] = {0, 1, 2, 6, 7, 8, 9, 10, 11};  // (thk, w, v) of lgviPoseRowsHessian in the block
  Eigen::MatrixXd& Dk = D_[size_t(k)];
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 9; ++j) Dk(z9[i], z9[j]) += P(i, j);
  D_[size_t(k + 1)].block<3, 3>(0, 0) += P.block<3, 3>(9, 9);
  X_[size_t(k)].leftCols<3>() += P.block<3, 3>(9, 0);
  X_[size_t(k)].rightCols<3>() += P.block<3, 3>(9, 3);
}

void BlockBandedHessian::emit(std::vector<Eigen::Triplet<double>>& out) const {
  const std::vector<std::pair<int, int>> last = {{0, 6}};
  out.clear();
  for (int k = 0; k <= N_; ++k) {
    const int ck = block_ * k;
    const Eigen::MatrixXd& Dk = D_[size_t(k)];
    for (const auto& [a, b] : k < N_ ? groups_ : last)
      for (int j = a; j < b; ++j)
        for (int i = j; i < b; ++i) out.emplace_back(ck + i, ck + j, Dk(i, j));
    if (k == N_) break;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 6; ++j) out.emplace_back(ck + block_ + i, ck + (j < 3 ? j : j + 3), X_[size_t(k)](i, j));
  }
}

}  // namespace varsim
