// The app's fixed-step core (ui/core/sim_driver) driven headlessly: replayed inputs give bit-identical
// trajectories, the render frame rate never changes the trajectory, recording then replaying a live
// session reproduces it, divergence restores the state, and live edits (parameters, per-constraint
// overrides, resets) are recorded and replayed bit-identically by the driver and by `varsim run --input`,
// and history steps back across them (issue 15 item 13).
// The history ring's own tests are in test_app_history.cpp.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

#include "engine/sim/errors.h"
#include "scenes/rods/rod_scene.h"
#include "tests/double_pendulum_scene.h"
#include "tests/driver_states.h"
#include "ui/core/sim_driver.h"
#include "ui/input/live_input.h"

using namespace varsim;

namespace {

// Runs the driver frame by frame (frame durations from `frameSeconds`) until `steps` physics steps
// are done; returns the bit pattern of the state after every step.
std::vector<std::vector<uint64_t>> trajectory(SimDriver& d, long steps, const std::function<double(int)>& frameSeconds) {
  return runTrajectory(d, steps, [&](SimDriver& x, int f) { x.frame(frameSeconds(f)); });
}

const long kSteps = getenv("VARSIM_SANITIZED") ? 400 : 1500;

}  // namespace

TEST_CASE("AppReplayBitIdentical: a replayed input file gives the same trajectory twice") {
  const auto path = std::string(VARSIM_TEST_OUT) + "/app_replay.csv";
  const std::vector<ControlSpec> controls = DoublePendulumScene(ParamSet()).controls();
  randomTrack(7, kSteps).save(path, controls);
  std::vector<std::vector<uint64_t>> runs[2];
  for (auto& run : runs) {
    SimDriver d;
    d.load("test_double_pendulum", SceneRegistry::defaults("test_double_pendulum"));
    d.startReplay(InputTrack::load(path, controls, d.h()));
    run = trajectory(d, kSteps, [](int) { return 1.0 / 60; });
  }
  REQUIRE(runs[0].size() == size_t(kSteps));
  CHECK(runs[0] == runs[1]);
  // And the inputs mattered: a neutral run differs.
  SimDriver neutral;
  neutral.load("test_double_pendulum", SceneRegistry::defaults("test_double_pendulum"));
  CHECK(trajectory(neutral, kSteps, [](int) { return 1.0 / 60; }) != runs[0]);
}

TEST_CASE("AppFrameRateIndependent: the same inputs at different render frame rates give the same trajectory") {
  const InputTrack track = randomTrack(11, kSteps);
  std::mt19937 rng(3);
  std::vector<double> jitter(200000);
  for (double& j : jitter) j = (rng() % 100 == 0) ? 0.5 : 0.002 + 0.03 * double(rng() % 1000) / 1000.0;
  const std::vector<std::function<double(int)>> frameRates = {
      [](int) { return 1.0 / 30; }, [](int) { return 1.0 / 60; }, [](int) { return 1.0 / 144; },
      [&](int f) { return jitter[size_t(f) % jitter.size()]; }};  // incl. 0.5 s stalls
  std::vector<std::vector<uint64_t>> reference;
  for (size_t r = 0; r < frameRates.size(); ++r) {
    SimDriver d;
    d.load("test_double_pendulum", SceneRegistry::defaults("test_double_pendulum"));
    d.startReplay(track);
    if (r == 3) d.setSpeed(4.0);  // ×4 with stalls: many steps per frame
    auto run = trajectory(d, kSteps, frameRates[r]);
    if (r == 0) reference = run;
    else CHECK_MESSAGE(run == reference, "frame schedule " << r);
  }
}

