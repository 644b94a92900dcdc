// Tests of the solvability bound (engine/tree/solvability_bound.*, seed 002 Sec. 4): Assumption 1's constants
// against closed forms (single and double pendulum), and the step bound h_bar never violated — Newton from
// v = v_k converges and stays in Prop. 2's ball B_0 for every h <= h_bar on random pendulum and tree states.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "engine/tree/pendulum_chain.h"
#include "engine/tree/solvability_bound.h"
#include "tests/solvability_fixtures.h"
#include "tests/tree_fixtures.h"

using namespace varsim;
using namespace varsim::tree;

namespace {

// Two hinges about y (the second relative to the first), point masses ma, mb at the ends of rods la, lb.
Tree doublePendulum(double ma, double mb, double la, double lb) {
  Tree t;
  const int h1 = t.addFrame(Tree::kWorld, Joint::RotY, Drive::Dynamic);
  const int b1 = t.addFrame(h1, Joint::TransZ, Drive::Constant, -la);
  t.addMass(b1, ma, Matrix3d::Zero());
  const int h2 = t.addFrame(b1, Joint::RotY, Drive::Dynamic);
  t.addMass(t.addFrame(h2, Joint::TransZ, Drive::Constant, -lb), mb, Matrix3d::Zero());
  return t;
}

}  // namespace

TEST_CASE("SinglePendulumBoundsAreTheClosedForm") {
  // M = m l^2 is constant: m1 = m2 = m l^2, l0 = l1 = l2 = 0; D_2 f^x = -c: l4 = k1 = c. With L1 = c/2 and the
  // l's zero, (36) is the only active condition: h_bar = 2 m l^2 / c; undamped there is no restriction.
  const double m = 2.0, l = 0.7, c = 0.3;
  Tree t = pendulumChain(1, m, l);
  TreeForcing f;
  f.damping = VectorXd::Constant(1, c);
  const ModelBounds b = modelBounds(t, VectorXd::Constant(1, 0.4), f);
  CHECK(b.m1 == doctest::Approx(m * l * l).epsilon(1e-14));
  CHECK(b.m2 == doctest::Approx(m * l * l).epsilon(1e-14));
  CHECK(b.l0 < 1e-12);
  CHECK(b.l2 < 1e-6);
  CHECK(b.l4 == c);
  CHECK(b.k1 == c);
  const StepBound s = trapezoidalStepBound(t, VectorXd::Constant(1, 0.4), VectorXd::Constant(1, 1.5), f);
  MESSAGE("single pendulum: h_bar = " << s.hBar() << " s, closed form 2 m l^2 / c = " << 2 * m * l * l / c);
  CHECK(s.hBar() == doctest::Approx(2 * m * l * l / c).epsilon(1e-6));
  const StepBound free = trapezoidalStepBound(t, VectorXd::Constant(1, 0.4), VectorXd::Constant(1, 1.5), {});
  CHECK(free.hBar() == StepBound::kNoLimit);
  CHECK(free.hRegular == StepBound::kNoLimit);
}

TEST_CASE("DoublePendulumBoundsAreTheClosedForm") {
  // Relative angles: M = [[(ma+mb) la² + mb lb² + 2 k cos φ2, mb lb² + k cos φ2], [., mb lb²]], k = mb la lb.
  // ∇M = -k sin φ2 A along φ2 only, A = [[2, 1], [1, 0]] with |A| = 1 + √2: l0 = l1 = k |sin φ2| (1 + √2)
  // and ∇²M = -k cos φ2 A: l2 = k |cos φ2| (1 + √2).
  const double ma = 1.0, mb = 1.5, la = 0.8, lb = 0.6, k = mb * la * lb;
  Tree t = doublePendulum(ma, mb, la, lb);
  for (double phi2 : {0.3, 1.2, 2.5, -2.0}) {
    CAPTURE(phi2);
    const Eigen::Vector2d q(0.7, phi2);
    Eigen::Matrix2d M;
    M << (ma + mb) * la * la + mb * lb * lb + 2 * k * std::cos(phi2), mb * lb * lb + k * std::cos(phi2),
        mb * lb * lb + k * std::cos(phi2), mb * lb * lb;
    const Eigen::Vector2d eig = Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d>(M).eigenvalues();
    const ModelBounds b = modelBounds(t, q, {});
    CHECK(b.m1 == doctest::Approx(eig(0)).epsilon(1e-12));
    CHECK(b.m2 == doctest::Approx(eig(1)).epsilon(1e-12));
    CHECK(b.l0 == doctest::Approx(k * std::abs(std::sin(phi2)) * (1 + std::sqrt(2.0))).epsilon(1e-10));
    CHECK(b.l1 == b.l0);
    CHECK(b.l2 == doctest::Approx(k * std::abs(std::cos(phi2)) * (1 + std::sqrt(2.0))).epsilon(1e-5));
    CHECK(b.l4 == 0);
  }
}

