// Tests of the generalized-midpoint tree VI (engine/integrators/tree_midpoint.*, seed 003 eqs. 21–26):
// the corrected Jacobian (26) against finite differences (the printed one fails), energy bounded over 1e4
// steps, order 2 at α = ½ (1 otherwise), double-pendulum normal-mode periods within 0.5 %, the damped and
// driven equilibrium, cache on/off bit-identical, bad input.
#include <doctest/doctest.h>

#include "engine/integrators/tree_midpoint.h"
#include "engine/sim/errors.h"
#include "engine/tree/tree_lagrangian.h"
#include "tests/tree_fixtures.h"
#include "tests/tree_stepper_fixtures.h"

using namespace varsim;
using namespace varsim::tree;

namespace {
test::StepperFactory midpoint(double alpha) {
  return [alpha](Tree& t) { return std::make_unique<TreeMidpoint>(t, alpha); };
}
}  // namespace

TEST_CASE("MidpointJacobianMatchesFiniteDifferences") {
  for (double alpha : {0.5, 0.3, 1.0}) {
    Tree t = test::randomTree(71);
    const int n = t.dof();
    const TreeForcing f = test::fullForcing(n);
    TreeMidpoint mp(t, alpha);
    const VectorXd q0 = t.q(), qd0 = t.qdot();
    mp.initialize(q0, qd0, 0.05, f);
    const VectorXd q1 = q0 + 0.05 * qd0 + VectorXd::LinSpaced(n, -0.01, 0.02);
    const Eigen::MatrixXd J = mp.jacobian(q1, f);
    const Eigen::MatrixXd fd = test::fdJacobian([&](const VectorXd& x) { return mp.residual(x, f); }, q1);
    const double rel = (J - fd).norm() / fd.norm();
    MESSAGE("alpha " << alpha << ": |J - FD| / |FD| = " << rel);
    CHECK(rel < 1e-7);
    // The printed (26) (d²L/dqdot² in the (1-α) term, mixed terms not transposed) is off by far more.
    t.setState(q0 + alpha * (q1 - q0), (q1 - q0) / 0.05);
    const Eigen::MatrixXd Lqv = d2LdqDqdot(t), M = massMatrix(t);
    const Eigen::MatrixXd printed = alpha * (1 - alpha) * 0.05 * d2LdqDq(t) + (1 - alpha) * M - alpha * Lqv - M / 0.05;
    MESSAGE("printed (26): " << (printed - fd).norm() / fd.norm());
    CHECK((printed - fd).norm() / fd.norm() > 1e-3);
  }
}

TEST_CASE("MidpointEnergyBoundedOver1e4Steps") {
  Tree t = pendulumChain(2, 1.0, 1.0);
  TreeMidpoint mp(t, 0.5);
  const std::vector<double> e = test::energyHistory(mp, Eigen::Vector2d(1.2, -0.8), 0.01, 10000);
  const double first = test::energyError(e, 0, 2500), last = test::energyError(e, 7500, e.size());
  MESSAGE("midpoint |dE| first quarter " << first << ", last quarter " << last << " (E0 = " << e[0] << ")");
  CHECK(last < 2e-3 * std::abs(e[0]));
  CHECK(last < 2 * first);  // no secular drift
  CHECK(mp.newtonIterations() <= 4);
}

TEST_CASE("MidpointOrderTwoAtHalfOnlyThere") {
  const std::vector<double> o = test::observedOrders(midpoint(0.5), 0.02, 1.0);
  MESSAGE("alpha 1/2 orders " << o[0] << " " << o[1]);
  for (double x : o) CHECK(x == doctest::Approx(2).epsilon(0.1));
  const std::vector<double> o1 = test::observedOrders(midpoint(0.25), 0.02, 1.0);
  MESSAGE("alpha 1/4 orders " << o1[0] << " " << o1[1]);
  CHECK(o1[1] == doctest::Approx(1).epsilon(0.15));
}

TEST_CASE("MidpointDoublePendulumNormalModes") {
  for (bool slow : {true, false}) {
    const double T = test::modePeriod(slow);
    const double measured = test::measuredPeriod(midpoint(0.5), test::modeShape(slow, 1e-3), 0.002, 4 * T);
    MESSAGE((slow ? "slow" : "fast") << " mode period " << measured << " s, theory " << T << " s");
    CHECK(std::abs(measured / T - 1) < 0.005);
  }
}

TEST_CASE("MidpointDampedDrivenEquilibrium") {
  const double tau = 3.0, expected = std::asin(tau / (2.0 * 9.81 * 0.5));
  const double q = test::drivenEquilibrium(midpoint(0.5), tau, 0.01, 30);
  CHECK(q == doctest::Approx(expected).epsilon(1e-6));
}

TEST_CASE("MidpointCacheOnOffBitIdentical") {
  CHECK(test::trajectory(midpoint(0.5), true, 200) == test::trajectory(midpoint(0.5), false, 200));
}

TEST_CASE("MidpointBadInput") {
  Tree t = pendulumChain(2, 1, 1);
  CHECK_THROWS_AS(TreeMidpoint(t, 1.5), BadInput);
  TreeMidpoint mp(t);
  CHECK_THROWS_AS(mp.step({}), BadInput);
  CHECK_THROWS_AS(mp.initialize(Eigen::Vector2d(0, 0), Eigen::Vector2d(0, 0), -0.1, {}), BadInput);
  TreeForcing f;
  f.damping = Eigen::Vector2d(-1, 0);
  CHECK_THROWS_AS(mp.initialize(Eigen::Vector2d(0, 0), Eigen::Vector2d(0, 0), 0.1, f), BadInput);
}
