// `varsim run` hardening (issue 15 items 4, 6, 8, 14), in-process through runHeadless: every count
// is range-checked before conversion, one number parser everywhere, write errors stop the run, and
// CSVs carry wall-clock columns only with --timings so two runs of one command are byte-identical.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/sim/errors.h"
#include "engine/sim/recorder.h"
#include "headless_capture.h"
#include "scenes/scene.h"
#include "ui/headless_runner.h"

using namespace varsim;
using varsim::test::readFile;
using varsim::test::runCaptured;
using varsim::test::testOut;

namespace {

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Exit 2 and every part in the one-line message.
void checkRefused(const std::vector<std::string>& args, const std::vector<std::string>& parts) {
  const auto r = runCaptured(args);
  std::string cmd;
  for (const auto& a : args) cmd += a + " ";
  INFO(cmd << "-> " << r.err);
  CHECK(r.exitCode == kExitBadInput);
  for (const auto& p : parts) CHECK(has(r.err, p));
  CHECK(r.err.size() < 400);
}

std::string header(const std::string& csv) { return readFile(csv).substr(0, readFile(csv).find('\n')); }

}  // namespace

TEST_CASE("RunCountsAreRangeCheckedBeforeConversion") {
  checkRefused({"run", "rigid_body", "--duration", "1e300"}, {"--duration 1e+300", "maximum is 1e+08 steps"});
  checkRefused({"run", "rigid_body", "--duration", "1e19"}, {"6e+20 steps", "maximum is 1e+08"});
  checkRefused({"run", "rigid_body", "--set", "dt=1e-300"}, {"--duration 10 (default)", "dt 1e-300", "maximum"});
  checkRefused({"run", "car", "--duration", "1e17", "--set", "dt=0.5"}, {"2e+17 steps", "maximum is 1e+08"});
  checkRefused({"run", "rigid_body", "--every", "1e300"}, {"--every 1e300", "above the maximum 1e+08", "[1, 1e+08]"});
  checkRefused({"run", "rigid_body", "--every", "0"}, {"--every 0", "below the minimum 1"});
  checkRefused({"run", "rigid_body", "--every", "2.5"}, {"not a whole number"});
  checkRefused({"run", "rigid_body", "--steps", "-1"}, {"--steps -1", "below the minimum 0"});
  checkRefused({"run", "rigid_body", "--steps", "9223372036854775808"}, {"above the maximum 1e+08"});
  checkRefused({"run", "rigid_body", "--steps", "1e8.5"}, {"not a number"});
  checkRefused({"run", "rigid_body", "--duration", "-1"}, {"--duration -1", "negative"});
  checkRefused({"run", "rigid_body", "--duration", "inf"}, {"not finite"});
  checkRefused({"run", "rigid_body", "--steps", "5", "--duration", "1"}, {"exclusive"});
  // At the limit itself the count is taken (checked without running: --every has the same bound).
  CHECK(runCaptured({"run", "rigid_body", "--steps", "0", "--every", "1e8"}).exitCode == kExitOk);
  CHECK(runCaptured({"run", "rigid_body", "--steps", "3", "--every", "2"}).exitCode == kExitOk);
  CHECK(runCaptured({"run", "rigid_body", "--duration", "0.05"}).exitCode == kExitOk);
}

TEST_CASE("RunNumbersFollowOneParserEverywhere") {
  // The scene file takes a subnormal; so does --set (it said "not a number list" before).
  CHECK(runCaptured({"run", "car", "--set", "m=1e-320", "--steps", "1"}).exitCode != kExitBadInput);
  checkRefused({"run", "rigid_body", "--set", "inertia=2,4,5,"}, {"'inertia'", "item 4", "empty text"});
  checkRefused({"run", "rigid_body", "--set", "inertia=2,,5"}, {"item 2"});
  checkRefused({"run", "car", "--set", "m=0x10"}, {"'m'", "'0x10' is not a number", "(0, 1e+05]"});
  checkRefused({"run", "car", "--set", "m= 5"}, {"not a number"});
  checkRefused({"run", "car", "--set", "m=5 "}, {"not a number"});
  checkRefused({"run", "car", "--set", "m=1e400"}, {"out of the range of a double"});
  checkRefused({"run", "car", "--dt", "0x1p-4"}, {"--dt", "'dt'", "not a number"});
  checkRefused({"run", "car", "--steps", "0x10"}, {"--steps 0x10", "not a number"});
  checkRefused({"run", "car", "--set", "m=" + std::string(100000, '7')}, {"out of the range", "..."});
  checkRefused({"run", "car", "--set", std::string(5000, 'k') + "=1"}, {"unknown key", "..."});
  checkRefused({"run", "car", "--bogus", "1"}, {"unknown option '--bogus'", "--timings"});
  checkRefused({"run", "car", "--steps"}, {"--steps: missing value"});
  checkRefused({"run"}, {"usage: varsim run"});
  checkRefused({"run", std::string(100000, 's')}, {"unknown scene", "(100000 characters)", "rigid_body"});
  checkRefused({"describe", std::string(100000, 's')}, {"unknown scene", "(100000 characters)"});
  checkRefused({}, {"usage"});
}

