// engine/control/banded_hessian.cpp — compressed forward differences of the Lagrangian gradient (banded_hessian.h).
#include "engine/control/banded_hessian.h"

#include <algorithm>
#include <cmath>

namespace varsim {

namespace {

// s grad f + J^T lambda at x.
Eigen::VectorXd lagrangianGradient(const Nlp& nlp, const Eigen::VectorXd& x, double s, const Eigen::VectorXd& lambda,
                                   std::vector<Eigen::Triplet<double>>& scratch) {
  Eigen::VectorXd g = s * nlp.gradient(x);
  nlp.jacobian(x, scratch);
  for (const auto& t : scratch) g[t.col()] += t.value() * lambda[t.row()];
  return g;
}

}  // namespace

void bandedFdHessian(const Nlp& nlp, int block, const Eigen::VectorXd& x, double objFactor,
                     const Eigen::VectorXd& lambda, std::vector<Eigen::Triplet<double>>& out) {
  const int n = nlp.numVariables(), blocks = (n + block - 1) / block;
  // H(i, j) for |b(i) - b(j)| <= 1, stored per column j as the rows of blocks b(j)-1 .. b(j)+1 (3 block entries).
  std::vector<double> H(size_t(n) * 3 * size_t(block), 0.0);
  const auto at = [&](int i, int j) -> double& {
    const int bj = j / block, bi = i / block;
    return H[(size_t(j) * 3 + size_t(bi - bj + 1)) * size_t(block) + size_t(i % block)];
  };
  std::vector<Eigen::Triplet<double>> scratch;
  std::vector<double> step(n);
  for (int j = 0; j < n; ++j) step[j] = 1e-7 * std::max(1.0, std::abs(x[j]));
  const Eigen::VectorXd g0 = lagrangianGradient(nlp, x, objFactor, lambda, scratch);
  for (int offset = 0; offset < block; ++offset)
    for (int r = 0; r < 3; ++r) {
      Eigen::VectorXd xp = x;
      bool any = false;
      for (int b = r; b < blocks; b += 3) {
        const int j = b * block + offset;
        if (j >= n) continue;
        xp[j] += step[j], any = true;
      }
      if (!any) continue;
      const Eigen::VectorXd d = lagrangianGradient(nlp, xp, objFactor, lambda, scratch) - g0;
      // Row i sees exactly one perturbed column of this colour within distance 1: the one in block b(i)-1..b(i)+1
      // that is = r (mod 3).
      for (int i = 0; i < n; ++i) {
        const int bi = i / block;
        for (int b = std::max(0, bi - 1); b <= std::min(blocks - 1, bi + 1); ++b) {
          const int j = b * block + offset;
          if (b % 3 != r || j >= n) continue;
          at(i, j) = d[i] / step[j];
        }
      }
    }
  out.clear();
  for (int j = 0; j < n; ++j) {
    const int bj = j / block;
    for (int i = j; i < std::min(n, (bj + 2) * block); ++i) out.emplace_back(i, j, 0.5 * (at(i, j) + at(j, i)));
  }
}

}  // namespace varsim
