// tests/test_plan_boat.cpp — `varsim plan` for the boat (plan/boat_plan.cpp) on assets/problems/boat_dock.json (calm
// water, the scene's wind (6, 3, 0) m/s and current (none), heading into the wind): a short docking upwind solves with
// dynamics residual <= 1e-10 per step, thrusts within [0, thrust_max], at rest on the dock, and `varsim run boat
// --input` reproduces the planned poses; the smoothness variant (DmocCosts) smooths the thrust; the Plan panel's
// endpoints rebuild a running boat; bad plans exit 2.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/sim/param.h"
#include "plan/ipopt_solver.h"
#include "plan/plan_endpoints.h"
#include "plan/plan_problem.h"
#include "scenes/scene.h"
#include "tests/plan_harness.h"
#include "tests/scene_harness.h"

using namespace varsim;
using namespace varsim::test;

namespace {

const std::string kProblem = problemFile("boat_dock");
// 0.5 m upwind along the preset's heading (into the wind (6, 3, 0)): N = 60, 14 iterations, 0.3 s CPU. Shorter
// horizons are infeasible: the wind is a weak brake (~30 N on a 1200 kg hull), so the boat coasts to rest slowly.
const double kDockX = -0.5 * 0.8944271909999159, kDockY = -0.5 * 0.4472135954999579;

}  // namespace

TEST_CASE("BoatDockPlanSolvesAndReplaysThroughTheStepper") {
  const std::string csv = testOut("plan_boat.csv"), inputs = testOut("plan_boat_inputs.csv");
  const std::vector<std::string> sets = {"N=60", "hessian=lbfgs", "dock_x=" + formatNumber(kDockX),
                                         "dock_y=" + formatNumber(kDockY)};
  const HeadlessResult r = runPlan(kProblem, sets, csv, inputs);
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

// Sum over k of |u_{k+1} - u_k|^2 / thrust_max^2 of a plan CSV (the last row repeats u_{N-1}).
double thrustRoughness(const CsvTable& plan) {
  double sum = 0.0;
  for (size_t k = 0; k + 2 < plan.rows.size(); ++k)
    for (const char* c : {"u_left", "u_right"}) sum += std::pow((plan.at(k + 1, c) - plan.at(k, c)) / 1500.0, 2);
  return sum;
}

TEST_CASE("SmoothnessCostThroughDmocCostsSmoothsTheThrust") {
  const std::vector<std::string> dock = {"N=60", "hessian=lbfgs", "dock_x=" + formatNumber(kDockX),
                                         "dock_y=" + formatNumber(kDockY)};
  std::vector<std::string> smooth = dock;
  smooth.push_back("weight_smooth=1");
  const std::string a = testOut("plan_boat_plain.csv"), b = testOut("plan_boat_smooth.csv");
  REQUIRE(runPlan(kProblem, dock, a, testOut("plan_boat_plain.in")).exitCode == 0);
  const HeadlessResult r = runPlan(kProblem, smooth, b, testOut("plan_boat_smooth.in"));
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  const CsvTable plain = readCsv(a), smoothed = readCsv(b);
  const double roughPlain = thrustRoughness(plain), roughSmooth = thrustRoughness(smoothed);
  MESSAGE("sum |du / thrust_max|^2: plain " << roughPlain << ", weight_smooth = 1: " << roughSmooth);
  CHECK(roughSmooth < 0.5 * roughPlain);
  CHECK(maxAbs(smoothed.column("dyn_residual")) <= 1e-10);
  CHECK(std::abs(smoothed.at(60, "x") - kDockX) <= 1e-12);
}

TEST_CASE("PdTrackerAlongThePlanFliesItForAboutTheOptimalEffort") {
  const PlanSetup setup = loadPlanProblem(
      kProblem, {"N=60", "hessian=lbfgs", "dock_x=" + formatNumber(kDockX), "dock_y=" + formatNumber(kDockY)});
  const auto plan = PlanProblemRegistry::find("boat")->build(setup);
  const IpoptResult r = solveWithIpopt(plan->nlp(), IpoptSettings{});
  REQUIRE(r.solved);
  PlanBaseline b;
  REQUIRE(plan->baseline(r.x, b));
  MESSAGE(b.name << ": effort " << b.effort << " (plan " << b.planEffort << "), max deviation " << b.maxDeviation
                 << " m, final " << b.finalError << " m at " << b.finalSpeed << " m/s");
  CHECK(b.planEffort == doctest::Approx(r.objective).epsilon(1e-12));
  // The thrust a path needs is set by the path: tracking it closely costs about the plan's effort (1.013x measured).
  CHECK(b.effort > 0.95 * b.planEffort);
  CHECK(b.effort < 1.2 * b.planEffort);
  CHECK(b.maxDeviation < 0.05);
  CHECK(b.finalSpeed < 0.01);
}

TEST_CASE("EndpointsStartThePlanWhereTheRunningBoatIs") {
  // Under way after 4 s of unequal thrust (turning, heeled, heaving), in waves: the start keys rebuild its pose and
  // momentum; the body rate has no start key (rebuilt at omega = 0).
  const auto running = makeScene("boat", {{"patch_size", "0.5"}, {"thrust_left", "900"}, {"thrust_right", "300"}});
  recordScene(*running, 240);
  ParamSet p = running->params();
  PlanEndpointsRegistry::find("boat")->startFrom(*running, p);
  const auto rebuilt = SceneRegistry::create("boat", p);
  for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz", "p_x", "p_y", "p_z"})
    CHECK(sceneColumn(*rebuilt, c) == doctest::Approx(sceneColumn(*running, c)).epsilon(1e-9).scale(1.0));
  CHECK(std::abs(p.real("start_heave")) > 1e-3);  // on a wave, not at the floating height
  const std::vector<PlanGoal> goals = PlanEndpointsRegistry::find("boat")->goals(SceneRegistry::defaults("boat"));
  REQUIRE(goals.size() == 2);  // upwind docks; no current by default
  CHECK(goals[0].values[0].second == doctest::Approx(kDockX * 10.0));  // the preset's dock, 5 m into (6, 3, 0)
}

TEST_CASE("BadBoatPlansExitTwoNamingTheKey") {
  for (const auto& set : {std::string("N=0"), std::string("hull_forces=explicit"), std::string("group=se3"),
                          std::string("pressure=10"), std::string("weight_thrust=nan"), std::string("free_time=1")}) {
    const HeadlessResult r = runPlan(kProblem, {set}, testOut("plan_boat_bad.csv"), testOut("plan_boat_bad.in"));
    INFO(set << ": " << r.err);
    CHECK(r.exitCode == 2);
    CHECK(r.err.find(set.substr(0, set.find('='))) != std::string::npos);
  }
}
