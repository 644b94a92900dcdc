// tests/test_plan_snakeboard.cpp — `varsim plan` on assets/problems/snakeboard_reach.json: solves (exit 0) with the
// dynamics residual <= 1e-10 per step, ends on the target at rest with the shape back at its start, keeps the sticks
// in range; the gait emerges (rotor and steering pumped in phase while speeding up, in anti-phase while braking);
// `varsim run snakeboard --input plan_inputs.csv` replays the plan through the sticks and the ordinary stepper to
// <= 1e-8; in the arena it goes round a crate keeping the margin (no impact on replay); an unreachable target exits
// 4 naming Ipopt's status; bad problem files exit 2 naming key/value. A re-plan from a running board (the app's
// Plan panel) starts from its pose, shape and momentum through the scene's start keys, ends at rest in the
// neutral-stick shape, and the headless replay from those keys reproduces it.
// Under VARSIM_SANITIZED the horizon keeps T = 8 s at dt = 0.1 (N = 80).
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

#include "plan/ipopt_solver.h"
#include "plan/plan_endpoints.h"
#include "plan/plan_problem.h"
#include "tests/plan_harness.h"
#include "tests/scene_harness.h"

using namespace varsim;
using namespace varsim::test;

namespace {

const std::string kProblem = problemFile("snakeboard_reach");
const bool kSanitized = sanitizedRun();
const std::string kDt = kSanitized ? "0.1" : "0.05", kN = kSanitized ? "80" : "160";

// Correlation of psi and phi over the plan's nodes with t in [t0, t1].
double shapeCorrelation(const CsvTable& plan, double t0, double t1) {
  double n = 0, sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
  for (size_t k = 0; k < plan.rows.size(); ++k) {
    const double t = plan.at(k, "t"), a = plan.at(k, "psi"), b = plan.at(k, "phi");
    if (t < t0 || t > t1) continue;
    n += 1, sa += a, sb += b, saa += a * a, sbb += b * b, sab += a * b;
  }
  return (sab - sa * sb / n) / std::sqrt((saa - sa * sa / n) * (sbb - sb * sb / n));
}

}  // namespace

TEST_CASE("SnakeboardReachSolvesTheGaitEmergesAndTheSticksReplayIt") {
  const std::string csv = testOut("plan_snake.csv"), inputs = testOut("plan_snake_inputs.csv");
  const HeadlessResult r = runPlan(kProblem, {"dt=" + kDt, "N=" + kN}, csv, inputs);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  CHECK(r.err.find("--set gait=false") != std::string::npos);  // the replay command builds the scene with the gait off
  const CsvTable plan = readCsv(csv);
  REQUIRE(plan.rows.size() == size_t(std::stoi(kN)) + 1);
  double maxShape = 0.0;
  for (size_t k = 0; k < plan.rows.size(); ++k) {
    CHECK(std::abs(plan.at(k, "dyn_residual")) <= 1e-10);
    CHECK(std::abs(plan.at(k, "rotor")) <= 1.0);  // the sticks' range: the scene would clip beyond it
    CHECK(std::abs(plan.at(k, "steer")) <= 1.0);
    maxShape = std::max(maxShape, std::abs(plan.at(k, "psi")));
  }
  const size_t last = plan.rows.size() - 1;
  CHECK(plan.at(last, "x") == doctest::Approx(-4.0).epsilon(1e-9));
  CHECK(plan.at(last, "y") == doctest::Approx(0.5).epsilon(1e-9));
  CHECK(std::abs(plan.at(last, "theta")) <= 1e-9);
  CHECK(std::abs(plan.at(last, "mu")) <= 1e-12);  // at rest
  CHECK(std::abs(plan.at(last, "psi")) <= 1e-12);
  CHECK(std::abs(plan.at(last, "phi")) <= 1e-12);
  // The gait: large rotor swings (the guess wiggles by 0.2 rad), pumped in phase with the steering while the
  // momentum builds (p_dot = 2 I cos^2 phi phi_dot psi_dot - tan phi phi_dot p) and in anti-phase while braking.
  CHECK(maxShape > 0.8);
  CHECK(shapeCorrelation(plan, 0.0, 2.0) > 0.9);
  CHECK(shapeCorrelation(plan, 6.0, 8.0) < -0.9);
  CHECK(plan.at(size_t(std::stoi(kN)) / 2, "mu") > 2.0);  // coasting at mid-horizon

  const std::string replayCsv = testOut("plan_snake_replay.csv");
  const HeadlessResult run = runCaptured({"run", "snakeboard", "--set", "gait=false", "--set", "dt=" + kDt, "--set",
                                          "world=open", "--steps", kN, "--input", inputs, "--csv", replayCsv});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  const CsvTable replay = readCsv(replayCsv);
  REQUIRE(replay.rows.size() == plan.rows.size());
  CHECK(maxColumnDifference(
            plan, replay, {"x", "y", "theta", "psi", "phi", "mu", "speed", "psi_rate", "phi_rate", "energy"}) <= 1e-8);
}

