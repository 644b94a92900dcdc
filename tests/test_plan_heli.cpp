// tests/test_plan_heli.cpp — `varsim plan` for the helicopter (plan/heli_plan.cpp) on assets/problems/heli_canyon.json
// with a short flight (start pad -> 'east' pad, N = 120 at dt = 0.1; the full canyon preset takes a few seconds and is
// in bench_plan): solves with dynamics residual <= 1e-10 per step (the scene's full end-of-step wrench, contact
// included), every contact point above the ground, the bounding sphere >= margin from every rock, actuators within
// range and rate; `varsim run helicopter --input` replays it through the ordinary stepper to <= 1e-8 and ends at rest
// on the pad; an unreachable target exits 4 naming Ipopt's status; bad problem files exit 2 naming key and value; a
// re-plan from a tilted, moving helicopter starts at its actual attitude (start_pitch/start_roll) and replays.
#include <doctest/doctest.h>

#include <cmath>

#include "plan/ipopt_solver.h"
#include "plan/plan_endpoints.h"
#include "plan/plan_problem.h"
#include "scenes/scene.h"
#include "tests/plan_harness.h"

using namespace varsim;
using namespace varsim::test;

namespace {

const std::string kProblem = problemFile("heli_canyon");
// Under the sanitizers a shorter horizon to the same pad (the solve is ~15x slower there).
const int kN = sanitizedRun() ? 90 : 120;

}  // namespace

TEST_CASE("HelicopterPlanToAPadSolvesAndReplaysThroughTheStepper") {
  const std::string csv = testOut("plan_heli.csv"), inputs = testOut("plan_heli_inputs.csv");
  const std::string N = std::to_string(kN);
  const HeadlessResult r = runPlan(kProblem, {"target_pad=east", "via_canyon=false", "N=" + N}, csv, inputs);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  const CsvTable plan = readCsv(csv);
  REQUIRE(plan.rows.size() == size_t(kN + 1));
  CHECK(maxAbs(plan.column("dyn_residual")) <= 1e-10);
  for (size_t k = 0; k < plan.rows.size(); ++k) {
    CHECK(plan.at(k, "clearance") >= -1e-12);  // contact points never below the ground: no contact force
    CHECK(plan.at(k, "sphere_clearance") >= 1.0 - 1e-9);
    CHECK(plan.at(k, "u_c") >= 0.0);
    CHECK(plan.at(k, "u_c") <= 12000.0);
    for (const char* c : {"gamma_p", "gamma_r"}) CHECK(std::abs(plan.at(k, c)) <= 0.25);
    if (k == 0) continue;  // rates: the scene's actuator_rate (10000 N/s, 6000 N/s, 1.2 rad/s) times h
    CHECK(std::abs(plan.at(k, "u_c") - plan.at(k - 1, "u_c")) <= 1000.0);
    CHECK(std::abs(plan.at(k, "u_psi") - plan.at(k - 1, "u_psi")) <= 600.0);
    CHECK(std::abs(plan.at(k, "gamma_p") - plan.at(k - 1, "gamma_p")) <= 0.12);
  }
  const size_t last = plan.rows.size() - 1;
  CHECK(plan.at(last, "x") == doctest::Approx(60.0).epsilon(1e-12));  // the 'east' pad, skids on the ground
  CHECK(plan.at(last, "y") == doctest::Approx(40.0).epsilon(1e-12));
  CHECK(plan.at(last, "z") == doctest::Approx(1.1).epsilon(1e-12));

  const std::string replayCsv = testOut("plan_heli_replay.csv");
  const HeadlessResult run = runCaptured(
      {"run", "helicopter", "--set", "dt=0.1", "--steps", N, "--input", inputs, "--csv", replayCsv});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  const CsvTable replay = readCsv(replayCsv);
  REQUIRE(replay.rows.size() == plan.rows.size());
  const double worst = std::max(maxColumnDifference(plan, replay, {"x", "y", "z", "qw", "qx", "qy", "qz", "gamma_p"}),
                                maxColumnDifference(plan, replay, {"u_c"}) / 6000.0);
  CHECK(worst <= 1e-8);
  CHECK(replay.at(last, "speed") <= 1e-6);  // landed at rest (trim thrust, node velocity 0)
}

TEST_CASE("UnreachableHelicopterTargetExitsFourNamingTheStatus") {
  // 360 m through the canyon in 4 s is beyond the airframe: Ipopt stops without a feasible plan.
  const HeadlessResult r =
      runPlan(kProblem, {"N=40", "max_iter=25"}, testOut("plan_heli_inf.csv"), testOut("plan_heli_inf_in.csv"));
  CHECK(r.exitCode == 4);
  CHECK(r.err.find("Ipopt status") != std::string::npos);
}

