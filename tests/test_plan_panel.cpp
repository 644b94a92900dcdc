// tests/test_plan_panel.cpp — the app's Plan panel without a window (ui/core/plan_job.h, plan_playback.h): a
// solve on the worker reports its iterations and stops at the next one after cancel() with the status
// "cancelled", leaving the running scene untouched; Play replays the plan through the app's driver bit-identical
// to `varsim run car --input plan_inputs.csv`; a touched control hands the stick back at once (plan -> live) and
// restores the live parameters the plan's events had set. Small car problem: open ground, N = 60, h = 0.05 s.
#include <doctest/doctest.h>

#include <cmath>

#include "plan/plan_endpoints.h"
#include "tests/plan_harness.h"
#include "ui/core/plan_job.h"
#include "ui/core/plan_playback.h"
#include "ui/core/plan_solve.h"
#include "ui/input/key_names.h"
#include "ui/input/live_input.h"

using namespace varsim;
using namespace varsim::test;

namespace {

constexpr int kN = 60;

// The small problem as a file: what `varsim plan` reads, and what the panel's solve is set up from.
std::string smallProblem() {
  const std::string problem = testOut("plan_panel_small.json");
  std::FILE* f = std::fopen(problem.c_str(), "w");
  REQUIRE(f);
  std::fprintf(f,
               "{\"scene\": \"car\", \"params\": {\"world\": \"open\", \"dt\": 0.05, \"speed\": 4},\n"
               " \"plan\": {\"N\": %d, \"target_x\": 3.0, \"target_y\": 0.3, \"target_heading\": 0.2, "
               "\"weight_smooth\": 0.01}}\n",
               kN);
  std::fclose(f);
  return problem;
}

// `varsim plan` on the small problem: writes the input file that `varsim run car` replays.
std::string planInputs() {
  const std::string inputs = testOut("plan_panel_inputs.csv");
  const HeadlessResult r =
      runCaptured({"plan", smallProblem(), "--csv", testOut("plan_panel_plan.csv"), "--inputs", inputs});
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  return inputs;
}

// The panel's solve (ui/core/plan_solve.h) of a problem file (default: the small one) on a PlanJob, waited for.
PlanOutcome panelSolve(PlanJob& job, const std::string& problem = "") {
  job.start(planSolve(loadPlanProblem(problem.empty() ? smallProblem() : problem)));
  job.wait();
  PlanOutcome out;
  PlanJob::State state = PlanJob::State::Idle;
  REQUIRE(job.takeFinished(out, state));
  REQUIRE(state == PlanJob::State::Solved);
  return out;
}

// Play through the app's driver (after some steps of whatever the user was doing) until the plan hands over:
// the diagnostics row of every step from Play's step 0. The hand-over must come from the plan's end.
std::vector<std::vector<double>> playRows(SimDriver& driver, const std::string& scene, const PlanOutcome& plan) {
  driver.load(scene, SceneRegistry::defaults(scene));
  for (int k = 0; k < 7; ++k) driver.stepOnce();
  PlanPlayback playback;
  std::vector<std::vector<double>> rows;
  std::string notice;
  driver.afterStep = [&](long, const Scene& s) {
    rows.emplace_back();
    s.diagnostics(rows.back());
    notice += playback.afterStep(driver);
  };
  playback.play(driver, scene, plan);
  CHECK(playback.source() == PlanPlayback::Source::Plan);
  rows.emplace_back();
  driver.scene().diagnostics(rows.back());
  while (playback.source() == PlanPlayback::Source::Plan && driver.step() < 10 * plan.steps) driver.frame(1.0 / 60.0);
  driver.afterStep = nullptr;
  // The plan's end handed over exactly at step N: no step ran on the plan's held last inputs.
  CHECK(notice.find("the plan ended") != std::string::npos);
  CHECK(rows.size() == size_t(plan.steps + 1));
  return rows;
}

void checkSameRows(const CsvTable& headless, const std::vector<std::vector<double>>& rows, long n) {
  REQUIRE(rows.size() >= size_t(n + 1));
  REQUIRE(headless.rows.size() == size_t(n + 1));
  for (size_t k = 0; k <= size_t(n); ++k)
    for (size_t c = 0; c < headless.header.size() && c < rows[k].size(); ++c) {
      INFO("step ", k, " column ", headless.header[c]);
      CHECK(rows[k][c] == headless.rows[k][c]);  // %.17g round-trips: equal doubles
    }
}

}  // namespace

