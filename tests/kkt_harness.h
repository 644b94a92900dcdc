// tests/kkt_harness.h — what the KKT LDL^T tests (test_kkt_*.cpp) share: symmetric matrices as MA27 triplets (from
// either triangle, some entries split into duplicates), random KKT systems [H J^T; J -delta I], Ipopt's use of the
// MA27 routines (plan/ma27_bridge.h), and the negative eigenvalues of a dense matrix. Header-only, test use.
#pragma once

#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <random>
#include <vector>

#include "plan/ma27_bridge.h"

namespace varsim::test {

struct Triplets {
  int n = 0;
  std::vector<int> rows, cols;  // 1-based
  std::vector<double> values;
  void add(int i, int j, double v) { rows.push_back(i + 1), cols.push_back(j + 1), values.push_back(v); }
};

// The lower triangle of `dense` as triplets, each entry from a random triangle, some split into two duplicates.
inline Triplets triplets(const Eigen::MatrixXd& dense, std::mt19937& rng) {
  std::uniform_real_distribution<double> p(0.0, 1.0);
  const int dim = int(dense.rows());
  Triplets t;
  t.n = dim;
  for (int j = 0; j < dim; ++j)
    for (int i = j; i < dim; ++i) {
      if (dense(i, j) == 0.0 && i != j) continue;
      const bool upper = p(rng) < 0.5;
      const int a = upper ? j : i, b = upper ? i : j;
      if (p(rng) < 0.2) t.add(a, b, 0.25 * dense(i, j)), t.add(b, a, 0.75 * dense(i, j));  // duplicates sum
      else t.add(a, b, dense(i, j));
    }
  return t;
}

// [H J^T; J -delta I] with H (n x n) sparse symmetric (diagonal of either sign when `indefinite`, a fraction
// `zeroDiagonal` of it exactly 0), J (m x n) sparse with an entry 1..2 on its "diagonal" (full rank).
inline Triplets randomKkt(int n, int m, bool indefinite, double delta, std::mt19937& rng, Eigen::MatrixXd& dense,
                   double zeroDiagonal = 0.0) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), p(0.0, 1.0);
  const int dim = n + m;
  dense = Eigen::MatrixXd::Zero(dim, dim);
  for (int i = 0; i < n; ++i) dense(i, i) = p(rng) < zeroDiagonal ? 0.0 : indefinite ? 3.0 * u(rng) : 4.0 + p(rng);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      if (p(rng) < 0.1) dense(i, j) = dense(j, i) = u(rng);
  for (int r = 0; r < m; ++r) {
    dense(n + r, r % n) = dense(r % n, n + r) = 1.0 + p(rng);
    for (int j = 0; j < n; ++j)
      if (j != r % n && p(rng) < 0.15) dense(n + r, j) = dense(j, n + r) = u(rng);
    dense(n + r, n + r) = -delta;
  }
  return triplets(dense, rng);
}

// Ipopt's use of the routines (IpMa27TSolverInterface.cpp): analyse, allocate what INFO(5)/INFO(6) ask for, copy
// the values into A, factorise (growing A/IW on -3/-4), solve.
struct Ma27Run {
  int icntl[30], info[20], nsteps = 0, maxfrt = 0, la = 0, liw = 0;
  double cntl[5], ops = 0.0;
  std::vector<int> iw, ikeep;
  std::vector<double> a;

  explicit Ma27Run(Triplets& t) {
    ma27::id(icntl, cntl);
    int n = t.n, nz = int(t.values.size()), iflag = 0;
    liw = 2 * (2 * nz + 3 * n + 1);
    iw.assign(size_t(liw), 0);
    ikeep.assign(size_t(3 * n), 0);
    std::vector<int> iw1(size_t(2 * n));
    ma27::ad(&n, &nz, t.rows.data(), t.cols.data(), iw.data(), &liw, ikeep.data(), iw1.data(), &nsteps, &iflag, icntl,
             cntl, info, &ops);
    REQUIRE(info[0] == 0);
    la = std::max(nz, info[4]);
    liw = info[5];
    a.assign(size_t(la), 0.0);
    iw.assign(size_t(liw), 0);
  }
  void factorise(Triplets& t) {
    int n = t.n, nz = int(t.values.size());
    std::copy(t.values.begin(), t.values.end(), a.begin());
    std::vector<int> iw1(size_t(2 * n));
    ma27::bd(&n, &nz, t.rows.data(), t.cols.data(), a.data(), &la, iw.data(), &liw, ikeep.data(), &nsteps, &maxfrt,
             iw1.data(), icntl, cntl, info);
  }
  // Ipopt's reaction to -3 / -4 (an order amended for zero diagonals may need more room): grow, factorise again.
  void factoriseGrowing(Triplets& t) {
    factorise(t);
    for (int tries = 0; tries < 2 && (info[0] == -3 || info[0] == -4); ++tries) {
      if (info[0] == -3) liw = 2 * info[1], la = 2 * la;
      else liw = 2 * liw, la = 2 * info[1];
      a.assign(size_t(la), 0.0), iw.assign(size_t(liw), 0);
      factorise(t);
    }
  }
  Eigen::VectorXd solve(int n, Eigen::VectorXd rhs) {
    std::vector<double> w(static_cast<size_t>(maxfrt));
    std::vector<int> iw1(static_cast<size_t>(nsteps));
    ma27::cd(&n, a.data(), &la, iw.data(), &liw, w.data(), &maxfrt, rhs.data(), iw1.data(), &nsteps, icntl, cntl);
    return rhs;
  }
};

inline int negativeEigenvalues(const Eigen::MatrixXd& m) {
  const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(m).eigenvalues();
  return int((ev.array() < 0.0).count());
}


}  // namespace varsim::test