TEST_CASE("AppRecordThenReplay: a recorded live session replays bit-identically") {
  // Live keyboard input: keys held for frame-dependent durations (jittered frames).
  LiveInput live;
  SimDriver d;
  d.load("test_double_pendulum", SceneRegistry::defaults("test_double_pendulum"));
  live.configure(d.controls(), {});
  d.setLiveInput(&live);
  d.startRecording();
  std::vector<std::vector<uint64_t>> original;
  d.afterStep = [&](long, const Scene& s) { original.push_back(bits(s.saveState())); };
  std::mt19937 rng(5);
  const int frames = int(kSteps / 3);
  for (int f = 0; f < frames; ++f) {
    KeyboardSnapshot keys;
    if ((f / 37) % 3 == 0) keys.down.push_back(live.bindings()[0].keyPos);
    if ((f / 23) % 2 == 1) keys.down.push_back(live.bindings()[1].keyNeg);
    live.setDevices(GamepadSnapshot{}, keys);
    d.frame(0.005 + 0.02 * double(rng() % 100) / 100.0);
  }
  d.afterStep = nullptr;
  REQUIRE(original.size() > 100);
  const auto path = std::string(VARSIM_TEST_OUT) + "/app_recorded.csv";
  d.recordedTrack().save(path, d.controls());

  SimDriver r;
  r.load("test_double_pendulum", SceneRegistry::defaults("test_double_pendulum"));
  r.startReplay(InputTrack::load(path, r.controls(), r.h()));
  CHECK(trajectory(r, long(original.size()), [](int) { return 1.0 / 60; }) == original);
}

TEST_CASE("AppDivergence: a diverging step names the step, keeps the last good state and stops") {
  ParamSet p = SceneRegistry::defaults("test_double_pendulum");
  p.setReal("blowup_time", 0.5);  // 60 steps of 1/120 s succeed, the 61st throws
  SimDriver d;
  d.load("test_double_pendulum", p);
  const int done = d.frame(1.0);
  CHECK(done == 60);
  CHECK(d.diverged());
  CHECK(d.paused());
  CHECK(d.divergedMessage().find("diverged at step 61") != std::string::npos);
  CHECK(d.divergedMessage().find("omega") != std::string::npos);
  CHECK(d.step() == 60);
  CHECK(bits(d.scene().saveState()) == bits(d.history().newest().state));
  CHECK(d.frame(1.0) == 0);  // stopped
  d.reset();
  CHECK_FALSE(d.diverged());
  CHECK(d.step() == 0);
}

TEST_CASE("AppParams: live parameters apply at once, others on reset, bad values are rejected") {
  SimDriver d;
  d.load("test_double_pendulum", SceneRegistry::defaults("test_double_pendulum"));
  for (int i = 0; i < 10; ++i) d.stepOnce();
  const auto before = bits(d.scene().saveState());
  CHECK(d.setParam("damping", ParamValue{{0.5}, {}}) == SimDriver::Apply::Live);
  CHECK(d.scene().params().real("damping") == 0.5);
  CHECK(bits(d.scene().saveState()) == before);  // state kept
  CHECK(d.setParam("blowup_time", ParamValue{{100.0}, {}}) == SimDriver::Apply::OnReset);
  CHECK(d.scene().params().real("blowup_time") == 1e9);
  CHECK(d.pendingKeys() == std::vector<std::string>{"blowup_time"});
  CHECK_THROWS_AS(d.setParam("dt", ParamValue{{-1.0}, {}}), BadInput);
  CHECK_THROWS_AS(d.setParam("nope", ParamValue{{1.0}, {}}), BadInput);
  CHECK(d.params().real("dt") == doctest::Approx(1.0 / 120));
  d.reset();
  CHECK(d.scene().params().real("blowup_time") == 100.0);
  CHECK(d.scene().params().real("damping") == 0.5);
  CHECK(d.pendingKeys().empty());
  CHECK_THROWS_AS(d.load("no_such_scene", ParamSet()), BadInput);
  CHECK(d.sceneName() == "test_double_pendulum");
}

TEST_CASE("AppInputSanitized: NaN and out-of-range inputs never reach the physics") {
  struct BadSource : InputSource {
    InputVector inputsForStep(long k, double) override {
      return k % 2 ? InputVector{std::nan(""), 5.0} : InputVector{-7.0, std::numeric_limits<double>::infinity()};
    }
  } bad;
  SimDriver d;
  d.load("test_double_pendulum", SceneRegistry::defaults("test_double_pendulum"));
  d.setLiveInput(&bad);
  d.stepOnce();
  CHECK(d.lastInputs() == InputVector{-1.0, 0.0});
  d.stepOnce();
  CHECK(d.lastInputs() == InputVector{0.0, 1.0});
  const auto notices = d.takeNotices();
  REQUIRE(notices.size() == 1);  // one notice per episode, not one per step
  CHECK(notices[0].find("not finite") != std::string::npos);
}