TEST_CASE("PlanJobSolvesOnTheWorkerAndLogsEveryIteration") {
  PlanJob job;
  const PlanOutcome out = panelSolve(job);
  PlanOutcome again;
  PlanJob::State state = PlanJob::State::Idle;
  CHECK_FALSE(job.takeFinished(again, state));  // once
  const PlanJob::Snapshot s = job.snapshot();
  REQUIRE(s.log.size() >= 10);
  for (size_t i = 0; i < s.log.size(); ++i) CHECK(s.log[i].iteration == int(i));  // Ipopt counts from 0
  CHECK(s.log.back().primalInfeasibility <= 1e-10);
  CHECK(out.iterations == s.log.back().iteration);
  CHECK(s.ghost.size() == size_t(kN + 1));  // the solved plan's path, nodes 0..N
  CHECK(s.ghost.back()[0] == doctest::Approx(3.0).epsilon(1e-6));
  CHECK(s.ghost.back()[1] == doctest::Approx(0.3).epsilon(1e-6));
  CHECK(out.steps == kN);
  CHECK(out.sceneParams.real("dt") == 0.05);
  CHECK(out.inputs.lastStep() == kN - 1);
}

TEST_CASE("PlanJobCancelStopsAtTheNextIterationAndLeavesTheSceneAlone") {
  SimDriver driver;
  driver.load("car", SceneRegistry::defaults("car"));
  PlanJob job;
  job.start(planSolve(loadPlanProblem(smallProblem())));
  while (job.running() && job.snapshot().log.size() < 3) driver.frame(1.0 / 60.0);  // the view keeps stepping
  driver.setPaused(true);
  const std::vector<double> before = driver.scene().saveState();
  job.cancel();
  const size_t atCancel = job.snapshot().log.size();
  job.wait();
  PlanOutcome out;
  PlanJob::State state = PlanJob::State::Idle;
  REQUIRE(job.takeFinished(out, state));
  CHECK(state == PlanJob::State::Cancelled);
  CHECK(job.snapshot().status.find("cancelled") == 0);
  CHECK(out.status == "cancelled");                  // plan/ipopt_solver.h: the job's flag, polled every iteration
  CHECK(job.snapshot().log.size() <= atCancel + 1);  // the callback in flight, then Ipopt stops
  CHECK(job.snapshot().log.size() >= 3);
  CHECK_FALSE(out.solved);
  // Nothing of a cancelled solve reaches the scene: the state is the one the view left, bit for bit.
  CHECK(driver.scene().saveState() == before);
  job.reset();  // a scene switch: the old log and ghost are gone
  CHECK(job.snapshot().state == PlanJob::State::Idle);
  CHECK(job.snapshot().log.empty());
  CHECK(job.snapshot().ghost.empty());
}

TEST_CASE("PlanJobReportsAThrowingSolveAsFailed") {
  PlanJob job;
  job.start([](PlanJob::Progress&) -> PlanOutcome { throw BadInput("plan: key 'N' = 0: allowed range [1, 20000]"); });
  job.wait();
  PlanOutcome out;
  PlanJob::State state = PlanJob::State::Idle;
  REQUIRE(job.takeFinished(out, state));
  CHECK(state == PlanJob::State::Failed);
  CHECK(job.snapshot().status.find("key 'N'") != std::string::npos);
}