TEST_CASE("RegionBoundsFollowTaylor") {
  ModelBounds b;
  b.m1 = 2, b.m2 = 5, b.l0 = b.l1 = 3, b.l2 = 4;
  const RegionBounds U = regionBounds(b, 0.1);  // |dM| <= 0.1*3 + 0.005*4 = 0.32
  CHECK(U.m1 == doctest::Approx(1.68));
  CHECK(U.m2 == doctest::Approx(5.32));
  CHECK(U.l0 == doctest::Approx(3.4));
  CHECK(U.l2 == 4);
}

// h_bar is a valid bound: for h in {h_bar/4, h_bar/2, 0.99 h_bar} Newton from v_k converges and its solution lies
// in B_0 (Prop. 2). Printed: how conservative it is, the first failing h of a 5% scan above h_bar.
TEST_CASE("NewtonConvergesForEveryStepBelowTheBoundOnRandomStates") {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> u(-1, 1);
  int trials = 0, steps = 0, singular = 0;
  double worstRatio = INFINITY, bestRatio = 0;
  auto check = [&](Tree& t, const VectorXd& q, const VectorXd& v, const TreeForcing& f) {
    const StepBound s = trapezoidalStepBound(t, q, v, f);
    if (s.local.m1 <= 1e-9 * s.local.m2) {  // a variable moving no mass: De_k(v) singular already at h = 0
      CHECK(s.hBar() < 1e-9);
      return void(++singular);
    }
    REQUIRE(s.hBar() > 0);
    REQUIRE(s.hBar() < StepBound::kNoLimit);
    for (double frac : {0.25, 0.5, 0.99}) {
      const test::TrialStep r = test::trialStep(t, q, v, frac * s.hBar(), f);
      CAPTURE(frac);
      CHECK(r.iterations > 0);
      CHECK(r.insideB0);
      ++steps;
    }
    double h = s.hBar();
    while (h < 200 * s.hBar() && test::trialStep(t, q, v, h, f).iterations > 0) h *= 1.05;
    worstRatio = std::min(worstRatio, h / s.hBar()), bestRatio = std::max(bestRatio, h / s.hBar());
    ++trials;
  };
  for (int links : {2, 3, 5, 8}) {
    Tree t = pendulumChain(links, 0.5 + u(rng) * 0.4, 0.5 + 0.4 * u(rng));
    for (int r = 0; r < 6; ++r) {
      CAPTURE(links);
      CAPTURE(r);
      VectorXd q(links), v(links);
      for (int i = 0; i < links; ++i) q(i) = 3.1 * u(rng), v(i) = 3 * u(rng);
      TreeForcing f;
      if (r % 2) f.damping = VectorXd::Constant(links, 0.5 + 0.5 * u(rng));
      check(t, q, v, f);
    }
  }
  for (unsigned seed = 11; seed <= 22; ++seed) {
    CAPTURE(seed);
    Tree t = test::randomTree(seed);
    const VectorXd q = t.q(), v = t.qdot();
    TreeForcing f;
    f.damping = VectorXd::LinSpaced(t.dof(), 0.1, 0.9);
    f.torque = VectorXd::LinSpaced(t.dof(), -1, 1);
    check(t, q, v, f);
  }
  std::printf(
      "solvability: %d states (and %d with singular M, h_bar < 1e-9 s), %d steps at h <= h_bar all converged inside "
      "B_0; first failing h / h_bar "
      "in [%.3g, %.3g] (>= 200 means none below 200 h_bar)\n",
      trials, singular, steps, worstRatio, bestRatio);
  CHECK(worstRatio >= 1.0);
}
