// Input tracks: exact sample-and-hold by step, strict parsing, sanitising of device values.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <limits>

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
  expectError("step,throttle\n0,nan\n", "not a finite number");
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
