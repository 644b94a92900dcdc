// tests/test_plan_car.cpp — `varsim plan` on assets/problems/car_park.json: solves (exit 0) with dynamics residual
// <= 1e-9 per step, every covering disc >= margin from every obstacle and the footprint clear at every node,
// |steering angle| <= steer_limit; `varsim run car --input plan_inputs.csv` replays the plan through the ordinary
// stepper to <= 1e-8; an infeasible problem exits 4 naming Ipopt's status; bad problem files exit 2 naming key/value;
// the plan-problem registry builds the car, and a solve is cancellable and shows its iterates (the app's ghost path);
// the cost variants (terminal penalty, free final time) solve and replay through the stepper at the plan's h.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <sstream>

#include "plan/ipopt_solver.h"
#include "plan/plan_problem.h"
#include "tests/plan_harness.h"

using namespace varsim;
using namespace varsim::test;

namespace {

const std::string kProblem = problemFile("car_park");
// Under the sanitizers the same 10 s horizon at half the resolution (the solve is ~10x slower there).
const bool kSanitized = sanitizedRun();
const std::string kN = kSanitized ? "100" : "200", kDt = kSanitized ? "0.1" : "0.05";

}  // namespace

TEST_CASE("CarParkSolvesAndReplaysThroughTheStepper") {
  const std::string csv = testOut("plan_car.csv"), inputs = testOut("plan_car_inputs.csv");
  const HeadlessResult r = runPlan(kProblem, {"N=" + kN, "dt=" + kDt}, csv, inputs);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  CHECK(r.err.find("iter    1") != std::string::npos);  // Ipopt iterations reported on stderr
  const CsvTable plan = readCsv(csv);
  REQUIRE(plan.rows.size() == size_t(std::stoi(kN) + 1));
  CHECK(maxAbs(plan.column("dyn_residual")) <= 1e-9);
  for (size_t k = 0; k < plan.rows.size(); ++k) {
    CHECK(plan.at(k, "disc_clearance") >= 0.05 - 1e-9);  // covering discs: Euclidean gap of the body >= margin
    CHECK(plan.at(k, "clearance") > 0.0);                // the scene's own separation test: no touch
    CHECK(std::abs(plan.at(k, "steer_angle")) <= 0.6);   // the scene's steer_limit
  }
  const size_t last = plan.rows.size() - 1;
  CHECK(plan.at(last, "x") == doctest::Approx(8.79).epsilon(1e-9));
  CHECK(plan.at(last, "y") == doctest::Approx(3.50625).epsilon(1e-9));
  CHECK(std::abs(plan.at(last, "mu")) <= 1e-12);  // at rest

  const std::string replayCsv = testOut("plan_car_replay.csv");
  const HeadlessResult run = runCaptured(
      {"run", "car", "--set", "dt=" + kDt, "--set", "speed=4", "--steps", kN, "--input", inputs, "--csv", replayCsv});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  const CsvTable replay = readCsv(replayCsv);
  REQUIRE(replay.rows.size() == plan.rows.size());
  CHECK(maxColumnDifference(plan, replay, {"x", "y", "theta", "sigma", "mu"}) <= 1e-8);
  CHECK(replay.at(last, "impacts") == 0.0);
}

TEST_CASE("InfeasibleCarProblemExitsFourNamingTheStatus") {
  // Barely any steering: the bay at right angles to the aisle cannot be reached.
  const HeadlessResult r =
      runPlan(kProblem, {"steer_limit=0.02", "max_iter=60"}, testOut("plan_inf.csv"), testOut("plan_inf_inputs.csv"));
  CHECK(r.exitCode == 4);
  CHECK(r.err.find("Ipopt status") != std::string::npos);
}