TEST_CASE("AppSpeedAndPause: speed scales steps per wall second; pause and single step are exact") {
  SimDriver d;
  d.load("test_double_pendulum", SceneRegistry::defaults("test_double_pendulum"));
  long steps = 0;
  for (int f = 0; f < 120; ++f) steps += d.frame(1.0 / 60);  // 2 s wall at ×1 with h = 1/120
  CHECK(steps >= 239);
  CHECK(steps <= 240);
  d.setSpeed(0.25);
  steps = 0;
  for (int f = 0; f < 120; ++f) steps += d.frame(1.0 / 60);
  CHECK(steps >= 59);
  CHECK(steps <= 60);
  d.setSpeed(100.0);
  CHECK(d.speed() == 4.0);
  d.setPaused(true);
  CHECK(d.frame(10.0) == 0);
  const long k = d.step();
  CHECK(d.stepOnce());
  CHECK(d.step() == k + 1);
}

TEST_CASE("AppRegisteredScenes: every registered scene runs frame-rate independently in the driver") {
  for (const auto& info : SceneRegistry::all()) {
    if (info.name.rfind("test_", 0) == 0) continue;  // test-only scenes of this executable
    CAPTURE(info.name);
    std::vector<std::vector<uint64_t>> runs[2];
    for (int r = 0; r < 2; ++r) {
      SimDriver d;
      d.load(info.name, SceneRegistry::defaults(info.name));
      const double h = d.h();
      runs[r] = trajectory(d, 30, [&](int) { return r == 0 ? h : 7.3 * h; });
    }
    CHECK(runs[0] == runs[1]);
  }
}

namespace {

// The ladder run of the recording tests: ε, τ and one picked joint's override edited mid-run.
struct LadderEdit {
  long atStep;
  bool param;
  std::string key, value;
};
const std::vector<LadderEdit> kLadderEdits = {{30, true, "epsilon", "1e-05"},
                                              {55, true, "tau", "0.05"},
                                              {80, false, "", "0.0001,0.1"},  // key: the picked joint
                                              {110, false, "", ""}};          // cleared again
const long kLadderSteps = 140;

std::string pickedJointKey(const Scene& scene) {
  const auto& rod = dynamic_cast<const RodScene&>(scene);
  // The joint the UI would pick by clicking near the 6th joint's anchor.
  const int j = rod.nearestJoint(rod.jointPosition(rod.system().jointConstraintIndices().at(5)), 0.1);
  REQUIRE(j >= 0);
  return "relax." + std::to_string(j);
}

// Diagnostics rows (row 0 before the first step) without wall-clock columns, as bit patterns.
std::vector<std::vector<uint64_t>> timelessRows(const std::vector<std::string>& columns,
                                                const std::vector<std::vector<double>>& rows) {
  std::vector<std::vector<uint64_t>> out;
  for (const auto& r : rows) {
    std::vector<double> kept;
    for (size_t c = 0; c < columns.size(); ++c)
      if (columns[c].size() < 3 || columns[c].compare(columns[c].size() - 3, 3, "_us") != 0) kept.push_back(r.at(c));
    out.push_back(bits(kept));
  }
  return out;
}

// A runner CSV's rows in the scene's columns: the energy monitor's energy_gain, energy_flag (appended
// last by the runner, energy_monitor.h) are checked and dropped.
std::vector<std::vector<double>> readCsvRows(const std::string& path, std::vector<std::string>& header) {
  std::ifstream in(path);
  std::string line, cell;
  std::getline(in, line);
  std::stringstream hs(line);
  header.clear();
  while (std::getline(hs, cell, ',')) header.push_back(cell);
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::stringstream ls(line);
    rows.emplace_back();
    while (std::getline(ls, cell, ',')) rows.back().push_back(std::strtod(cell.c_str(), nullptr));
  }
  REQUIRE(header.size() >= 2);
  CHECK(header[header.size() - 2] == "energy_gain");
  CHECK(header.back() == "energy_flag");
  header.resize(header.size() - 2);
  for (auto& r : rows) r.resize(header.size());
  return rows;
}

}  // namespace

