// The app's frame pacing (issue 16 item 4): the step budget defers steps to later frames and drops
// what exceeds the owed limit as missed ticks, but never changes which steps run; physics on the
// worker thread (BackgroundJob) gives the same trajectory as on the UI thread, a live session recorded
// that way replays byte-identically, a divergence on the worker stops the driver as on the UI thread;
// the real-time meter and the per-phase frame log report what they measured.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "engine/sim/errors.h"

#include "ui/core/background_job.h"
#include "ui/core/frame_phases.h"
#include "ui/core/frame_stats.h"
#include "tests/driver_states.h"
#include "ui/core/sim_driver.h"
#include "ui/core/step_credit.h"
#include "ui/input/live_input.h"

using namespace varsim;

namespace {

// A chaotic map (the standard map, K = 1.5) as a scene: any change in the step sequence shows.
class StandardMapScene : public Scene {
 public:
  explicit StandardMapScene(ParamSet p) : Scene(std::move(p)) {}
  void step(double h, const InputVector& u) override {
    if (t_ >= params_.real("blowup_time")) throw SimulationDiverged("test blow-up: 'p' exceeded the limit");
    p_ += 1.5 * std::sin(x_) + 0.1 * u[0];
    x_ = std::fmod(x_ + p_, 6.283185307179586);
    t_ += h;
  }
  double time() const override { return t_; }
  std::vector<std::string> columns() const override { return {"t", "energy", "x"}; }
  void diagnostics(std::vector<double>& row) const override { row = {t_, 0.5 * p_ * p_, x_}; }
  std::vector<double> saveState() const override { return {t_, x_, p_}; }
  void loadState(const std::vector<double>& s) override { t_ = s[0], x_ = s[1], p_ = s[2]; }
  void draw(DrawList&) const override {}
  std::vector<ControlSpec> controls() const override { return {{"kick", -1, 1, 0, "kick"}}; }

 private:
  double t_ = 0, x_ = 0.3, p_ = 0.2;
};

VARSIM_REGISTER_SCENE(SceneInfo{
    "test_standard_map", "Test standard map", "chaotic test system for frame pacing",
    [] {
      return std::vector<ParamSpec>{
          ParamSpec::real("dt", 1.0 / 120, 1e-5, 0.1, "s", "step", true),
          ParamSpec::real("blowup_time", 1e9, 0.0, 1e9, "s", "throws SimulationDiverged from then on")};
    },
    nullptr,
    [](const ParamSet& p) { return std::make_unique<StandardMapScene>(p); }});


}  // namespace

TEST_CASE("StepBudget: one step per frame when the budget is spent, the rest owed up to the limit, then missed") {
  SimDriver d;
  d.load("test_standard_map", SceneRegistry::defaults("test_standard_map"));
  const double h = d.h();
  d.setStepBudget(1e-12, 10 * h);  // every step overruns it: exactly one step per frame
  long run = 0;
  for (int f = 0; f < 40; ++f) {
    const int n = d.frame(4 * h);  // 4 steps granted per frame
    CHECK(n == 1);
    run += n;
    CHECK(d.owedSteps() <= 10);
  }
  CHECK(run == 40);
  CHECK(d.owedSteps() == 10);
  CHECK(d.missedTicks() == 4 * 40 - 40 - 10);  // granted = run + owed + missed
  d.setPaused(true);
  CHECK(d.owedSteps() == 0);
  d.setPaused(false);
  d.setStepBudget(0.0);  // no budget: every granted step runs in its frame, nothing owed
  CHECK(d.frame(4 * h) == 4);
  CHECK(d.owedSteps() == 0);
}

// Frames of a driver that always owes steps, each step costing `cost` seconds: the steps each frame runs.
static std::vector<int> creditedFrames(double budget, double cost, int frames) {
  StepCredit credit;
  credit.setBudget(budget);
  std::vector<int> steps;
  for (int f = 0; f < frames; ++f) {
    credit.beginFrame();
    int n = 1;  // SimDriver::frame runs the first owed step regardless
    while (credit.allows(n * cost, cost)) ++n;
    credit.endFrame(n * cost);
    steps.push_back(n);
  }
  return steps;
}

