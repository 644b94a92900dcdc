// Tests of the car's RK baselines (engine/integrators/vehicle_rk.h, seed 000 Fig.
// 5): observed orders 2 (RK2) and 4 (RK4) with inputs constant over the run,
// the variational update unchanged behind carStepWith, the car scene's
// `integrator` choice (default bit-identical to carStep, RK rows differ,
// impacts still hold).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "engine/integrators/vehicle_rk.h"
#include "engine/sim/errors.h"
#include "tests/log_log_slope.h"
#include "tests/scene_harness.h"

using namespace varsim;

namespace {

// Pose after T s from rest pose, psi_dot(0) = 3 rad/s, constant torque 0.2 N m
// and steering rate 0.05 1/s.
se2::Pose2 carAfter(VehicleIntegrator method, double h, double T) {
  const CarParams p;
  CarState s = carStart(p, se2::Pose2{}, 0.0, 0.1, 3.0);
  for (long k = 0; k < std::lround(T / h); ++k) carStepWith(method, p, 0.5, h, s, 0.05, 0.2);
  return s.g;
}

}  // namespace

TEST_CASE("CarRkObservedOrders") {
  const double T = 4.0;
  const se2::Pose2 truth = carAfter(VehicleIntegrator::Rk4, 1.0 / 2048, T);
  const std::vector<double> hs = {0.2, 0.1, 0.05, 0.025};
  for (auto [method, order] :
       {std::pair{VehicleIntegrator::Rk2, 2.0}, {VehicleIntegrator::Rk4, 4.0}, {VehicleIntegrator::Variational, 2.0}}) {
    std::vector<double> err;
    for (double h : hs) {
      const se2::Pose2 g = carAfter(method, h, T);
      err.push_back(std::hypot(g.x - truth.x, g.y - truth.y) + std::abs(g.theta - truth.theta));
    }
    const double slope = test::logLogSlope(hs, err);
    MESSAGE(std::string(vehicleIntegratorName(method))
            << " pose error at 4 s: " << err[0] << " ... " << err[3] << ", slope " << slope);
    CHECK(slope == doctest::Approx(order).epsilon(0.06));
  }
}

TEST_CASE("CarRkStateAndNames") {
  const CarParams p;
  CarState s = carStart(p, se2::Pose2{}, 0.0, 0.2, 3.0);
  carRkStep(p, 4, 0.1, s, 0.0, 0.0);
  // No torque, constant steering: the wheel momentum (I0 + c sigma^2) psi_dot
  // is constant, as is the energy.
  CHECK(s.pMinus == doctest::Approx(p.momentumOfRate(3.0, 0.2)).epsilon(1e-14));
  CHECK(s.u == doctest::Approx(3.0).epsilon(1e-14));
  CHECK(vehicleIntegratorFromName("rk2") == VehicleIntegrator::Rk2);
  CHECK(std::string(vehicleIntegratorName(VehicleIntegrator::Variational)) == "variational");
  CHECK_THROWS_AS(vehicleIntegratorFromName("rk3"), BadInput);
  // Overflow is reported with the state unchanged.
  CarState big = carStart(p, se2::Pose2{}, 0.0, 0.0, 1e9);
  const CarState before = big;
  CHECK_THROWS_AS(carRkStep(p, 2, 0.1, big, 0.0, 0.0), SimulationDiverged);
  CHECK(big.pMinus == before.pMinus);
}

TEST_CASE("CarSceneIntegratorChoice") {
  // A circle (constant steering, no torque). Default = the variational update,
  // bit-identical to an explicit "variational"; the RK rows differ but stay
  // close, and their energy is exact (psi_dot is constant).
  const auto rows = [](const char* method) {
    auto scene = test::makeScene(
        "car", {{"world", "open"}, {"speed", "4"}, {"steer", "0.2"}, {"return_to_centre", "false"}, {"integrator", method}});
    return test::runScene(*scene, 600, [&](long) { return InputVector(scene->controls().size(), 0.0); });
  };
  auto scene = test::makeScene("car", {{"world", "open"}, {"speed", "4"}, {"steer", "0.2"}, {"return_to_centre", "false"}});
  const auto variational = test::runScene(*scene, 600, [&](long) { return InputVector(3, 0.0); });
  CHECK(variational == rows("variational"));
  const int x = test::columnOf(*scene, "x"), y = test::columnOf(*scene, "y"), e = test::columnOf(*scene, "energy");
  for (const char* method : {"rk2", "rk4"}) {
    const auto rk = rows(method);
    REQUIRE(rk.size() == variational.size());
    const double d = std::hypot(rk.back()[size_t(x)] - variational.back()[size_t(x)],
                                rk.back()[size_t(y)] - variational.back()[size_t(y)]);
    MESSAGE(std::string(method) << " vs variational on the circle after 10 s at h = 1/60: " << d << " m");
    CHECK(rk != variational);
    CHECK(d < 1e-2);
    CHECK(std::abs(rk.back()[size_t(e)] - rk.front()[size_t(e)]) < 1e-12 * rk.front()[size_t(e)]);
  }
}

TEST_CASE("SnakeboardRkOrdersAndScene") {
  // The reference gait from rest for 4 s (shape prescribed at the nodes, linear in between): RK2 order 2, RK4
  // order 2 as well (the linear shape between nodes is a second-order input), the variational update order 2.
  const SnakeboardParams p;
  const SnakeboardGait gait;
  const auto after = [&](VehicleIntegrator method, double h) {
    SnakeboardState s = snakeboardStart(se2::Pose2{}, 0.0, 0.0, 0.0);
    for (long k = 0; k < std::lround(4.0 / h); ++k) {
      const Eigen::Vector2d r1 = gait.shape(gait.omega * double(k + 1) * h);
      snakeboardStepWith(method, p, 0.5, h, s, r1[0], r1[1]);
    }
    return s.g;
  };
  const se2::Pose2 truth = after(VehicleIntegrator::Rk4, 1.0 / 4096);
  const std::vector<double> hs = {0.04, 0.02, 0.01, 0.005};
  for (auto method : {VehicleIntegrator::Rk2, VehicleIntegrator::Rk4, VehicleIntegrator::Variational}) {
    std::vector<double> err;
    for (double h : hs) {
      const se2::Pose2 g = after(method, h);
      err.push_back(std::hypot(g.x - truth.x, g.y - truth.y) + std::abs(g.theta - truth.theta));
    }
    const double slope = test::logLogSlope(hs, err);
    MESSAGE(std::string(vehicleIntegratorName(method))
            << " snakeboard pose error at 4 s: " << err[0] << " ... " << err[3] << ", slope " << slope);
    CHECK(slope == doctest::Approx(2.0).epsilon(0.1));
  }
  for (const char* method : {"rk2", "rk4"}) {
    auto scene = test::makeScene("snakeboard", {{"integrator", method}});
    CHECK_NOTHROW(test::runScene(*scene, 600, [&](long) { return InputVector(scene->controls().size(), 0.0); }));
  }
}