TEST_CASE("AppRecordedEdits: ε, τ and a picked joint edited mid-run replay bit-identically in the app and headless") {
  SimDriver d;
  d.load("ladder", SceneRegistry::defaults("ladder"));
  const std::string joint = pickedJointKey(d.scene());
  d.startRecording();
  std::vector<std::vector<double>> rows(1);
  std::vector<std::vector<uint64_t>> states;
  d.scene().diagnostics(rows[0]);
  d.afterStep = [&](long, const Scene& s) {
    rows.emplace_back();
    s.diagnostics(rows.back());
    states.push_back(bits(s.saveState()));
  };
  size_t next = 0;
  while (d.step() < kLadderSteps) {
    for (; next < kLadderEdits.size() && kLadderEdits[next].atStep == d.step(); ++next) {
      const LadderEdit& e = kLadderEdits[next];
      if (e.param) CHECK(d.setParam(e.key, ParamValue{{std::strtod(e.value.c_str(), nullptr)}, {}}) == SimDriver::Apply::Live);
      else d.applyEdit(joint, e.value);
    }
    REQUIRE(d.stepOnce());
  }
  d.afterStep = nullptr;
  CHECK(d.scene().params().real("epsilon") == 1e-5);
  CHECK(d.scene().params().real("tau") == 0.05);
  CHECK(d.scene().edits().empty());
  REQUIRE(d.recordedEvents().size() == 4);
  CHECK(d.recordedEvents()[2].step == 80);
  CHECK(d.recordedEvents()[2].key == joint);
  const auto path = std::string(VARSIM_TEST_OUT) + "/ladder_edits.csv";
  d.saveRecording(path);

  SUBCASE("a fresh driver replays the recording bit-identically") {
    SimDriver r;
    r.load("ladder", SceneRegistry::defaults("ladder"));
    r.startReplay(InputTrack::load(path, r.controls(), r.h()));
    CHECK(trajectory(r, kLadderSteps, [](int) { return 1.0 / 60; }) == states);
    CHECK(r.scene().params().real("tau") == 0.05);
    // Step back across the clear (110) and the override (80): the override, then the old τ are back;
    // stepping forward again re-applies the recorded events and reproduces every state.
    for (int i = 0; i < 40; ++i) REQUIRE(r.stepBack());
    CHECK(r.step() == 100);
    CHECK(r.scene().edits() == std::vector<std::pair<std::string, std::string>>{{joint, "0.0001,0.1"}});
    for (int i = 0; i < 20; ++i) REQUIRE(r.stepBack());
    CHECK(r.step() == 80);  // the entry of step 80 holds the values before that step's events
    CHECK(r.scene().edits().empty());
    CHECK(r.scene().params().real("tau") == 0.05);
    for (int i = 0; i < 30; ++i) REQUIRE(r.stepBack());
    CHECK(r.scene().params().real("tau") == doctest::Approx(2.0 / 60));
    CHECK(r.params().real("tau") == doctest::Approx(2.0 / 60));
    std::vector<std::vector<uint64_t>> again;
    r.afterStep = [&](long, const Scene& s) { again.push_back(bits(s.saveState())); };
    for (int i = 0; i < 90; ++i) REQUIRE(r.stepOnce());
    CHECK(again == std::vector<std::vector<uint64_t>>(states.end() - 90, states.end()));
    CHECK(r.scene().params().real("tau") == 0.05);
  }
  SUBCASE("varsim run ladder --input FILE --csv writes the live run's rows") {
    const auto csv = std::string(VARSIM_TEST_OUT) + "/ladder_edits_run.csv";
    const std::string cmd = std::string(VARSIM_BINARY) + " run ladder --steps " + std::to_string(kLadderSteps) +
                            " --input " + path + " --csv " + csv + " 2>/dev/null";
    const int status = std::system(cmd.c_str());
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    std::vector<std::string> header;
    const auto fileRows = readCsvRows(csv, header);
    std::vector<std::string> timeless;  // wall-clock columns come only with --timings
    for (const auto& c : d.columns())
      if (c.size() < 3 || c.compare(c.size() - 3, 3, "_us") != 0) timeless.push_back(c);
    CHECK(header == timeless);
    REQUIRE(fileRows.size() == rows.size());
    CHECK(timelessRows(header, fileRows) == timelessRows(d.columns(), rows));
    // And the edits mattered: the same run without its events differs.
    const auto plain = std::string(VARSIM_TEST_OUT) + "/ladder_plain_run.csv";
    REQUIRE(std::system((std::string(VARSIM_BINARY) + " run ladder --steps " + std::to_string(kLadderSteps) +
                         " --csv " + plain + " 2>/dev/null").c_str()) == 0);
    CHECK(timelessRows(header, readCsvRows(plain, header)) != timelessRows(d.columns(), rows));
  }
  SUBCASE("stepping back across an edit brings the old values back; forward again the same states") {
    const auto final = bits(d.scene().saveState());
    for (int i = 0; i < 35; ++i) REQUIRE(d.stepBack());  // to step 105: the override is in force
    CHECK(d.scene().edits() == std::vector<std::pair<std::string, std::string>>{{joint, "0.0001,0.1"}});
    for (int i = 0; i < 30; ++i) REQUIRE(d.stepBack());  // to step 75: before the override
    CHECK(d.scene().edits().empty());
    CHECK(d.scene().params().real("tau") == 0.05);
    d.scrubTo(d.historyCursor() - 25);  // step 50: before the τ edit
    CHECK(d.step() == 50);
    CHECK(d.scene().params().real("tau") == doctest::Approx(2.0 / 60));
    CHECK(d.params().real("tau") == doctest::Approx(2.0 / 60));
    CHECK(d.scene().params().real("epsilon") == 1e-5);
    d.scrubTo(d.history().size() - 1);  // back to the present: every value and the state as they were
    CHECK(d.scene().params().real("tau") == 0.05);
    CHECK(d.scene().edits().empty());
    CHECK(bits(d.scene().saveState()) == final);
    // Resuming from step 50 rewrites the future: the recording loses the later events with it.
    d.scrubTo(50);
    REQUIRE(d.step() == 50);
    REQUIRE(d.stepOnce());
    CHECK(d.recordedEvents().size() == 1);
    CHECK(d.scene().params().real("tau") == doctest::Approx(2.0 / 60));
  }
}