TEST_CASE("StepCredit: unused budget carries over (at most 2 budgets), so the throughput is budget / cost steps per frame") {
  const double B = 0.8 / 60.0;  // the worker's budget (AppState::physicsBudget)
  SUBCASE("a step of 0.71 B (the N = 5000 ladder in the app): 1, 1, 2, ... and a backlog is repaid") {
    const std::vector<int> s = creditedFrames(B, 9.5e-3, 300);
    CHECK(std::all_of(s.begin(), s.end(), [](int n) { return n == 1 || n == 2; }));
    CHECK(s[0] == 1);
    CHECK(s[1] == 1);
    CHECK(s[2] == 2);  // 3 x 13.33 - 2 x 9.5 = 21.0 ms saved up >= 2 x 9.5
    long total = 0;
    for (int n : s) total += n;
    CHECK(std::abs(double(total) - 300 * B / 9.5e-3) <= 2.0);  // 421 steps in 300 frames, not 300
  }
  SUBCASE("cheap steps: the long-run throughput is B / c, not floor(B / c)") {
    const std::vector<int> s = creditedFrames(B, 6e-3, 600);
    long total = 0;
    for (int n : s) total += n;
    CHECK(std::abs(double(total) - 600 * B / 6e-3) <= 3.0);
    CHECK(*std::max_element(s.begin(), s.end()) <= 4);  // 2B of credit: never more than 2B / c steps
  }
  SUBCASE("a step longer than the budget: one per frame, no debt carried, nothing saved up") {
    const std::vector<int> s = creditedFrames(B, 1.2 * B, 100);
    CHECK(std::all_of(s.begin(), s.end(), [](int n) { return n == 1; }));
  }
  SUBCASE("the cap, a reset and no budget") {
    StepCredit c;
    c.setBudget(B);
    for (int f = 0; f < 10; ++f) {  // idle frames (nothing owed): credit saved up to the cap only
      c.beginFrame();
      c.endFrame(0.0);
    }
    CHECK(c.credit() == doctest::Approx(StepCredit::kCarry * B).epsilon(1e-15));
    c.reset();
    CHECK(c.credit() == 0.0);
    c.setBudget(0.0);
    c.beginFrame();
    CHECK(c.allows(1e9, 1e9));  // no budget: every owed step runs
    c.setBudget(std::nan(""));
    CHECK(c.budget() == 0.0);
  }
}

TEST_CASE("StepBudget: a budget changes when steps run, never which: the trajectory is bit-identical") {
  const long steps = 600;
  SimDriver a, b;
  a.load("test_standard_map", SceneRegistry::defaults("test_standard_map"));
  b.load("test_standard_map", SceneRegistry::defaults("test_standard_map"));
  b.setStepBudget(1e-12, 1.0);
  const auto free = runTrajectory(a, steps, [](SimDriver& d, int) { d.frame(1.0 / 60); });
  const auto budgeted = runTrajectory(b, steps, [](SimDriver& d, int) { d.frame(1.0 / 30); });
  REQUIRE(free.size() == size_t(steps));
  CHECK(free == budgeted);
  CHECK(b.missedTicks() > 0);  // 4 granted, 1 run per frame: the 1 s owed limit filled, then ticks were dropped
}

TEST_CASE("PhysicsWorker: the ladder stepped on the background thread matches the UI thread bit for bit") {
  const long steps = 90;
  ParamSet p = SceneRegistry::defaults("ladder");
  p.setFromString("links", "12", "test");
  SimDriver inline_, threaded;
  inline_.load("ladder", p);
  threaded.load("ladder", p);
  BackgroundJob worker;
  const auto a = runTrajectory(inline_, steps, [](SimDriver& d, int) { d.frame(1.0 / 50); });
  const auto b = runTrajectory(threaded, steps, [&](SimDriver& d, int) {
    worker.start([&d] { d.frame(1.0 / 50); });
    worker.wait();
  });
  REQUIRE(a.size() == size_t(steps));
  CHECK(a == b);
  // The worker's steps were timed on its thread; taking the costs resets them.
  CHECK(threaded.takeCosts().phase[size_t(FramePhase::Step)].wallMs > 0.0);
  CHECK(threaded.takeCosts().phase[size_t(FramePhase::Step)].wallMs == 0.0);
}