TEST_CASE("BadProblemFilesExitTwoNamingFileKeyValue") {
  const std::string bad = testOut("plan_bad.json");
  auto runWith = [&](const std::string& text, std::vector<std::string> sets = {}) {
    writeFile(bad, text);
    return runPlan(bad, sets, testOut("plan_bad.csv"), testOut("plan_bad_in.csv"));
  };
  const std::string ok = readFile(kProblem);
  auto edited = [&](const std::string& from, const std::string& to) {
    std::string t = ok;
    t.replace(t.find(from), from.size(), to);
    return t;
  };
  HeadlessResult r = runWith(edited("\"N\": 200", "\"N\": 0"));
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("plan_bad.json") != std::string::npos);
  CHECK(r.err.find("'N'") != std::string::npos);
  r = runWith(edited("\"margin\": 0.05", "\"margin\": -1"));
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("'margin'") != std::string::npos);
  r = runWith(edited("\"N\": 200", "\"bay\": 3"));
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("unknown key 'bay'") != std::string::npos);
  r = runWith(edited("\"car\"", "\"pendulum\""));
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("'scene'") != std::string::npos);
  r = runWith(edited("\"dt\": 0.05", "\"dt\": -0.05"));
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("'dt'") != std::string::npos);
  r = runWith(ok, {"weight_steer=nan"});
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("weight_steer") != std::string::npos);
  r = runWith("{\"scene\": \"car\", ");
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("malformed JSON") != std::string::npos);
  r = runWith(edited("\"start_x\": 0.0,\n    \"start_y\": 0.0", "\"start_x\": 6.5,\n    \"start_y\": 4.2"));  // in a parked car
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("start_y") != std::string::npos);
}

TEST_CASE("RegistryBuildsTheCarAndTheSolverCancelsAndShowsIterates") {
  const PlanProblemInfo* info = PlanProblemRegistry::find("car");
  REQUIRE(info != nullptr);
  CHECK(info->preset == "problems/car_park.json");
  CHECK(PlanProblemRegistry::find("no_such_scene") == nullptr);
  const PlanSetup setup = loadPlanProblem(kProblem, {"N=40", "dt=0.25"});
  CHECK(setup.plan.integer("N") == 40);
  CHECK(setup.scene.params.real("dt") == 0.25);
  const auto plan = info->build(setup);
  REQUIRE(plan->segments() == 40);
  // The replay names what differs from the scene's defaults: the problem's start speed and dt.
  CHECK(plan->replayCommand("in.csv", plan->nlp().initialGuess()) ==
        "varsim run car --set speed=4 --set dt=0.25 --steps 40 --input in.csv");
  std::atomic<bool> cancel{false};
  IpoptSettings settings;
  settings.cancel = &cancel;
  int seen = 0, withIterate = 0;
  const IpoptResult r = solveWithIpopt(plan->nlp(), settings, [&](const IpoptIteration& it) {
    ++seen;
    if (it.x) {
      ++withIterate;
      REQUIRE(it.x->size() == plan->nlp().numVariables());
      const std::vector<Eigen::Vector3d> ghost = plan->ghostPath(*it.x);
      REQUIRE(ghost.size() == 41);
      CHECK(ghost.front().x() == 0.0);  // the fixed start (start_x, start_y) is part of every iterate
      CHECK(ghost.back().x() == doctest::Approx(8.79).epsilon(1e-12));  // and so is the fixed target
    }
    if (it.iteration == 3) cancel = true;  // as the app's Cancel button would, from another thread
    return true;
  });
  CHECK(!r.solved);
  CHECK(r.status == "cancelled");
  CHECK(seen == 4);  // iterations 0..3: the next callback reads the flag first and stops
  CHECK(withIterate >= 4);
}