TEST_CASE("AppRecordedEdits: an edit made in the past is recorded there; a recorded reset replays") {
  SimDriver d;
  d.load("test_double_pendulum", SceneRegistry::defaults("test_double_pendulum"));
  d.startRecording();
  for (int i = 0; i < 50; ++i) REQUIRE(d.stepOnce());
  d.setParam("damping", ParamValue{{0.3}, {}});
  for (int i = 0; i < 20; ++i) REQUIRE(d.stepOnce());
  for (int i = 0; i < 30; ++i) REQUIRE(d.stepBack());  // step 40: damping 0 again
  CHECK(d.scene().params().real("damping") == 0.0);
  d.setParam("damping", ParamValue{{0.5}, {}});  // rewrites the future: the event at 50 goes
  d.setParam("damping", ParamValue{{0.7}, {}});  // a dragged slider: one event with the last value
  CHECK(d.history().size() == 41);
  for (int i = 0; i < 30; ++i) REQUIRE(d.stepOnce());
  d.setParam("blowup_time", ParamValue{{100.0}, {}});  // waits for the reset
  d.reset();                                           // recorded; the recording goes on
  CHECK(d.step() == 0);
  CHECK(d.trackStep() == 70);
  for (int i = 0; i < 25; ++i) REQUIRE(d.stepOnce());
  const auto finalState = bits(d.scene().saveState());
  const InputTrack track = d.recordedTrack();
  REQUIRE(track.events().size() == 3);
  CHECK(track.events()[0].step == 40);
  CHECK(track.events()[0].value == "0.7");
  CHECK(track.events()[2].kind == InputEvent::Kind::Reset);
  CHECK(track.events()[2].step == 70);
  const auto path = std::string(VARSIM_TEST_OUT) + "/pendulum_reset.csv";
  d.saveRecording(path);

  SimDriver r;
  r.load("test_double_pendulum", SceneRegistry::defaults("test_double_pendulum"));
  r.startReplay(InputTrack::load(path, r.controls(), r.h()));
  for (int i = 0; i < 95; ++i) REQUIRE(r.stepOnce());
  CHECK(r.step() == 25);
  CHECK(r.scene().params().real("blowup_time") == 100.0);
  CHECK(r.scene().params().real("damping") == 0.7);
  CHECK(bits(r.scene().saveState()) == finalState);
  // A scene switch ends the replay and a recording (a file holds one scene).
  r.startRecording();
  r.setParam("damping", ParamValue{{0.1}, {}});
  r.load("ladder", SceneRegistry::defaults("ladder"));
  CHECK_FALSE(r.replaying());
  CHECK_FALSE(r.recording());
  CHECK(r.recordedEvents().empty());
}