// A recording's bytes apart from its comment lines (the last one names the file's own path).
std::string recordingRows(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line, rows;
  while (std::getline(in, line))
    if (line.rfind("#", 0) != 0) rows += line + "\n";
  return rows;
}

TEST_CASE("PhysicsWorker: a live session recorded with the steps on the worker replays byte-identically") {
  // The app's threaded frame: devices polled and edits made on the UI thread, then the frame's steps
  // on the worker (a tiny budget: one step per frame, the rest owed, like a loaded machine).
  const std::string dir = VARSIM_TEST_OUT;
  LiveInput live;
  SimDriver d;
  d.load("test_standard_map", SceneRegistry::defaults("test_standard_map"));
  live.configure(d.controls(), {});
  d.setLiveInput(&live);
  d.setStepBudget(1e-12, 0.5);
  d.startRecording();
  std::vector<std::vector<uint64_t>> original;
  d.afterStep = [&](long, const Scene& s) { original.push_back(bits(s.saveState())); };
  BackgroundJob worker;
  std::mt19937 rng(9);
  long maxOwed = 0;
  for (int f = 0; f < 400; ++f) {
    worker.wait();
    maxOwed = std::max(maxOwed, d.owedSteps());
    KeyboardSnapshot keys;
    if ((f / 17) % 3 == 0) keys.down.push_back(live.bindings()[0].keyPos);
    if ((f / 29) % 4 == 1) keys.down.push_back(live.bindings()[0].keyNeg);
    live.setDevices(GamepadSnapshot{}, keys);
    if (f == 150) d.setParam("dt", ParamValue{{1.0 / 100}, {}});  // rebuild-only: waits for the reset
    if (f == 220) d.reset();                                // a recorded reset
    const double wallDt = 0.001 + 0.012 * double(rng() % 100) / 100.0;  // 1-2 steps granted
    worker.start([&d, wallDt] { d.frame(wallDt); });
  }
  worker.wait();
  d.afterStep = nullptr;
  REQUIRE(original.size() > 300);
  CHECK(d.missedTicks() == 0);  // every granted step ran, some of them frames later
  CHECK(maxOwed > 0);
  const std::string recorded = dir + "/app_worker_recorded.csv", replayed = dir + "/app_worker_replayed.csv";
  d.saveRecording(recorded);

  // Replayed on the UI thread, at another frame rate, while recording again: the same states, and the
  // new recording is the same file byte for byte.
  SimDriver r;
  r.load("test_standard_map", SceneRegistry::defaults("test_standard_map"));
  r.startReplay(InputTrack::load(recorded, r.controls(), r.h()));
  r.startRecording();
  const auto again = runTrajectory(r, long(original.size()), [](SimDriver& x, int) { x.frame(1.0 / 60); });
  CHECK(again == original);
  r.saveRecording(replayed);
  CHECK(recordingRows(replayed) == recordingRows(recorded));
  CHECK(recordingRows(recorded).find(",param,dt,0.01") != std::string::npos);  // the edit and the reset are in it
  CHECK(recordingRows(recorded).find(",reset") != std::string::npos);
}

TEST_CASE("PhysicsWorker: a divergence on the worker stops the driver like on the UI thread; reset recovers") {
  ParamSet p = SceneRegistry::defaults("test_standard_map");
  p.setReal("blowup_time", 0.5);  // 60 steps of 1/120 s succeed, the 61st throws
  SimDriver d;
  d.load("test_standard_map", p);
  BackgroundJob worker;
  int done = -1;
  worker.start([&] { done = d.frame(1.0); });
  worker.wait();  // nothing rethrown: the driver caught the divergence on the worker
  CHECK(done == 60);
  CHECK(d.diverged());
  CHECK(d.paused());
  CHECK(d.divergedMessage().find("diverged at step 61") != std::string::npos);
  CHECK(d.divergedMessage().find("'p' exceeded") != std::string::npos);
  CHECK(bits(d.scene().saveState()) == bits(d.history().newest().state));
  worker.start([&] { done = d.frame(1.0); });
  worker.wait();
  CHECK(done == 0);
  d.reset();
  d.setPaused(false);
  CHECK_FALSE(d.diverged());
  worker.start([&] { done = d.frame(0.25); });
  worker.wait();
  CHECK(done == 30);
  CHECK(d.step() == 30);
}