namespace {

// Plans car_park at N = 100 with extra --set keys and replays the inputs file with the command its comment names;
// returns the plan's last row time and the largest replay - plan difference (x, y, theta, sigma, mu).
std::pair<double, double> planAndReplay(const std::string& tag, const std::vector<std::string>& sets) {
  const std::string csv = testOut("plan_" + tag + ".csv"), inputs = testOut("plan_" + tag + "_in.csv");
  std::vector<std::string> all = {"N=100", "dt=0.1"};
  all.insert(all.end(), sets.begin(), sets.end());
  const HeadlessResult r = runPlan(kProblem, all, csv, inputs);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  // "... replay: varsim run car --set dt=H --steps 100 --input FILE": run exactly that (dt = the plan's h).
  const std::string replayLine = r.err.substr(r.err.find("replay: varsim run ") + 19);
  std::vector<std::string> run = {"run"};
  std::istringstream words(replayLine.substr(0, replayLine.find('\n')));
  for (std::string w; words >> w;) run.push_back(w);
  const std::string replayCsv = testOut("plan_" + tag + "_replay.csv");
  run.insert(run.end(), {"--csv", replayCsv});
  const HeadlessResult rr = runCaptured(run);
  INFO(rr.err);
  REQUIRE(rr.exitCode == 0);
  const CsvTable plan = readCsv(csv), replay = readCsv(replayCsv);
  REQUIRE(replay.rows.size() == plan.rows.size());
  const double worst = maxColumnDifference(plan, replay, {"x", "y", "theta", "sigma", "mu"});
  CHECK(maxAbs(plan.column("dyn_residual")) <= 1e-9);
  return {plan.at(plan.rows.size() - 1, "t"), worst};
}

}  // namespace

TEST_CASE("CostVariantsTerminalPenaltyAndFreeFinalTimeSolveAndReplay") {
  const auto penalty = planAndReplay("penalty", {"terminal_weight=100"});
  CHECK(penalty.first == doctest::Approx(10.0));
  CHECK(penalty.second <= 1e-8);
  // Free final time: h in [0.02, 0.2]; a larger weight on T = N h buys a shorter manoeuvre.
  const auto slow = planAndReplay("free_slow", {"free_time=1", "weight_time=0.01", "dt_min=0.02", "dt_max=0.2"});
  const auto fast = planAndReplay("free_fast", {"free_time=1", "weight_time=0.1", "dt_min=0.02", "dt_max=0.2"});
  CHECK(slow.second <= 1e-8);
  CHECK(fast.second <= 1e-8);
  CHECK(fast.first < slow.first);
  CHECK(fast.first >= 100 * 0.02);
}

TEST_CASE("CostVariantKeysAreValidated") {
  auto run = [&](std::vector<std::string> sets) {
    return runPlan(kProblem, sets, testOut("plan_keys.csv"), testOut("plan_keys_in.csv"));
  };
  HeadlessResult r = run({"weight_time=1"});  // h fixed
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("weight_time") != std::string::npos);
  r = run({"free_time=1", "dt_min=0.1"});  // dt = 0.05 below dt_min
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("dt_min") != std::string::npos);
  r = run({"free_time=1", "dt_max=0.9"});  // beyond the car scene's dt range (0.5)
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("dt_max") != std::string::npos);
  r = run({"terminal_weight=-1"});
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("terminal_weight") != std::string::npos);
}

TEST_CASE("ReplanningWarmStartsFromThePreviousPlan") {
  // Re-plan for a target 0.1 m further along: from the previous plan and its multipliers, fewer iterations.
  const PlanProblemInfo* info = PlanProblemRegistry::find("car");
  const auto first = info->build(loadPlanProblem(kProblem, {"N=100", "dt=0.1"}));
  const auto moved = info->build(loadPlanProblem(kProblem, {"N=100", "dt=0.1", "target_x=8.89"}));
  const IpoptResult previous = solveWithIpopt(first->nlp(), IpoptSettings{});
  REQUIRE(previous.solved);
  const IpoptResult cold = solveWithIpopt(moved->nlp(), IpoptSettings{});
  IpoptSettings warmSettings;
  warmSettings.warmStart = &previous;
  const IpoptResult warm = solveWithIpopt(moved->nlp(), warmSettings);
  REQUIRE(cold.solved);
  REQUIRE(warm.solved);
  MESSAGE("cold " << cold.iterations << " iterations, warm " << warm.iterations);
  CHECK(warm.iterations < cold.iterations);
  CHECK(warm.objective == doctest::Approx(cold.objective).epsilon(1e-6));
  CHECK(moved->maxDynResidual(warm.x) <= 1e-9);
}