TEST_CASE("SnakeboardPlansAroundTheArenaCrateAndTheReplayNeverTouchesIt") {
  // Backwards (+x) to just behind the crate at (30 l, 0) = (12, 0) m (half 0.8 m): the straight way runs through it.
  const std::string csv = testOut("plan_snake_arena.csv"), inputs = testOut("plan_snake_arena_inputs.csv");
  const HeadlessResult r =
      runPlan(kProblem, {"world=arena", "target_x=14.5", "target_y=0", "dt=0.2", "N=100"}, csv, inputs);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  const CsvTable plan = readCsv(csv);
  REQUIRE(plan.rows.size() == 101);
  double widest = 0.0;
  for (size_t k = 0; k < plan.rows.size(); ++k) {
    CHECK(std::abs(plan.at(k, "dyn_residual")) <= 1e-10);
    CHECK(plan.at(k, "disc_clearance") >= 0.05 - 1e-9);  // covering discs keep the margin from every near box
    CHECK(plan.at(k, "clearance") > 0.0);                // the scene's own separation test over the whole arena
    widest = std::max(widest, std::abs(plan.at(k, "y")));
  }
  CHECK(widest > 0.8);  // it went round the crate
  CHECK(plan.at(100, "x") == doctest::Approx(14.5).epsilon(1e-9));
  CHECK(std::abs(plan.at(100, "mu")) <= 1e-12);
  const std::string replayCsv = testOut("plan_snake_arena_replay.csv");
  const HeadlessResult run = runCaptured({"run", "snakeboard", "--set", "gait=false", "--set", "dt=0.2", "--steps",
                                          "100", "--input", inputs, "--csv", replayCsv});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  const CsvTable replay = readCsv(replayCsv);
  REQUIRE(replay.rows.size() == plan.rows.size());
  CHECK(replay.at(100, "impacts") == 0.0);  // also between the nodes (the stepper's swept test)
  CHECK(maxColumnDifference(plan, replay, {"x", "y", "theta", "psi", "phi", "mu"}) <= 1e-8);
}

TEST_CASE("UnreachableSnakeboardTargetExitsFourNamingTheStatus") {
  // 400 m in 8 s with the shape within the sticks' range: no plan exists.
  const HeadlessResult r = runPlan(kProblem, {"target_x=-400", "dt=0.2", "N=40", "max_iter=25"},
                                   testOut("plan_snake_inf.csv"), testOut("plan_snake_inf_in.csv"));
  CHECK(r.exitCode == 4);
  CHECK(r.err.find("Ipopt status") != std::string::npos);
}

TEST_CASE("BadSnakeboardProblemsExitTwoNamingKeyAndValue") {
  auto run = [&](std::vector<std::string> sets) {
    return runPlan(kProblem, sets, testOut("plan_snake_bad.csv"), testOut("plan_snake_bad_in.csv"));
  };
  const std::pair<std::string, std::string> cases[] = {
      {"gait=true", "'gait'"},
      {"margin=-1", "margin"},
      {"integrator=rk4", "'integrator'"},
      {"psi_max=0", "'psi_max'"},
      {"N=0", "N"},
      {"weight_smooth=nan", "weight_smooth"},
      {"target_x=1e9", "target_x"},
      {"phi_max=-1", "phi_max"},
  };
  for (const auto& [set, named] : cases) {
    const HeadlessResult r = run({set});
    INFO(set, r.err);
    CHECK(r.exitCode == 2);
    CHECK(r.err.find(named) != std::string::npos);
  }
}

namespace {

// `varsim run` with the words of a replay command ("varsim run snakeboard --set ... --steps N --input F"), N replaced.
HeadlessResult runReplayCommand(const std::string& command, long steps, const std::string& csv) {
  std::vector<std::string> args;
  std::istringstream words(command.substr(command.find("run ")));
  for (std::string w; words >> w;) args.push_back(w);
  const auto n = std::find(args.begin(), args.end(), "--steps");
  REQUIRE(n + 1 < args.end());
  *(n + 1) = std::to_string(steps);
  args.insert(args.end(), {"--csv", csv});
  return runCaptured(args);
}

}  // namespace

