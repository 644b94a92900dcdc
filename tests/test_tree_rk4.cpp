// Tests of the RK4 baseline on the tree (engine/integrators/tree_rk4.*, seed 003 eq. 14): order 4,
// energy drift at large h where the variational integrators stay bounded, normal modes, agreement with
// the midpoint VI as h -> 0, the damped and driven equilibrium, cache on/off bit-identical.
#include <doctest/doctest.h>

#include "engine/integrators/tree_midpoint.h"
#include "engine/integrators/tree_rk4.h"
#include "engine/integrators/tree_trapezoidal.h"
#include "engine/sim/errors.h"
#include "tests/tree_stepper_fixtures.h"

using namespace varsim;
using namespace varsim::tree;

namespace {
const test::StepperFactory rk4 = [](Tree& t) { return std::make_unique<TreeRk4>(t); };
}  // namespace

TEST_CASE("Rk4OrderFour") {
  const std::vector<double> o = test::observedOrders(rk4, 0.02, 1.0);
  MESSAGE("orders " << o[0] << " " << o[1]);
  for (double x : o) CHECK(x == doctest::Approx(4).epsilon(0.1));
}

TEST_CASE("Rk4EnergyDriftsAtLargeStepWhereVariationalOnesStayBounded") {
  // (From 1.2 rad the midpoint VI's Newton lands on a spurious root at h = 0.1; the trapezoidal one does not.)
  const double h = 0.1;
  const Eigen::Vector2d q0(0.8, -0.5);
  Tree a = pendulumChain(2, 1, 1), b = pendulumChain(2, 1, 1), c = pendulumChain(2, 1, 1);
  TreeRk4 r(a);
  TreeMidpoint m(b);
  TreeTrapezoidal tr(c);
  const std::vector<double> er = test::energyHistory(r, q0, h, 10000), em = test::energyHistory(m, q0, h, 10000),
                            et = test::energyHistory(tr, q0, h, 10000);
  const double rk = std::abs(er.back() - er[0]), mid = test::energyError(em, 0, em.size()),
               trap = test::energyError(et, 0, et.size());
  MESSAGE("h = 0.1, 1e4 steps: |E_end - E0| rk4 " << rk << "; max |dE| midpoint " << mid << ", trapezoidal " << trap
                                                  << " (E0 = " << er[0] << ")");
  CHECK(rk > 3 * mid);
  CHECK(rk > 3 * trap);
  CHECK(mid < 0.05 * std::abs(em[0]));
  CHECK(trap < 0.05 * std::abs(et[0]));
}

TEST_CASE("Rk4AgreesWithMidpointAsStepShrinks") {
  const Eigen::Vector2d q0(1.0, -0.5);
  const test::StepperFactory mid = [](Tree& t) { return std::make_unique<TreeMidpoint>(t, 0.5); };
  double prev = 1e300;
  for (double h : {0.02, 0.01, 0.005}) {
    const double d = (test::finalQ(rk4, h, 2.0, q0) - test::finalQ(mid, h, 2.0, q0)).norm();
    MESSAGE("h " << h << ": |q_rk4 - q_mid| = " << d);
    CHECK(d < prev / 3);
    prev = d;
  }
}

TEST_CASE("Rk4NormalModesAndDrivenEquilibrium") {
  for (bool slow : {true, false}) {
    const double T = test::modePeriod(slow);
    CHECK(std::abs(test::measuredPeriod(rk4, test::modeShape(slow, 1e-3), 0.002, 4 * T) / T - 1) < 0.005);
  }
  const double tau = 3.0, expected = std::asin(tau / (2.0 * 9.81 * 0.5));
  CHECK(test::drivenEquilibrium(rk4, tau, 0.01, 30) == doctest::Approx(expected).epsilon(1e-6));
}

TEST_CASE("Rk4CacheOnOffBitIdentical") { CHECK(test::trajectory(rk4, true, 200) == test::trajectory(rk4, false, 200)); }

TEST_CASE("Rk4BadInput") {
  Tree t = pendulumChain(2, 1, 1);
  TreeRk4 r(t);
  CHECK_THROWS_AS(r.step({}), BadInput);
  CHECK_THROWS_AS(r.initialize(Eigen::Vector2d(0, 0), Eigen::Vector3d(0, 0, 0), 0.01, {}), BadInput);
}
