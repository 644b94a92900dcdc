// Tests of the trapezoidal tree VI (engine/integrators/tree_trapezoidal.*, seed 002 eqs. 21–25,
// Algorithm 1): Jacobian (25) against finite differences of (24), energy bounded over 1e4 steps, order 2,
// normal-mode periods within 0.5 %, the damped and driven equilibrium, cache on/off bit-identical.
#include <doctest/doctest.h>

#include "engine/integrators/tree_trapezoidal.h"
#include "engine/sim/errors.h"
#include "tests/tree_fixtures.h"
#include "tests/tree_stepper_fixtures.h"

using namespace varsim;
using namespace varsim::tree;

namespace {
const test::StepperFactory trapezoidal = [](Tree& t) { return std::make_unique<TreeTrapezoidal>(t); };
}  // namespace

TEST_CASE("TrapezoidalJacobianMatchesFiniteDifferences") {
  for (unsigned seed : {81u, 82u, 83u}) {
    Tree t = test::randomTree(seed);
    const int n = t.dof();
    const TreeForcing f = test::fullForcing(n);
    TreeTrapezoidal tr(t);
    tr.initialize(t.q(), t.qdot(), 0.05, f);
    const VectorXd v = tr.v() + VectorXd::LinSpaced(n, -0.3, 0.2);
    const Eigen::MatrixXd J = tr.jacobian(v, f);
    const Eigen::MatrixXd fd = test::fdJacobian([&](const VectorXd& x) { return tr.residual(x, f); }, v);
    const double rel = (J - fd).norm() / fd.norm();
    MESSAGE("seed " << seed << " (n = " << n << "): |De - FD| / |FD| = " << rel);
    CHECK(rel < 1e-7);
  }
}

TEST_CASE("TrapezoidalSolvesDelAndKeepsEnergyBoundedOver1e4Steps") {
  Tree t = pendulumChain(2, 1.0, 1.0);
  TreeTrapezoidal tr(t);
  const std::vector<double> e = test::energyHistory(tr, Eigen::Vector2d(1.2, -0.8), 0.01, 10000);
  const double first = test::energyError(e, 0, 2500), last = test::energyError(e, 7500, e.size());
  MESSAGE("trapezoidal |dE| first quarter " << first << ", last quarter " << last << " (E0 = " << e[0] << ")");
  CHECK(last < 2e-3 * std::abs(e[0]));
  CHECK(last < 2 * first);
  CHECK(tr.newtonIterations() <= 4);
  CHECK(tr.residual(tr.v(), {}).norm() > 0);  // e_k is for the next step; the last one was solved
}

TEST_CASE("TrapezoidalOrderTwo") {
  const std::vector<double> o = test::observedOrders(trapezoidal, 0.02, 1.0);
  MESSAGE("orders " << o[0] << " " << o[1]);
  for (double x : o) CHECK(x == doctest::Approx(2).epsilon(0.1));
}

TEST_CASE("TrapezoidalDoublePendulumNormalModes") {
  for (bool slow : {true, false}) {
    const double T = test::modePeriod(slow);
    const double measured = test::measuredPeriod(trapezoidal, test::modeShape(slow, 1e-3), 0.002, 4 * T);
    MESSAGE((slow ? "slow" : "fast") << " mode period " << measured << " s, theory " << T << " s");
    CHECK(std::abs(measured / T - 1) < 0.005);
  }
}

TEST_CASE("TrapezoidalDampedDrivenEquilibrium") {
  const double tau = 3.0, expected = std::asin(tau / (2.0 * 9.81 * 0.5));
  CHECK(test::drivenEquilibrium(trapezoidal, tau, 0.01, 30) == doctest::Approx(expected).epsilon(1e-6));
}

TEST_CASE("TrapezoidalCacheOnOffBitIdentical") {
  CHECK(test::trajectory(trapezoidal, true, 200) == test::trajectory(trapezoidal, false, 200));
}

TEST_CASE("TrapezoidalBadInput") {  // a failed Newton (seed 002 Sec. 4's point): test_tree_substeps
  Tree t = pendulumChain(2, 1, 1);
  TreeTrapezoidal tr(t);
  CHECK_THROWS_AS(tr.step({}), BadInput);
  CHECK_THROWS_AS(tr.initialize(Eigen::Vector2d(0, 0), Eigen::Vector2d(0, 0), 0, {}), BadInput);
}