TEST_CASE("AReplanStartsWhereTheRunningSnakeboardIsAndItsReplayContinuesFromThere") {
  // The running board: 4 s of in-phase pumping (forward, turning), then rotor and steering held off neutral.
  ParamSet p = SceneRegistry::defaults("snakeboard");
  for (const auto& [k, v] :
       {std::pair<const char*, const char*>{"gait", "false"}, {"world", "open"}, {"dt", "0.1"}, {"phi", "0.1"}})
    p.setFromString(k, v, "test");
  const auto running = SceneRegistry::create("snakeboard", p);
  runScene(*running, 50, [](long k) {
    const double s = k < 40 ? std::sin(0.3 * double(k)) : 0.5;
    return InputVector{s, k < 40 ? -0.8 * s : -0.4};
  });
  const PlanEndpointsInfo* endpoints = PlanEndpointsRegistry::find("snakeboard");
  REQUIRE(endpoints);
  REQUIRE(endpoints->startFrom);
  ParamSet start = p;
  endpoints->startFrom(*running, start);
  const double mu = sceneColumn(*running, "mu"), psi = sceneColumn(*running, "psi"), phi = sceneColumn(*running, "phi");
  MESSAGE("running: x " << sceneColumn(*running, "x") << ", y " << sceneColumn(*running, "y") << ", theta "
                        << sceneColumn(*running, "theta") << ", psi " << psi << ", phi " << phi << ", mu " << mu);
  CHECK(std::abs(mu) > 0.3);         // moving
  CHECK(std::abs(psi) > 0.3);        // rotor off neutral
  CHECK(std::abs(phi - 0.1) > 0.1);  // steering off the trim
  // The rebuilt board is the running one: pose, shape and momentum.
  const auto rebuilt = SceneRegistry::create("snakeboard", start);
  for (const char* c : {"x", "y", "theta", "psi", "phi", "mu"}) {
    INFO(c);
    CHECK(sceneColumn(*rebuilt, c) == doctest::Approx(sceneColumn(*running, c)).epsilon(1e-12).scale(1.0));
  }

  // Plan from there to 1.5 m ahead along the current heading's forward (body -x), same heading, in 6 s.
  const double th = sceneColumn(*running, "theta"), x0 = sceneColumn(*running, "x"), y0 = sceneColumn(*running, "y");
  PlanSetup setup =
      loadPlanProblem(problemFile("snakeboard_reach"),
                      {"N=60", "dt=0.1", "target_x=" + std::to_string(x0 - 1.5 * std::cos(th)),
                       "target_y=" + std::to_string(y0 - 1.5 * std::sin(th)), "target_heading=" + std::to_string(th)});
  setup.scene.params = start;
  const auto plan = PlanProblemRegistry::find("snakeboard")->build(setup);
  const IpoptResult r = solveWithIpopt(plan->nlp(), IpoptSettings{});
  MESSAGE("re-plan: " << r.status << ", " << r.iterations << " iterations, cost " << r.objective);
  REQUIRE(r.solved);
  CHECK(plan->maxDynResidual(r.x) <= 1e-10);
  const std::string csv = testOut("plan_snake_replan.csv"), inputs = testOut("plan_snake_replan_in.csv");
  plan->writeCsv(csv, r.x);
  plan->writeInputs(inputs, r.x);
  const CsvTable planned = readCsv(csv);
  CHECK(planned.at(0, "x") == sceneColumn(*rebuilt, "x"));  // node 0 is the rebuilt board (the plan reads it)
  CHECK(planned.at(0, "mu") == sceneColumn(*rebuilt, "mu"));
  CHECK(std::abs(planned.at(60, "psi")) <= 1e-12);  // at rest in the shape neutral sticks hold: (0, trim)
  CHECK(planned.at(60, "phi") == doctest::Approx(0.1).epsilon(1e-12));
  CHECK(std::abs(planned.at(60, "mu")) <= 1e-12);

  // The replay command carries the start keys; 20 steps past the plan the neutral sticks keep the board at rest.
  const std::string command = plan->replayCommand(inputs, r.x);
  CHECK(command.find("--set start_x=") != std::string::npos);
  CHECK(command.find("--set start_psi=") != std::string::npos);
  const std::string replayCsv = testOut("plan_snake_replan_replay.csv");
  const HeadlessResult run = runReplayCommand(command, 80, replayCsv);
  INFO(command, "\n", run.err);
  REQUIRE(run.exitCode == 0);
  const CsvTable replay = readCsv(replayCsv);
  REQUIRE(replay.rows.size() == 81);
  const double worst = maxColumnDifference(planned, replay, {"x", "y", "theta", "psi", "phi", "mu"});
  MESSAGE("replay - plan " << worst);
  CHECK(worst <= 1e-8);
  for (const char* c : {"x", "y", "theta"}) CHECK(std::abs(replay.at(80, c) - planned.at(60, c)) <= 1e-8);
  CHECK(std::abs(replay.at(80, "mu")) <= 1e-8);
}

TEST_CASE("SnakeboardStartKeysAreValidated") {
  const std::string csv = testOut("snake_start_bad.csv");
  // The crate at (12, 0) m in the arena (default world).
  HeadlessResult r = runCaptured({"run", "snakeboard", "--set", "start_x=12", "--steps", "1", "--csv", csv});
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("start_x") != std::string::npos);
  CHECK(r.err.find("crate") != std::string::npos);
  r = runCaptured({"run", "snakeboard", "--set", "start_x=12", "--set", "world=open", "--steps", "1", "--csv", csv});
  CHECK(r.exitCode == 0);
  r = runCaptured({"run", "snakeboard", "--set", "gait_phi_amplitude=0", "--set", "phi=1", "--set",
                   "start_phi_offset=0.5", "--steps", "1", "--csv", csv});
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("start_phi_offset") != std::string::npos);
  r = runCaptured({"run", "snakeboard", "--set", "start_psi=nan", "--steps", "1", "--csv", csv});
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("start_psi") != std::string::npos);
}