TEST_CASE("BadHelicopterProblemsExitTwoNamingKeyAndValue") {
  const auto runWith = [&](const std::string& set) {
    return runPlan(kProblem, {set}, testOut("plan_heli_bad.csv"), testOut("plan_heli_bad_in.csv"));
  };
  HeadlessResult r = runWith("target_pad=moon");
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("target_pad") != std::string::npos);
  CHECK(r.err.find("moon") != std::string::npos);
  r = runWith("N=0");
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("'N'") != std::string::npos);
  r = runWith("weight_tilt=nan");
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("weight_tilt") != std::string::npos);
  r = runWith("group=se3");
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("'group' = se3") != std::string::npos);
  r = runWith("contact=explicit");
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("'contact'") != std::string::npos);
  r = runWith("cruise_altitude=40");  // above the ceiling (30 m)
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("cruise_altitude") != std::string::npos);
}

TEST_CASE("RegistryBuildsTheHelicopterWithItsReplayCommand") {
  const PlanProblemInfo* info = PlanProblemRegistry::find("helicopter");
  REQUIRE(info != nullptr);
  CHECK(info->preset == "problems/heli_canyon.json");
  const PlanSetup setup = loadPlanProblem(kProblem, {"N=50"});
  CHECK(setup.plan.choice("target_pad") == "canyon");
  const auto plan = info->build(setup);
  REQUIRE(plan->segments() == 50);
  // dt is a live key of the helicopter, but `varsim run` fixes h at the start: the command must carry it.
  CHECK(plan->replayCommand("in.csv", plan->nlp().initialGuess()) ==
        "varsim run helicopter --set dt=0.1 --steps 50 --input in.csv");
  const auto ghost = plan->ghostPath(plan->nlp().initialGuess());
  REQUIRE(ghost.size() == 51);
  CHECK(ghost.back().x() == 330.0);  // the 'canyon' pad
  CHECK(ghost.back().y() == 68.0);
}

