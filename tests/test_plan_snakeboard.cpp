// tests/test_plan_snakeboard.cpp — `varsim plan` on assets/problems/snakeboard_reach.json: solves (exit 0) with the
// dynamics residual <= 1e-10 per step, ends on the target at rest with the shape back at its start, keeps the sticks
// in range; the gait emerges (rotor and steering pumped in phase while speeding up, in anti-phase while braking);
// `varsim run snakeboard --input plan_inputs.csv` replays the plan through the sticks and the ordinary stepper to
// <= 1e-8; in the arena it goes round a crate keeping the margin (no impact on replay); an unreachable target exits
// 4 naming Ipopt's status; bad problem files exit 2 naming key/value.
// Under VARSIM_SANITIZED the horizon keeps T = 8 s at dt = 0.1 (N = 80).
#include <doctest/doctest.h>

#include <cmath>

#include "tests/plan_harness.h"

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