TEST_CASE("RunWriteErrorsStopWithExit2") {
  checkRefused({"run", "rigid_body", "--steps", "3", "--csv", "/dev/full"}, {"/dev/full", "failed", "No space"});
  checkRefused({"run", "rigid_body", "--steps", "3", "--csv", ""}, {"--csv: empty file name"});
  checkRefused({"run", "rigid_body", "--steps", "3", "--input", ""}, {"--input: empty file name"});
  checkRefused({"run", "rigid_body", "--csv", testOut("no_such_dir/x.csv")}, {"cannot open CSV file"});
  // The writer itself: every line is flushed and checked, so /dev/full fails at once, not at exit.
  CsvWriter w;
  CHECK_THROWS_AS(w.open("/dev/full", {"t"}), BadInput);
  CHECK_FALSE(w.isOpen());
}

TEST_CASE("WallClockColumnsAreNamedByTheirUnit") {
  for (const char* c : {"step_us", "solve_us", "step_us_rk4", "app_step_us"}) CHECK(isWallClockColumn(c));
  for (const char* c : {"t", "energy", "users", "u_s", "step_usage", "us", "newton_iters"})
    CHECK_FALSE(isWallClockColumn(c));
}

TEST_CASE("EveryScenesCsvIsByteIdenticalAcrossRunsWithoutTimings") {
  for (const auto& info : SceneRegistry::all()) {
    const std::string a = testOut("determinism_" + info.name + "_a.csv");
    const std::string b = testOut("determinism_" + info.name + "_b.csv");
    INFO(info.name);
    REQUIRE(runCaptured({"run", info.name, "--steps", "5", "--csv", a}).exitCode == kExitOk);
    REQUIRE(runCaptured({"run", info.name, "--steps", "5", "--csv", b}).exitCode == kExitOk);
    const std::string textA = readFile(a);
    CHECK(textA.size() > 0);
    CHECK(textA == readFile(b));
    CHECK_FALSE(has(header(a) + ",", "_us,"));
    CHECK_FALSE(has(header(a), "_us_"));

    // --timings adds exactly the wall-clock columns of Scene::columns(), in their places.
    const std::string timed = testOut("determinism_" + info.name + "_timed.csv");
    REQUIRE(runCaptured({"run", info.name, "--steps", "5", "--timings", "--csv", timed}).exitCode == kExitOk);
    const auto columns = SceneRegistry::create(info.name, SceneRegistry::defaults(info.name))->columns();
    std::string all, plain;
    for (const auto& c : columns) {
      all += (all.empty() ? "" : ",") + c;
      if (!isWallClockColumn(c)) plain += (plain.empty() ? "" : ",") + c;
    }
    // The runner appends the energy monitor's columns (energy_monitor.h) after the scene's.
    CHECK(header(timed) == all + ",energy_gain,energy_flag");
    CHECK(header(a) == plain + ",energy_gain,energy_flag");
  }
}

TEST_CASE("TimingsAddTheStepTimeColumns") {
  const std::string timed = testOut("timings_tumbling.csv");
  REQUIRE(runCaptured({"run", "tumbling_body", "--steps", "3", "--timings", "--csv", timed}).exitCode == kExitOk);
  const std::string h = header(timed) + ",";
  CHECK(has(h, ",step_us,"));
  CHECK(has(h, ",step_us_rk4,"));
  const std::string ladder = testOut("timings_ladder.csv");
  REQUIRE(runCaptured({"run", "ladder", "--steps", "3", "--timings", "--csv", ladder}).exitCode == kExitOk);
  CHECK(has(header(ladder) + ",", ",solve_us,step_us,"));
}

TEST_CASE("RunPrintsTheScenesParameterWarningWhenItAppearsOrChanges") {
  // At the start (the app shows the same text in the SPOOK tuning panel); a run at the defaults prints none.
  auto r = runCaptured({"run", "ladder", "--set", "links=3", "--set", "tau=0.004", "--steps", "2"});
  CHECK(r.exitCode == kExitOk);
  CHECK(has(r.err, "varsim: warning: ladder (step 0, t=0): joints, pins: tau/h = 0.24 < 0.5"));
  r = runCaptured({"run", "ladder", "--set", "links=3", "--steps", "2"});
  CHECK(r.exitCode == kExitOk);
  CHECK_FALSE(has(r.err, "warning"));
  // A recorded edit that brings it (tau/h = 0.24: below 0.5 warns; below 0.1 is refused), one that changes it (the
  // pins' tau/h to 0.72), one that keeps it (not repeated), one that clears it.
  const std::string input = testOut("parameter_warning_input.csv");
  varsim::test::writeFile(input, "step\nevent,2,param,tau,0.004\nevent,4,param,tau_pins,3\nevent,5,param,links,4\n"
                                 "event,6,param,tau,0.0333\n");
  r = runCaptured({"run", "ladder", "--set", "links=3", "--steps", "8", "--input", input});
  INFO(r.err);
  CHECK(r.exitCode == kExitOk);
  CHECK(has(r.err, "ladder (step 2, t=0.03333333333333333): joints, pins: tau/h = 0.24 < 0.5"));
  CHECK(has(r.err, "ladder (step 4, t=0.06666666666666667): joints: tau/h = 0.24 < 0.5"));
  CHECK_FALSE(has(r.err, "(step 5"));
  CHECK_FALSE(has(r.err, "(step 6"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 2 + 1 + 1);  // two warnings, links' note, the summary
}