TEST_CASE("APlanFromATiltedHelicopterStartsAtItsAttitudeAndReplays") {
  // The running scene, tilted and moving in the air: the Plan panel's endpoints write its attitude back as
  // start_heading/start_pitch/start_roll (z-y-x) next to position, velocity and body rate.
  const std::vector<std::pair<std::string, std::string>> start = {
      {"start_position", "10,5,8"}, {"start_heading", "0.5"},        {"start_pitch", "0.12"},
      {"start_roll", "-0.2"},       {"start_velocity", "2,1,0"}, {"start_omega", "0.1,-0.2,0.05"}};
  ParamSet p = SceneRegistry::defaults("helicopter");
  for (const auto& [k, v] : start) p.setFromString(k, v, "test");
  const auto scene = SceneRegistry::create("helicopter", p);
  ParamSet back = SceneRegistry::defaults("helicopter");
  PlanEndpointsRegistry::find("helicopter")->startFrom(*scene, back);
  CHECK(back.real("start_heading") == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(back.real("start_pitch") == doctest::Approx(0.12).epsilon(1e-12));
  CHECK(back.real("start_roll") == doctest::Approx(-0.2).epsilon(1e-12));
  for (size_t i = 0; i < 3; ++i)
    CHECK(back.vector("start_omega")[i] == doctest::Approx(p.vector("start_omega")[i]).epsilon(1e-12).scale(1.0));

  // Plan from there to the 'east' pad: node 0 is the tilted attitude, and the stepper replays the plan from it.
  // Not under the sanitizers (a second solve of ~10 s there; the solve and replay path is the first test's).
  const int N = 100;
  std::vector<std::string> sets = {"target_pad=east", "via_canyon=false", "N=" + std::to_string(N)};
  std::vector<std::string> runArgs = {"run", "helicopter", "--set", "dt=0.1", "--steps", std::to_string(N)};
  for (const auto& [k, v] : start) sets.push_back(k + "=" + v), runArgs.insert(runArgs.end(), {"--set", k + "=" + v});
  const std::string csv = testOut("plan_heli_tilt.csv"), inputs = testOut("plan_heli_tilt_in.csv");
  const HeadlessResult r = runPlan(kProblem, sets, csv, inputs);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  const CsvTable plan = readCsv(csv);
  const std::vector<double> q = {sceneColumn(*scene, "qw"), sceneColumn(*scene, "qx"), sceneColumn(*scene, "qy"),
                                 sceneColumn(*scene, "qz")};
  CHECK(std::abs(q[1]) + std::abs(q[2]) > 0.1);  // tilted, not only yawed
  const char* qc[4] = {"qw", "qx", "qy", "qz"};
  for (int i = 0; i < 4; ++i) CHECK(plan.at(0, qc[i]) == doctest::Approx(q[size_t(i)]).epsilon(1e-14));
  CHECK(maxAbs(plan.column("dyn_residual")) <= 1e-10);
  const std::string replayCsv = testOut("plan_heli_tilt_replay.csv");
  runArgs.insert(runArgs.end(), {"--input", inputs, "--csv", replayCsv});
  const HeadlessResult run = runCaptured(runArgs);
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  const CsvTable replay = readCsv(replayCsv);
  REQUIRE(replay.rows.size() == plan.rows.size());
  CHECK(maxColumnDifference(plan, replay, {"x", "y", "z", "qw", "qx", "qy", "qz"}) <= 1e-8);
}

TEST_CASE("TheFlightAssistBaselineFollowsThePlanWithMoreEffort") {
  // The plan's states flown by the scene's flight assist with a path pilot on the sticks (PlanInstance::baseline)
  // through the ordinary stepper: it stays near the path but pays more effort and does not end at rest on the pad.
  // Measured (east pad, N = 120): effort 0.1945 vs 0.1442, max deviation 1.66 m, final error 1.07 m, 0.15 m/s.
  // N = 120 only: the sanitized horizon (N = 90, 9 s for 72 m) needs more tilt than the assist's 20 deg, and a second
  // N = 120 solve under the sanitizers would cost ~10 s (the pilot and scene calls are exercised by the Release run).
  const PlanSetup setup = loadPlanProblem(kProblem, {"target_pad=east", "via_canyon=false", "N=120"});
  const auto plan = PlanProblemRegistry::find("helicopter")->build(setup);
  IpoptSettings settings;
  settings.maxIterations = 200;
  const IpoptResult r = solveWithIpopt(plan->nlp(), settings);
  REQUIRE(r.solved);
  PlanBaseline b;
  REQUIRE(plan->baseline(r.x, b));
  MESSAGE("baseline effort ", b.effort, " (plan ", b.planEffort, "), max deviation ", b.maxDeviation,
          " m, final error ", b.finalError, " m, final speed ", b.finalSpeed, " m/s, min clearance ", b.minClearance);
  CHECK(b.planEffort == doctest::Approx(r.objective).epsilon(1e-9));  // no smoothness term: the effort is the cost
  CHECK(b.effort > 1.2 * b.planEffort);
  CHECK(b.maxDeviation < 2.5);
  CHECK(b.finalError > 0.1);  // the plan ends on the pad at rest (replay test above: speed <= 1e-6)
  CHECK(b.finalError < 2.0);
  CHECK(b.finalSpeed > 0.01);
  CHECK(b.minClearance > 1.0);
}

TEST_CASE("HelicopterCostVariantsSmoothAndTerminalPenalty") {
  // dmoc_costs.h over the helicopter (DmocCosts on HeliDmoc::layout()): weight_smooth makes the actuator histories
  // smoother (measured N = 120: sum |du|^2 8-22x smaller per actuator; N = 100: 3-4x), terminal_weight frees the
  // end pose for a penalty (100: 2e-5 m off the pad centre, 0.3 mm above the resting height, cost 0.14352 vs 0.14417).
  const auto solve = [](const std::string& variant) {
    const PlanSetup setup = loadPlanProblem(kProblem, {"target_pad=east", "via_canyon=false", "N=100", variant});
    const auto plan = PlanProblemRegistry::find("helicopter")->build(setup);
    IpoptResult r = solveWithIpopt(plan->nlp(), IpoptSettings{});
    REQUIRE(r.solved);
    const std::string csv = testOut("plan_heli_variant.csv");
    plan->writeCsv(csv, r.x);
    return std::make_pair(r, readCsv(csv));
  };
  const auto roughness = [](const CsvTable& t, const char* c) {
    double s = 0.0;
    for (size_t k = 1; k < t.rows.size(); ++k) s += std::pow(t.at(k, c) - t.at(k - 1, c), 2);
    return s;
  };
  const auto [plain, plainCsv] = solve("weight_smooth=0");
  const auto [smooth, smoothCsv] = solve("weight_smooth=1");
  const auto [terminal, terminalCsv] = solve("terminal_weight=100");
  for (const char* c : {"u_c", "u_psi", "gamma_p", "gamma_r"}) {
    INFO(c);
    CHECK(roughness(smoothCsv, c) < 0.5 * roughness(plainCsv, c));
  }
  CHECK(maxAbs(smoothCsv.column("dyn_residual")) <= 1e-10);
  CHECK(smooth.objective > plain.objective);  // effort + smoothness, and the effort alone is at its minimum in `plain`
  const size_t last = terminalCsv.rows.size() - 1;
  const double miss = std::hypot(terminalCsv.at(last, "x") - 60.0, terminalCsv.at(last, "y") - 40.0);
  MESSAGE("terminal_weight=100: ", miss, " m from the pad centre, z = ", terminalCsv.at(last, "z"), ", cost ",
          terminal.objective, " (equality: ", plain.objective, ")");
  CHECK(miss > 0.0);
  CHECK(miss < 1e-3);
  CHECK(terminal.objective < plain.objective);  // the penalty relaxes the equality
  CHECK(maxAbs(terminalCsv.column("dyn_residual")) <= 1e-10);
}