TEST_CASE("PlayIsBitIdenticalToTheHeadlessReplay") {
  const std::string inputs = planInputs();
  const std::string csv = testOut("plan_panel_replay.csv");
  const HeadlessResult run = runCaptured({"run", "car", "--set", "dt=0.05", "--set", "world=open", "--set", "speed=4",
                                          "--steps",
                                          std::to_string(kN), "--input", inputs, "--csv", csv});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  const CsvTable headless = readCsv(csv);
  REQUIRE(headless.rows.size() == size_t(kN + 1));

  PlanJob job;
  const PlanOutcome plan = panelSolve(job);  // the app's own solve: its input track in memory, not the file
  SimDriver driver;
  const std::vector<std::vector<double>> rows = playRows(driver, "car", plan);
  checkSameRows(headless, rows, kN);
  // Live again with the user's values: torque and steer_rate back to 0, the steering centres again.
  CHECK_FALSE(driver.replaying());
  CHECK(driver.params().real("torque") == 0.0);
  CHECK(driver.params().flag("return_to_centre"));
}

TEST_CASE("TouchingAControlTakesOverFromThePlanAtOnce") {
  PlanJob job;
  const PlanOutcome plan = panelSolve(job);
  SimDriver driver;
  driver.load("car", SceneRegistry::defaults("car"));
  LiveInput live;
  live.configure(driver.controls(), {});
  driver.setLiveInput(&live);
  PlanPlayback playback;
  playback.play(driver, "car", plan);
  for (int k = 0; k < 20; ++k) driver.stepOnce();
  CHECK(playback.update(driver, live.touched()).empty());  // nothing touched: the plan keeps flying
  CHECK(driver.params().real("torque") != 0.0);            // a plan event in force
  CHECK(playback.hudLine(driver).find("PLAN, step 20 / 60") != std::string::npos);

  KeyboardSnapshot keys;
  keys.down = {key::kW};  // throttle
  live.setDevices(GamepadSnapshot{}, keys);
  REQUIRE(live.touched());
  const std::string notice = playback.update(driver, live.touched());
  CHECK(notice.find("plan -> live at step 20") != std::string::npos);
  CHECK(playback.source() == PlanPlayback::Source::Live);
  CHECK_FALSE(driver.replaying());
  CHECK(driver.params().real("torque") == 0.0);
  CHECK(driver.params().real("steer_rate") == 0.0);
  CHECK(driver.params().flag("return_to_centre"));
  driver.stepOnce();
  CHECK(driver.lastInputs()[1] > 0.0);  // the throttle key drives the next step
  CHECK(playback.hudLine(driver).find("live (plan handed over at step 20)") != std::string::npos);
}

TEST_CASE("UntouchedLiveInputIsNotATakeover") {
  LiveInput live;
  live.configure(SceneRegistry::create("car", SceneRegistry::defaults("car"))->controls(), {});
  GamepadSnapshot pad;
  pad.connected = true;
  pad.axes = {0.01, -0.02, 0.0, 0.0, -1.0, -1.0};  // sticks inside the dead zone, triggers at rest
  live.setDevices(pad, KeyboardSnapshot{});
  CHECK_FALSE(live.touched());
  pad.axes[0] = 0.5;  // steer stick
  live.setDevices(pad, KeyboardSnapshot{});
  CHECK(live.touched());
}

TEST_CASE("APlanStartsWhereTheRunningCarIs") {
  SimDriver driver;
  ParamSet p = SceneRegistry::defaults("car");
  p.setFromString("world", "open", "test");
  driver.load("car", p);
  driver.setParam("steer_rate", ParamValue{{-0.4}, {}});  // turning left: theta grows
  driver.setParam("torque", ParamValue{{0.3}, {}});
  for (int k = 0; k < 900; ++k) driver.stepOnce();  // 15 s: more than a full turn
  const Scene& running = driver.scene();
  const ParamSet start = planStartParams("car", running, driver.params());
  const auto rebuilt = SceneRegistry::create("car", start);
  const double theta = sceneColumn(running, "theta");
  CHECK(std::abs(theta) > 6.3);  // the running heading is unwrapped
  CHECK(std::abs(start.real("start_heading")) <= 3.1415927);
  CHECK(std::remainder(sceneColumn(*rebuilt, "theta") - theta, 6.283185307179586) ==
        doctest::Approx(0.0).epsilon(1e-12));
  // The state: pose, steering and wheel momentum p^- (the `speed` column is the last step's u_{k+alpha}).
  for (const char* c : {"x", "y", "sigma", "mu"})
    CHECK(sceneColumn(*rebuilt, c) == doctest::Approx(sceneColumn(running, c)).epsilon(1e-12));
}

