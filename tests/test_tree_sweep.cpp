// Tests of the O(N) sweeps over a seed 003 tree (Tree::sweep, Tree::lagrangianGradients; engine/tree/
// tree_sweep.cpp) against the per-frame recursion they replace (the accessors with the cache off), algorithm
// against algorithm: every frame's velocity, gravity, composite momentum and weight, dL/dq, dL/dqdot, the
// Hessians, and the midpoint VI's residual (25) and Jacobian (26), on random trees and the 19-link chain, after
// changes of q, of qdot alone and of the kinematic values. (dL/dq against finite differences of L:
// test_tree_lagrangian; the Jacobian against finite differences: test_tree_midpoint.)
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "engine/integrators/tree_midpoint.h"
#include "engine/tree/pendulum_chain.h"
#include "engine/tree/tree_lagrangian.h"
#include "tests/tree_fixtures.h"

using namespace varsim;
using namespace varsim::tree;

namespace {

double maxDiff(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return a.size() == 0 ? 0.0 : (a - b).lpNorm<Eigen::Infinity>() / (1 + b.lpNorm<Eigen::Infinity>());
}

// The largest relative difference, over every frame and every derivative, between the swept tree and the same
// tree without the cache (each quantity recomputed through the recursion on every call).
double sweptVsRecursive(const Tree& swept, const Tree& plain) {
  double worst = 0;
  for (int k = 0; k < swept.frames(); ++k) {
    swept.sweep();  // what dLdq does first; the accessors then read the slots it filled
    worst = std::max({worst, maxDiff(swept.vb(k), plain.vb(k)),
                      maxDiff(swept.compositeMomentum(k), plain.compositeMomentum(k)),
                      maxDiff(swept.compositeWeight(k), plain.compositeWeight(k)),
                      maxDiff(swept.gravityIn(k), plain.gravityIn(k))});
  }
  Eigen::MatrixXd a[3], b[3];
  lagrangianHessians(swept, &a[0], &a[1], &a[2]);
  lagrangianHessians(plain, &b[0], &b[1], &b[2]);
  for (int m = 0; m < 3; ++m) worst = std::max(worst, maxDiff(a[m], b[m]));
  return std::max({worst, maxDiff(dLdq(swept), dLdq(plain)), maxDiff(dLdqdot(swept), dLdqdot(plain)),
                   maxDiff(gradV(swept), gradV(plain))});
}

}  // namespace

TEST_CASE("SweepEqualsThePerFrameRecursionOnRandomTrees") {
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  auto random = [&](int n) {
    VectorXd v(n);
    for (int i = 0; i < n; ++i) v(i) = u(rng);
    return v;
  };
  double worst = 0;
  for (unsigned seed : {91u, 92u, 93u, 94u, 95u, 96u}) {
    Tree swept = test::randomTree(seed), plain = test::randomTree(seed);
    plain.setCache(false);
    const int n = swept.dof(), m = swept.kinematicCount();
    for (int s = 0; s < 4; ++s) {
      const VectorXd q = random(n), qd = random(n), kv = random(m), kr = random(m);
      if (s == 2) {  // qdot alone: velocities and momenta are swept again, positions kept
        swept.setQdot(qd), plain.setQdot(qd);
      } else {
        swept.setState(q, qd), plain.setState(q, qd);
      }
      if (s == 3) swept.setKinematic(kv, kr), plain.setKinematic(kv, kr);
      worst = std::max(worst, sweptVsRecursive(swept, plain));
    }
  }
  MESSAGE("swept vs recursive, 6 random trees x 4 states: max relative difference " << worst);
  CHECK(worst <= 1e-12);
}

TEST_CASE("MidpointResidualAndJacobianSweptVsRecursive") {
  Tree swept = pendulumChain(19, 1.0, 1.0 / 19), plain = pendulumChain(19, 1.0, 1.0 / 19);
  plain.setCache(false);
  TreeMidpoint a(swept), b(plain);
  const VectorXd q0 = VectorXd::LinSpaced(19, 0.5, -0.3), v0 = VectorXd::LinSpaced(19, -2, 3);
  TreeForcing f;
  f.damping = VectorXd::Constant(19, 0.1);
  a.initialize(q0, v0, 0.01, f), b.initialize(q0, v0, 0.01, f);
  const VectorXd q1 = q0 + 0.01 * v0 + VectorXd::Constant(19, 1e-4);
  const double dr = maxDiff(a.residual(q1, f), b.residual(q1, f)), dj = maxDiff(a.jacobian(q1, f), b.jacobian(q1, f));
  MESSAGE("19-link chain: residual (25) differs by " << dr << ", Jacobian (26) by " << dj);
  CHECK(dr <= 1e-12);
  CHECK(dj <= 1e-12);
  for (int k = 0; k < 50; ++k) a.step(f), b.step(f);
  CHECK(maxDiff(a.q(), b.q()) <= 1e-12);
}
