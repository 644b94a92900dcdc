// tests/test_plan_boat.cpp — `varsim plan` for the boat (plan/boat_plan.cpp) on assets/problems/boat_dock.json (calm
// water, the scene's wind (6, 3, 0) m/s and current (none), heading into the wind): a short docking upwind solves with dynamics residual <= 1e-10 per step, thrusts within
// [0, thrust_max], at rest on the dock, and `varsim run boat --input` reproduces the planned poses; bad plans exit 2.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/sim/param.h"
#include "tests/plan_harness.h"

using namespace varsim;
using namespace varsim::test;

namespace {

const std::string kProblem = problemFile("boat_dock");
// 0.5 m upwind along the preset's heading (into the wind (6, 3, 0)): N = 60, 14 iterations, 0.3 s CPU. Shorter
// horizons are infeasible: the wind is a weak brake (~30 N on a 1200 kg hull), so the boat coasts to rest slowly.
const double kDockX = -0.5 * 0.8944271909999159, kDockY = -0.5 * 0.4472135954999579;

}  // namespace

TEST_CASE("BoatDockPlanSolvesAndReplaysThroughTheStepper") {
  if (sanitizedRun()) return;  // a 0.3 s solve in Release (L-BFGS); ~15x slower there
  const std::string csv = testOut("plan_boat.csv"), inputs = testOut("plan_boat_inputs.csv");
  const HeadlessResult r = runPlan(
      kProblem, {"N=60", "hessian=lbfgs", "dock_x=" + formatNumber(kDockX), "dock_y=" + formatNumber(kDockY)}, csv, inputs);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  const CsvTable plan = readCsv(csv);
  REQUIRE(plan.rows.size() == 61);
  const size_t last = 60;
  double worstResidual = 0.0;
  for (size_t k = 0; k < plan.rows.size(); ++k) {
    worstResidual = std::max(worstResidual, std::abs(plan.at(k, "dyn_residual")));
    for (const char* c : {"u_left", "u_right"}) {
      CHECK(plan.at(k, c) >= 0.0);
      CHECK(plan.at(k, c) <= 1500.0);
    }
  }
  CHECK(worstResidual <= 1e-10);
  CHECK(std::abs(plan.at(last, "x") - kDockX) <= 1e-12);
  CHECK(std::abs(plan.at(last, "y") - kDockY) <= 1e-12);

  const std::string replayCsv = testOut("plan_boat_replay.csv");
  const HeadlessResult run =
      runCaptured({"run", "boat", "--set", "wave_amplitude=0", "--set", "patch_size=0.5", "--set",
                   "start_attitude=0,0,-2.677945044588987", "--set", "dt=0.1", "--steps", "60", "--input", inputs,
                   "--csv", replayCsv});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  const CsvTable replay = readCsv(replayCsv);
  REQUIRE(replay.rows.size() == plan.rows.size());
  const double worst = maxColumnDifference(plan, replay, {"x", "y", "z", "qw", "qx", "qy", "qz"});
  double worstThrust = 0.0;
  // The scene's row k + 1 shows the thrust that acted on step k: the plan's u_k.
  for (size_t k = 0; k < last; ++k)
    for (const char* c : {"u_left", "u_right"})
      worstThrust = std::max(worstThrust, std::abs(plan.at(k, c) - replay.at(k + 1, c)));
  CHECK(worst <= 1e-8);
  CHECK(worstThrust <= 1e-8);
  for (const char* c : {"x", "y", "z"}) CHECK(std::abs(plan.at(last, c) - replay.at(last, c)) <= 1e-6);
  CHECK(replay.at(last, "speed") <= 1e-6);  // at rest at the dock
}

TEST_CASE("BadBoatPlansExitTwoNamingTheKey") {
  for (const auto& set : {std::string("N=0"), std::string("hull_forces=explicit"), std::string("group=se3"),
                          std::string("pressure=10"), std::string("weight_thrust=nan")}) {
    const HeadlessResult r = runPlan(kProblem, {set}, testOut("plan_boat_bad.csv"), testOut("plan_boat_bad.in"));
    INFO(set << ": " << r.err);
    CHECK(r.exitCode == 2);
    CHECK(r.err.find(set.substr(0, set.find('='))) != std::string::npos);
  }
}