TEST_CASE("AHelicopterPlanStartsWhereTheRunningHelicopterIs") {
  ParamSet p = SceneRegistry::defaults("helicopter");
  p.setFromString("world", "none", "test");
  p.setFromString("start_position", "3,-2,20", "test");
  p.setFromString("start_heading", "2.5", "test");
  p.setFromString("start_velocity", "4,-1,0.5", "test");
  p.setFromString("start_omega", "0,0,0.3", "test");
  const auto scene = SceneRegistry::create("helicopter", p);
  // At step 0 the start keys come back from the standard columns (x, q, p, L) to round-off.
  const ParamSet back = planStartParams("helicopter", *scene, p);
  for (const char* key : {"start_position", "start_velocity", "start_omega"})
    for (size_t i = 0; i < 3; ++i) {
      INFO(key, " ", i);
      CHECK(back.vector(key)[i] == doctest::Approx(p.vector(key)[i]).epsilon(1e-12).scale(1.0));
    }
  CHECK(back.real("start_heading") == doctest::Approx(2.5).epsilon(1e-12));
  // After flying, the rebuilt helicopter is where the running one is, with its momentum.
  SimDriver driver;
  driver.load("helicopter", p);
  for (int k = 0; k < 120; ++k) driver.stepOnce();
  const auto rebuilt = SceneRegistry::create("helicopter", planStartParams("helicopter", driver.scene(), p));
  for (const char* c : {"x", "y", "z", "p_x", "p_y", "p_z"})
    CHECK(sceneColumn(*rebuilt, c) == doctest::Approx(sceneColumn(driver.scene(), c)).epsilon(1e-9).scale(1.0));
}

TEST_CASE("ReplanningStartsFromTheLastPlan") {
  PlanJob job;
  const PlanOutcome first = panelSolve(job);
  REQUIRE(first.solver);
  PlanSetup moved = loadPlanProblem(smallProblem());
  moved.plan.setReal("target_y", 0.35);  // the goal moved 5 cm
  job.start(planSolve(moved));
  job.wait();
  const int cold = job.snapshot().log.back().iteration;
  job.start(planSolve(moved, first.solver));
  job.wait();
  PlanOutcome warm;
  PlanJob::State state = PlanJob::State::Idle;
  REQUIRE(job.takeFinished(warm, state));
  CHECK(state == PlanJob::State::Solved);
  CHECK(warm.iterations < cold);
  MESSAGE("re-plan after a 5 cm goal move: ", warm.iterations, " iterations warm, ", cold, " cold");
  CHECK(warm.path.back()[1] == doctest::Approx(0.35).epsilon(1e-6));
}

TEST_CASE("PlayOfAStickPlanIsBitIdenticalToTheHeadlessReplay") {
  // The snakeboard's plan drives the rotor/steer sticks (input rows, not parameter events), replayed with gait off.
  const std::string problem = problemFile("snakeboard_reach");
  const std::string inputs = testOut("plan_panel_snake_inputs.csv"), csv = testOut("plan_panel_snake_replay.csv");
  const HeadlessResult r = runCaptured({"plan", problem, "--csv", testOut("plan_panel_snake.csv"), "--inputs", inputs});
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  const HeadlessResult run = runCaptured({"run", "snakeboard", "--set", "gait=false", "--set", "dt=0.05", "--set",
                                          "world=open", "--steps", "160", "--input", inputs, "--csv", csv});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  PlanJob job;
  const PlanOutcome plan = panelSolve(job, problem);
  SimDriver driver;
  checkSameRows(readCsv(csv), playRows(driver, "snakeboard", plan), 160);
}
