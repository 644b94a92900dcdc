// tests/test_car_path_tracker.cpp — the car's PD path tracker (engine/control/car_path_tracker.h), the baseline
// bench_plan compares the optimal plans with: on a coasting carStep trajectory it applies no control and reproduces
// it bit for bit; from an offset start it converges back onto a curved reference within the limits.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/control/car_path_tracker.h"

using namespace varsim;

namespace {

std::vector<CarState> stepperPath(const CarParams& p, CarState s, double h, int n, double w, double f) {
  std::vector<CarState> out = {s};
  for (int k = 0; k < n; ++k) {
    carStep(p, 0.5, h, s, w, f);
    out.push_back(s);
  }
  return out;
}

}  // namespace

TEST_CASE("TrackerOnACoastingPathAppliesNoControl") {
  const CarParams p;
  const std::vector<CarState> ref = stepperPath(p, carStart(p, {0.3, 1.0, -2.0}, 0.0, 0.0, 3.0), 0.05, 200, 0.0, 0.0);
  const CarTrackResult t = trackCarPath(p, 0.5, 0.05, ref, {0.68, 1.0, 1.0});
  REQUIRE(t.states.size() == ref.size());
  for (size_t k = 0; k < t.steerRate.size(); ++k) CHECK((t.steerRate[k] == 0.0 && t.torque[k] == 0.0));
  CHECK(t.states.back().g.x == ref.back().g.x);
  CHECK(t.states.back().g.y == ref.back().g.y);
}

TEST_CASE("TrackerConvergesOntoACurvedPathWithinTheLimits") {
  const CarParams p;
  const double h = 0.05;
  const std::vector<CarState> ref = stepperPath(p, carStart(p, {0.0, 0.0, 0.0}, 0.0, 0.2, 3.0), h, 300, 0.0, 0.05);
  std::vector<CarState> shifted = ref;
  shifted[0].g.y += 0.3;  // start 0.3 m left of the path
  const CarTrackerLimits limits{0.68, 1.0, 1.0};
  const CarTrackResult t = trackCarPath(p, 0.5, h, shifted, limits);
  for (size_t k = 0; k < t.steerRate.size(); ++k) {
    CHECK(std::abs(t.steerRate[k]) <= limits.maxSteerRate);
    CHECK(std::abs(t.torque[k]) <= limits.maxTorque);
    CHECK(std::abs(t.states[k + 1].sigma) <= limits.sigmaMax + 1e-15);
  }
  const CarState &a = t.states.back(), &b = ref.back();
  CHECK(std::hypot(a.g.x - b.g.x, a.g.y - b.g.y) < 0.03);  // 15 s later: back on the path (from 0.3 m; 0.012 m)
}