TEST_CASE("RodSceneEdits: relax.<i> = eps,tau is validated; edits() lists what clearEdits + applyEdit restore") {
  std::unique_ptr<Scene> scene = SceneRegistry::create("ladder", SceneRegistry::defaults("ladder"));
  auto& rod = dynamic_cast<RodScene&>(*scene);
  scene->applyEdit("relax.3", "1e-6,0.05");
  scene->applyEdit("relax.10", "0.001,0.2");
  using Edits = std::vector<std::pair<std::string, std::string>>;
  const Edits expected{{"relax.3", "1e-06,0.05"}, {"relax.10", "0.001,0.2"}};
  CHECK(scene->edits() == expected);
  CHECK(rod.constraintStatus(3).overridden);
  CHECK(rod.constraintStatus(3).relaxation.epsilon == 1e-6);
  CHECK(rod.constraintStatus(10).relaxation.tau == 0.2);
  const std::string last = std::to_string(rod.constraintCount() - 1);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"stiffness.3", "1,1"}, {"relax.", "1e-6,0.05"},  {"relax.x", "1e-6,0.05"}, {"relax.-1", "1e-6,0.05"},
      {"relax.1.5", "1e-6,0.05"}, {"relax.99999", "1e-6,0.05"}, {"relax.4", "1e-6"},  {"relax.4", "1e-6,abc"},
      {"relax.4", "2,0.05"},  {"relax.4", "1e-6,11"}, {"relax.4", "1e-6,0.05,3"}, {"relax.4", "-1e-6,0.05"},
      {"relax.4", "nan,0.05"}, {"relax.4", ","}};
  for (const auto& [key, value] : bad) {
    CAPTURE(key);
    CAPTURE(value);
    std::string msg;
    try {
      scene->applyEdit(key, value);
    } catch (const BadInput& e) {
      msg = e.what();
    }
    CHECK(msg.find("edit '" + key + "'") != std::string::npos);
    CHECK(scene->edits() == expected);  // nothing changed
  }
  std::string msg;
  try { scene->applyEdit("relax.99999", "1e-6,0.05"); } catch (const BadInput& e) { msg = e.what(); }
  CHECK(msg.find("[0, " + last + "]") != std::string::npos);
  // Restore exactly: every constraint's relaxation bit for bit.
  auto relaxations = [&] {
    std::vector<double> r;
    for (int i = 0; i < rod.constraintCount(); ++i)
      for (double v : {rod.constraintStatus(i).relaxation.epsilon, rod.constraintStatus(i).relaxation.tau})
        r.push_back(v);
    return bits(r);
  };
  const auto before = relaxations();
  const Edits saved = scene->edits();
  scene->clearEdits();
  CHECK(scene->edits().empty());
  CHECK_FALSE(rod.constraintStatus(3).overridden);
  CHECK(relaxations() != before);
  for (const auto& [key, value] : saved) scene->applyEdit(key, value);
  CHECK(relaxations() == before);
  scene->applyEdit("relax.3", "");  // an empty value clears one
  CHECK(scene->edits() == Edits{{"relax.10", "0.001,0.2"}});
}
