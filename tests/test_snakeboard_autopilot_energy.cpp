// tests/test_snakeboard_autopilot_energy.cpp — the snakeboard's energy balance E - E0 - inputWork() under the
// Autopilot's strokes (snakeboard_follow at h = 0.1 s): sticks jumping between the ends every 0.1 s put kinks in the
// shape path (shape-velocity jumps up to 11 rad/s), and the shape work booked along that path closes the balance of
// the variational step (alpha = 1/2) to round-off and of the RK4 baseline to its truncation error.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "tests/scene_harness.h"
#include "tests/solid_run.h"

using namespace varsim;

namespace {

// The rotor and steer sticks the app's Autopilot gave the board in its first 3 s (tests/test_app_autopilot.cpp's
// snakeboard flight, goal 4 m ahead), rounded to 4 digits; neutral after.
const std::vector<InputVector> kStrokes = {
    {-1.0, 0.9998},      {-1.0, 0.9999},      {1.0, -0.9999},      {1.0, -1.0},         {1.0, -0.9999},
    {-0.5297, 0.4109},   {-0.8891, 0.6443},   {-0.3127, 0.1802},   {-0.2875, 0.1458},   {-0.2585, 0.1143},
    {-0.2384, 0.1157},   {-0.1864, 0.1094},   {-0.1507, 0.1311},   {-0.2666, -0.1585},  {-0.3206, -0.2648},
    {-0.3413, -0.3837},  {-0.3062, -0.4535},  {-0.1166, -0.3881},  {0.4098, 0.1815},    {0.6757, 0.5051},
    {0.8483, 0.7379},    {0.9404, 0.8894},    {0.9999, 0.9966},    {0.8333, 0.9767},    {0.1278, 0.2341},
    {-0.3190, -0.2534},  {-0.6202, -0.5876},  {-0.7766, -0.7580},  {-0.9410, -0.9401},  {-1.0, -0.9999}};

test::SolidRun fly(const char* integrator, int substeps) {
  const double h = 0.1 / substeps;
  auto scene = test::makeScene("snakeboard", {{"world", "open"}, {"gait", "false"}, {"integrator", integrator},
                                              {"dt", std::to_string(h)}});
  return test::runSolid(*scene, 30L * substeps, [&](long k) { return kStrokes[size_t(k / substeps)]; });
}

}  // namespace

TEST_CASE("SnakeboardEnergyBalanceUnderTheAutopilotsStrokes") {
  const test::SolidRun vi = fly("variational", 1), rk4 = fly("rk4", 1), rk4Half = fly("rk4", 2);
  const auto worst = [](const test::SolidRun& r) { return std::max(r.maxEnergyRise, -r.minEnergyRise); };
  std::printf("snakeboard under the autopilot's strokes, 3 s at h = 0.1 s: |E - E0 - W| %.3g J (variational), "
              "%.3g J (rk4; %.3g J at h = 0.05 s), E up to %.3g J\n",
              worst(vi), worst(rk4), worst(rk4Half), vi.eMax);
  REQUIRE(vi.finite);
  CHECK(vi.eMax > 7.0);                       // measured 7.8 J at t = 0.3 s: the strokes are violent
  CHECK(worst(vi) <= 1e-12 * vi.eMax);        // measured 5e-15 J (the segment booking gave +1.16 J at t = 0.6 s)
  CHECK(worst(rk4) <= 2e-3);                  // measured 1.0e-3 J: RK4's own error on the same shape path
  CHECK(worst(rk4) / worst(rk4Half) > 6.0);   // and it shrinks with h (measured ratio 8)
  CHECK(std::abs(vi.eEnd - rk4.eEnd) < 0.01);  // both boards end with the same energy (1.236, 1.232 J)
}