TEST_CASE("BackgroundJob: runs one job at a time, wait returns after it, rethrows its exception") {
  BackgroundJob job;
  job.wait();  // nothing started: returns at once
  int value = 0;
  for (int i = 1; i <= 100; ++i) {
    job.start([&value, i] { value += i; });
    job.wait();
  }
  CHECK(value == 5050);
  job.start([] { throw std::runtime_error("job failed"); });
  CHECK_THROWS_WITH(job.wait(), "job failed");
  job.start([&value] { value = -1; });  // the thread survives a throwing job
  job.wait();
  CHECK(value == -1);
  CHECK(!job.running());
  {
    BackgroundJob scoped;
    scoped.start([&value] { value = 7; });
  }  // the destructor waits for the job
  CHECK(value == 7);
}

TEST_CASE("RealTimeMeter: simulated over wall seconds per completed second; paused frames restart it") {
  RealTimeMeter m;
  CHECK(m.factor() == 1.0);
  for (int f = 0; f < 60; ++f) m.update(1.0 / 60, 0.5 / 60, 1.0, true);  // half the steps
  CHECK(m.factor() == doctest::Approx(0.5));
  CHECK(m.behind());
  for (int f = 0; f < 60; ++f) m.update(1.0 / 60, 2.0 / 60, 2.0, true);  // ×2 speed, kept up
  CHECK(m.factor() == doctest::Approx(1.0));
  CHECK(!m.behind());
  for (int f = 0; f < 30; ++f) m.update(1.0 / 60, 0.3 / 60, 1.0, true);
  m.update(1.0 / 60, 0.0, 1.0, false);  // pause: window restarts, not behind
  CHECK(!m.behind());
}

TEST_CASE("RealTimeMeter: the ratio is measured simulated/wall seconds, not the speed setting; coarse steps widen the window") {
  RealTimeMeter m;
  CHECK(!m.measured());
  for (int f = 0; f < 60; ++f) m.update(1.0 / 60, 1.48 / 60, 2.0, true);  // speed 200 %, 1.48 s per wall s achieved
  REQUIRE(m.measured());
  CHECK(m.ratio() == doctest::Approx(1.48));
  CHECK(m.factor() == doctest::Approx(0.74));
  // dt = 0.5 s, one step every 4th frame of 1/8 s (1.0x): a 1 s window would see 2 or 3 steps (1.0x or
  // 1.5x); the window waits for 8 increments of 0.5 s, 4 s of wall time.
  m.update(0.0, 0.0, 1.0, false);
  for (int f = 0; f < 11; ++f) m.update(0.125, f % 4 == 0 ? 0.5 : 0.0, 1.0, true);
  CHECK(!m.measured());
  for (int f = 11; f < 32; ++f) m.update(0.125, f % 4 == 0 ? 0.5 : 0.0, 1.0, true);
  REQUIRE(m.measured());
  CHECK(m.ratio() == doctest::Approx(1.0));
  m.update(1.0 / 60, 0.0, 1.0, false);  // paused: no measurement shown until the next window
  CHECK(!m.measured());
}

TEST_CASE("FramePhaseLog: per-phase rows (wall, thread CPU, all threads) and the frame row") {
  FramePhaseLog log;
  for (int f = 0; f < 100; ++f) {
    FramePhaseTimes t;
    t.add(FramePhase::Step, {2.0, 1.5, 1.75});
    t.add(FramePhase::Step, {2.0, 1.5, 1.75});  // two steps in one frame add up
    t.add(FramePhase::Render, {f == 99 ? 30.0 : 3.0, 1.0, 2.0});
    t.processCpuMs = 9.0;
    log.add(t);
  }
  const std::string r = log.report();
  CHECK(r.find("physics step              4.00    4.00    4.00       3.00    3.00          3.50    3.50") != std::string::npos);
  CHECK(r.find("3-D render                3.27    3.00    3.00       1.00") != std::string::npos);
  CHECK(r.find("frame (all threads)       7.27    7.00    7.00       4.00    4.00          9.00") != std::string::npos);
  PhaseClock c;
  const PhaseCost lap = c.lap();
  CHECK(lap.wallMs >= 0.0);
  CHECK(lap.cpuMs >= 0.0);
}
