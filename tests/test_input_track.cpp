// Input tracks: exact sample-and-hold by step, strict parsing (issue 15 items 3 and 7: repeated
// columns, NUL bytes, huge steps and times), timed events, sanitising of device values, and the
// headless runner's exit code 2 with the reason for each malformed file.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

#include "engine/sim/errors.h"
#include "engine/sim/input_track.h"

using namespace varsim;

static const std::vector<ControlSpec> kControls = {{"throttle", 0, 1, 0, ""}, {"steer", -1, 1, 0, ""}};

static std::string writeFile(const std::string& name, const std::string& text) {
  std::string path = std::string(VARSIM_TEST_OUT) + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST_CASE("input track: rows hold until the next row") {
  auto path = writeFile("track1.csv", "step,throttle,steer\n0,0.5,0\n10,1,-0.25\n");
  InputTrack t = InputTrack::load(path, kControls, 0.01);
  CHECK(t.at(0) == InputVector{0.5, 0});
  CHECK(t.at(9) == InputVector{0.5, 0});
  CHECK(t.at(10) == InputVector{1, -0.25});
  CHECK(t.at(100000) == InputVector{1, -0.25});
}

TEST_CASE("input track: time rows map to the first step at or after t; missing controls neutral") {
  auto path = writeFile("track2.csv", "t,steer\n0.5,0.75\n");
  InputTrack t = InputTrack::load(path, kControls, 0.1);
  CHECK(t.at(4) == InputVector{0, 0});
  CHECK(t.at(5) == InputVector{0, 0.75});
}

TEST_CASE("input track: save then load reproduces every step exactly") {
  InputTrack t;
  t.neutral = neutralInputs(kControls);
  for (long k = 0; k < 50; ++k) t.append(k, {std::fmod(k * 0.1234567890123, 1.0), std::sin(double(k))});
  auto path = std::string(VARSIM_TEST_OUT) + "/track3.csv";
  t.save(path, kControls);
  InputTrack u = InputTrack::load(path, kControls, 1.0 / 60);
  for (long k = 0; k < 60; ++k) CHECK(u.at(k) == t.at(k));
}

TEST_CASE("input track: malformed files name file, line and column") {
  auto expectError = [](const std::string& text, const std::string& fragment) {
    auto path = writeFile("bad.csv", text);
    std::string msg;
    try { InputTrack::load(path, kControls, 0.1); } catch (const BadInput& e) { msg = e.what(); }
    INFO(msg);
    CHECK(msg.find(fragment) != std::string::npos);
    CHECK(msg.find("bad.csv") != std::string::npos);
  };
  expectError("step,throttle\n0,abc\n", ":2: column 'throttle'");
  expectError("step,throttle\n0,1,2\n", ":2: expected 2 columns");
  expectError("step,brake\n0,1\n", "unknown control 'brake'");
  expectError("step,throttle\n5,1\n2,1\n", "must not decrease");
  expectError("step,throttle\n0,2\n", "out of range [0, 1]");
  expectError("step,throttle\n0,nan\n", ":2: column 'throttle': 'nan' is not finite");
}

TEST_CASE("sanitizeInputs: NaN goes neutral, out-of-range is clamped") {
  InputVector v{std::numeric_limits<double>::quiet_NaN(), 3.0};
  CHECK(sanitizeInputs(kControls, v));
  CHECK(v == InputVector{0.0, 1.0});
  InputVector ok{0.5, -0.5};
  CHECK_FALSE(sanitizeInputs(kControls, ok));
  InputVector shortVec{0.5};
  CHECK(sanitizeInputs(kControls, shortVec));
  CHECK(shortVec.size() == 2);
}

namespace {

std::string parseError(const std::string& text, const std::vector<ControlSpec>& controls = kControls, double h = 0.1) {
  try {
    InputTrack::parse(text, "mem.csv", controls, h);
  } catch (const BadInput& e) {
    return e.what();
  }
  return "";
}

// Runs the headless binary; returns the exit code and fills `err` with its stderr.
int runVarsim(const std::string& args, std::string& err) {
  const std::string errPath = std::string(VARSIM_TEST_OUT) + "/input_track_stderr.txt";
  const int status = std::system((std::string(VARSIM_BINARY) + " " + args + " >/dev/null 2>" + errPath).c_str());
  std::ifstream in(errPath);
  std::stringstream ss;
  ss << in.rdbuf();
  err = ss.str();
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("input track: parse() takes text; load() = read the whole file + parse") {
  const std::string text = "step,throttle,steer\n0,0.5,0\n10,1,-0.25\n";
  const InputTrack a = InputTrack::parse(text, "mem.csv", kControls, 0.01);
  const InputTrack b = InputTrack::load(writeFile("track_parse.csv", text), kControls, 0.01);
  for (long k : {0L, 9L, 10L, 1000L}) CHECK(a.at(k) == b.at(k));
  CHECK(a.events().empty());
}

TEST_CASE("input track: a repeated column is an error naming it (issue 15 item 3)") {
  const std::vector<ControlSpec> car = {{"steer", -1, 1, 0, ""}, {"throttle", 0, 1, 0, ""}, {"brake", 0, 1, 0, ""}};
  const std::string msg = parseError("step,steer,throttle,brake,steer\n0,0,0,0,0\n", car);
  CHECK(msg == "mem.csv:1: column 'steer' appears twice (columns 2 and 5); each control at most once");
}

TEST_CASE("input track: a NUL byte anywhere is an error naming line and column (issue 15 item 7)") {
  CHECK(parseError(std::string("step,throttle\n5\0junk,1\n", 22)) ==
        "mem.csv:2: NUL byte at column 2; an input file is text");
  CHECK(parseError(std::string("step,throttle\n0,1\n1,1\0", 22)) ==
        "mem.csv:3: NUL byte at column 4; an input file is text");
  CHECK(parseError(std::string("\0", 1)) == "mem.csv:1: NUL byte at column 1; an input file is text");
}

TEST_CASE("input track: steps and times beyond the largest step say so (issue 15 item 7)") {
  CHECK(parseError("step,throttle\n9223372036854775808,1\n") ==
        "mem.csv:2: step 9223372036854775808 exceeds the largest step 1e+09");
  CHECK(parseError("step,throttle\n1e300,1\n") == "mem.csv:2: step 1e300 exceeds the largest step 1e+09");
  CHECK(parseError("t,throttle\n1e300,1\n") ==
        "mem.csv:2: time 1e300 s exceeds the largest time 1e+08 s (1e+09 steps of h = 0.1 s)");
  CHECK(parseError("step,throttle\n-1,1\n") == "mem.csv:2: step -1 is negative; steps start at 0");
  CHECK(parseError("step,throttle\n2.5,1\n") == "mem.csv:2: step 2.5 is not an integer");
  CHECK(parseError("step,throttle\n0x10,1\n") ==
        "mem.csv:2: column 'step': '0x10' is not a number (expected a decimal literal such as -1.5e-3)");
  CHECK(parseError("step,throttle\n1e400,1\n").find("out of the range of a double") != std::string::npos);
  CHECK(parseError("step,throttle\n0,1,\n") == "mem.csv:2: expected 2 columns, got 3");  // trailing comma
  // The largest step itself is fine.
  CHECK(InputTrack::parse("step,throttle\n1000000000,1\n", "mem.csv", kControls, 0.1).at(1000000000) ==
        InputVector{1, 0});
}

TEST_CASE("input track: events round-trip through save/load with their steps, kinds and values") {
  InputTrack t;
  t.neutral = neutralInputs(kControls);
  t.append(0, {0.25, 0});
  t.addEvent({0, InputEvent::Kind::Param, "epsilon", "1e-06", ""});
  t.append(5, {1, -1});
  t.addEvent({7, InputEvent::Kind::Edit, "relax.3", "1e-05,0.05", ""});
  t.addEvent({7, InputEvent::Kind::Edit, "relax.4", "", ""});
  t.addEvent({9, InputEvent::Kind::Reset, "", "", ""});
  CHECK_THROWS_AS(t.addEvent({8, InputEvent::Kind::Reset, "", "", ""}), BadInput);  // steps never decrease
  CHECK_THROWS_AS(t.addEvent({9, InputEvent::Kind::Edit, "a,b", "1", ""}), BadInput);
  CHECK_THROWS_AS(t.addEvent({9, InputEvent::Kind::Edit, "k", "1\n2", ""}), BadInput);
  const auto path = std::string(VARSIM_TEST_OUT) + "/track_events.csv";
  t.save(path, kControls, "a comment\nover two lines");
  const InputTrack u = InputTrack::load(path, kControls, 0.1);
  REQUIRE(u.events().size() == 4);
  CHECK(u.events() == t.events());
  CHECK(u.events()[1].where == path + ":7");
  for (long k = 0; k < 12; ++k) CHECK(u.at(k) == t.at(k));
  CHECK(u.eventsAt(7) == std::pair<size_t, size_t>{1, 3});
  CHECK(u.eventsAt(8) == std::pair<size_t, size_t>{3, 3});
  CHECK(u.lastStep() == 9);
  // By time, events map to steps like rows do.
  const InputTrack v = InputTrack::parse("t\nevent,0.45,param,damping,0.5\n", "mem.csv", kControls, 0.1);
  CHECK(v.events().at(0).step == 5);
}

TEST_CASE("input track: malformed events name file, line and the reason") {
  CHECK(parseError("step\nevent,1\n") == "mem.csv:2: an event needs 'event,<step>,<kind>[,<key>[,<value>]]'");
  CHECK(parseError("step\nevent,1,jump,x,1\n") == "mem.csv:2: unknown event kind 'jump'; allowed: param, edit, reset");
  CHECK(parseError("step\nevent,1,param,epsilon\n") == "mem.csv:2: param event 'epsilon' without a value");
  CHECK(parseError("step\nevent,1,edit\n") == "mem.csv:2: edit event without a key");
  CHECK(parseError("step\nevent,1,reset,x\n") == "mem.csv:2: a reset event takes no key or value");
  CHECK(parseError("step\nevent,1,scene,car\n").find("scene switches are not recorded") != std::string::npos);
  CHECK(parseError("step\nevent,5,reset\n0\n") == "mem.csv:3: steps/times must not decrease");
  CHECK(parseError("step\nevent,1e300,reset\n") == "mem.csv:2: step 1e300 exceeds the largest step 1e+09");
}

TEST_CASE("varsim run --input: malformed input files exit 2 with the reason (issue 15 items 3 and 7)") {
  struct Case {
    std::string scene, text, message;
  };
  const std::vector<Case> cases = {
      {"car", "step,steer,throttle,brake,steer\n0,0,0,0,0\n",
       ":1: column 'steer' appears twice (columns 2 and 5); each control at most once"},
      {"car", std::string("step,steer\n5\0junk,1\n", 21), ":2: NUL byte at column 2; an input file is text"},
      {"car", "step,steer\n9223372036854775808,0\n", ":2: step 9223372036854775808 exceeds the largest step 1e+09"},
      {"car", "step,steer\n1e300,0\n", ":2: step 1e300 exceeds the largest step 1e+09"},
      {"car", "t,steer\n1e300,0\n", ":2: time 1e300 s exceeds the largest time"},
      {"ladder", "step\nevent,3,param,epsilon,2\n", ":2: param event: key 'epsilon'"},
      {"ladder", "step\nevent,3,edit,relax.100000,1e-6,0.1\n", ":2: edit 'relax.100000': constraint index"},
      {"ladder", "step\nevent,3,reset\n", ":2: reset events are replayed by the app only"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(i);
    const auto path = std::string(VARSIM_TEST_OUT) + "/bad_input_" + std::to_string(i) + ".csv";
    std::ofstream(path, std::ios::binary) << cases[i].text;
    std::string err;
    CHECK(runVarsim("run " + cases[i].scene + " --steps 5 --input " + path, err) == 2);
    INFO(err);
    CHECK(err.find(path + cases[i].message) != std::string::npos);
  }
}
