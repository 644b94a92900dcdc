// App core pieces without GL: settings file round trip and corrupt-file fallback, command line
// parsing, speed ladder, default plot groups, frame-time percentiles and histogram.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>

#include "engine/sim/errors.h"
#include "ui/core/app_options.h"
#include "ui/core/frame_stats.h"
#include "ui/core/plot_groups.h"
#include "ui/core/settings.h"
#include "ui/core/speed_ladder.h"
#include "ui/input/key_names.h"

using namespace varsim;

TEST_CASE("SettingsRoundTrip: every field survives save and load") {
  Settings s;
  s.windowX = 40;
  s.windowY = 50;
  s.windowWidth = 1600;
  s.windowHeight = 900;
  s.panels.plots = false;
  s.panels.input = true;
  s.lastScene = "rigid_body";
  s.speed = 0.25;
  s.plotWindow = 60;
  s.gamepadMappingsFile = "/tmp/gamecontrollerdb.txt";
  ControlBinding b;
  b.axis = 3;
  b.keyPos = key::kI;
  b.keyNeg = key::kK;
  b.moreKeysPos = {key::kUp, key::kO};
  b.shaping.deadZone = 0.12;
  b.shaping.expo = 0.4;
  b.shaping.invert = true;
  b.shaping.cal = {-0.9, 0.03, 0.95};
  s.inputMappings["car"]["steer"] = SavedBinding{b};
  const std::string path = std::string(VARSIM_TEST_OUT) + "/settings_dir/nested/settings.json";
  std::string error;
  REQUIRE(saveSettings(path, s, error));
  std::vector<std::string> warnings;
  const Settings r = loadSettings(path, warnings);
  CHECK(warnings.empty());
  CHECK(r.windowX == 40);
  CHECK(r.windowWidth == 1600);
  CHECK_FALSE(r.panels.plots);
  CHECK(r.panels.input);
  CHECK(r.lastScene == "rigid_body");
  CHECK(r.speed == 0.25);
  CHECK(r.plotWindow == 60);
  CHECK(r.gamepadMappingsFile == "/tmp/gamecontrollerdb.txt");
  const ControlBinding& rb = r.inputMappings.at("car").at("steer").binding;
  CHECK(rb.axis == 3);
  CHECK(rb.keyPos == key::kI);
  CHECK(rb.moreKeysPos == std::vector<int>{key::kUp, key::kO});
  CHECK(rb.moreKeysNeg.empty());
  CHECK(rb.shaping.deadZone == 0.12);
  CHECK(rb.shaping.invert);
  CHECK(rb.shaping.cal.center == 0.03);
  // bindingsFor: saved binding by name, defaults for the other controls.
  const std::vector<ControlSpec> controls = {{"throttle", 0, 1, 0, ""}, {"steer", -1, 1, 0, ""}};
  const auto bs = bindingsFor(r, "car", controls);
  CHECK(bs[1].axis == 3);
  CHECK(bs[0].axis == 5);
  CHECK(bs[0].keyPos == key::kW);  // default throttle keys: W and Up
  CHECK(bs[0].moreKeysPos == std::vector<int>{key::kUp});
}

TEST_CASE("SettingsMoreKeys: bad extra-key lists warn and keep the defaults") {
  std::vector<std::string> warnings;
  const Settings s = parseSettingsJson(
      R"({"input": {"car": {"steer": {"keys_pos_more": ["Up", "Nope"]}, "throttle": {"keys_pos_more": "Up"}}}})", "t.json",
      warnings);
  CHECK(warnings.size() == 2);
  const std::vector<ControlSpec> controls = {{"steer", -1, 1, 0, ""}, {"throttle", 0, 1, 0, ""}};
  const auto bs = bindingsFor(s, "car", controls);
  CHECK(bs[0].moreKeysPos == std::vector<int>{key::kRight});
  CHECK(bs[1].moreKeysPos == std::vector<int>{key::kUp});
  const Settings cleared = parseSettingsJson(R"({"input": {"car": {"steer": {"keys_pos_more": []}}}})", "t.json", warnings);
  CHECK(bindingsFor(cleared, "car", controls)[0].moreKeysPos.empty());
}

TEST_CASE("SettingsCorrupt: never throws; bad fields warn and keep their defaults") {
  std::vector<std::string> w;
  Settings s = parseSettingsJson("{ this is not json", "settings.json", w);
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("not valid JSON") != std::string::npos);
  CHECK(s.windowWidth == 1280);
  w.clear();
  s = parseSettingsJson("[1,2]", "settings.json", w);
  CHECK(w.size() == 1);
  w.clear();
  s = parseSettingsJson(R"({"speed": "fast", "window": {"width": 10, "height": 800}, "panels": 3,
                            "plot_window": 45, "last_scene": 7,
                            "input": {"car": {"steer": {"axis": 42, "dead_zone": -1, "key_pos": "Nope", "expo": 0.5}}}})",
                        "s.json", w);
  CHECK(s.speed == 1.0);
  CHECK(s.windowWidth == 1280);
  CHECK(s.windowHeight == 800);
  CHECK(s.plotWindow == 60.0);  // snapped to the nearest window
  CHECK(s.lastScene.empty());
  // Only the valid fields of a partial entry override the scene's default binding.
  const std::vector<ControlSpec> carControls = {{"throttle", 0, 1, 0, ""}, {"steer", -1, 1, 0, ""}};
  const ControlBinding b = bindingsFor(s, "car", carControls)[1];
  const ControlBinding defaults = defaultBindings(carControls)[1];
  CHECK(b.axis == defaults.axis);
  CHECK(b.keyPos == defaults.keyPos);
  CHECK(b.shaping.deadZone == defaults.shaping.deadZone);
  CHECK(b.shaping.expo == 0.5);
  CHECK(s.inputMappings.at("car").at("steer").fields == SavedBinding::kExpo);
  CHECK(w.size() == 7);
  for (const auto& msg : w) CHECK(msg.find("s.json") == 0);
  // A missing file is the first run, not an error.
  w.clear();
  s = loadSettings(std::string(VARSIM_TEST_OUT) + "/no_such_settings.json", w);
  CHECK(w.empty());
  // Unwritable location: reported, no throw.
  std::string error;
  CHECK_FALSE(saveSettings("/proc/varsim/settings.json", s, error));
  CHECK_FALSE(error.empty());
}

TEST_CASE("SettingsPath: $VARSIM_SETTINGS wins") {
  setenv("VARSIM_SETTINGS", "/tmp/x/varsim.json", 1);
  CHECK(defaultSettingsPath() == "/tmp/x/varsim.json");
  unsetenv("VARSIM_SETTINGS");
  setenv("XDG_CONFIG_HOME", "/tmp/cfg", 1);
  CHECK(defaultSettingsPath() == "/tmp/cfg/varsim/settings.json");
}

TEST_CASE("SettingsMsaa: the user's choice round-trips, bad values warn and keep automatic") {
  Settings s;
  CHECK(s.msaaSamples == Settings::kMsaaAutomatic);
  const std::string path = std::string(VARSIM_TEST_OUT) + "/settings_msaa.json";
  std::string error;
  for (int samples : {0, 2, 4, 8, Settings::kMsaaAutomatic}) {
    s.msaaSamples = samples;
    REQUIRE(saveSettings(path, s, error));
    std::vector<std::string> w;
    CHECK(loadSettings(path, w).msaaSamples == samples);
    CHECK(w.empty());
  }
  for (const char* bad : {R"({"msaa_samples": 3})", R"({"msaa_samples": 16})", R"({"msaa_samples": "4"})",
                          R"({"msaa_samples": 4.5})", R"({"msaa_samples": -7})", R"({"msaa_samples": 4294967300})",
                          R"({"msaa_samples": 18446744073709551615})"}) {
    std::vector<std::string> w;
    const Settings r = parseSettingsJson(bad, "s.json", w);
    CHECK(r.msaaSamples == Settings::kMsaaAutomatic);
    REQUIRE(w.size() == 1);
    CHECK(w[0] == "s.json: 'msaa_samples' must be 0 (off), 2, 4, 8 or -1 (automatic); using the default");
  }
  // An out-of-range value set in code is not written out.
  s.msaaSamples = 6;
  CHECK(settingsToJson(s).find("\"msaa_samples\": -1") != std::string::npos);
  CHECK(validMsaaChoice(8));
  CHECK_FALSE(validMsaaChoice(1));
}

TEST_CASE("SettingsPanelLayout: ImGui's layout file sits next to the settings file") {
  CHECK(panelLayoutPath("/home/u/.config/varsim/settings.json") == "/home/u/.config/varsim/settings.imgui.ini");
  CHECK(panelLayoutPath("/tmp/x/varsim.json") == "/tmp/x/varsim.imgui.ini");
  CHECK(panelLayoutPath("varsim_settings.json") == "varsim_settings.imgui.ini");
  CHECK(panelLayoutPath("") == "varsim_settings.imgui.ini");
}

TEST_CASE("AppOptions: modes, values and errors that name the option") {
  AppOptions o = parseAppOptions({});
  CHECK(o.mode == AppOptions::Mode::Interactive);
  o = parseAppOptions({"--scene", "car", "--set", "mass=2", "--record", "r.csv"});
  CHECK(o.scene == "car");
  REQUIRE(o.sets.size() == 1);
  CHECK(o.sets[0].second == "2");
  CHECK(o.recordFile == "r.csv");
  o = parseAppOptions({"--smoke-test", "ladder", "--frames", "30", "--screenshot", "a.png"});
  CHECK(o.mode == AppOptions::Mode::SmokeTest);
  CHECK(o.frames == 30);
  o = parseAppOptions({"--bench-frames", "60", "--scene", "tumbling_body"});
  CHECK(o.mode == AppOptions::Mode::Bench);
  CHECK(o.benchSeconds == 60.0);
  CHECK(!o.syncPhysics);
  CHECK(parseAppOptions({"--bench-frames", "1", "--sync-physics"}).syncPhysics);
  auto message = [](std::vector<std::string> args) {
    try {
      parseAppOptions(args);
    } catch (const BadInput& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(message({"--frames", "0", "--smoke-test", "x", "--screenshot", "a"}).find("--frames 0") == 0);
  CHECK(message({"--frames", "2.5"}).find("--frames") == 0);
  CHECK(message({"--smoke-test", "x"}).find("--screenshot") != std::string::npos);
  CHECK(message({"--bogus"}).find("--bogus") != std::string::npos);
  CHECK(message({"--scene"}).find("missing value") != std::string::npos);
  CHECK(message({"--set", "novalue"}).find("key=value") != std::string::npos);
  CHECK(message({"--bench-frames", "nan"}).find("--bench-frames") == 0);
  // One number parser for the app's flags too (issue 15 item 6): hex, trailing junk and 1e400 refused.
  CHECK(message({"--bench-frames", "0x10"}).find("not a number") != std::string::npos);
  CHECK(message({"--bench-frames", "60s"}).find("not a number") != std::string::npos);
  CHECK(message({"--bench-frames", "1e400"}).find("range of a double") != std::string::npos);
  CHECK(message({"--bench-frames", "1e9"}).find("allowed [0.1, 3600]") != std::string::npos);
  CHECK(message({"--frames", "1e300", "--smoke-test", "x", "--screenshot", "a"}).find("maximum") != std::string::npos);
  CHECK(message({"--screenshot", "a.png"}).find("--smoke-test") != std::string::npos);
  CHECK(message({"--replay", "a.csv", "--record", "a.csv"}).find("same file") != std::string::npos);
}

TEST_CASE("SpeedLadder: log-spaced from x0.1 to x4") {
  for (size_t i = 1; i < kSpeedLadder.size(); ++i) {
    const double ratio = kSpeedLadder[i] / kSpeedLadder[i - 1];
    CHECK(ratio > 1.2);
    CHECK(ratio < 1.3);
  }
  CHECK(fasterSpeed(1.0) == 1.25);
  CHECK(slowerSpeed(1.0) == 0.8);
  CHECK(fasterSpeed(4.0) == 4.0);
  CHECK(slowerSpeed(0.1) == 0.1);
  CHECK(fasterSpeed(1.1) == 1.25);  // from a typed-in value to the next preset
  CHECK(clampSpeed(std::nan("")) == 1.0);
  double s = 0.1;
  int presses = 0;
  while (s < 4.0 && presses < 100) { s = fasterSpeed(s); ++presses; }
  CHECK(presses == 16);
}

TEST_CASE("PlotGroups: defaults from standard columns, derived energy error") {
  PlotSeriesLayout layout;
  layout.configure({"t", "energy", "L_x", "L_y", "L_z", "constraint_rms", "custom"});
  CHECK(layout.names() == std::vector<std::string>{"energy", "L_x", "L_y", "L_z", "constraint_rms", "custom",
                                                   kEnergyErrorSeries, kEnergyRelErrorSeries, kAppStepSeries});
  std::vector<double> out;
  layout.compute({0.0, -4.0, 1, 2, 3, 1e-9, 5}, 12.5, out);
  CHECK(out[6] == 0.0);
  layout.compute({0.1, -3.0, 1, 2, 3, 1e-9, 5}, 13.0, out);
  CHECK(out[6] == 1.0);
  CHECK(out[7] == 0.25);  // (E - E0)/|E0|
  CHECK(out[8] == 13.0);
  const auto groups = plotGroupsFor(layout.names(), {});
  std::vector<std::string> titles;
  for (const auto& g : groups) titles.push_back(g.title);
  CHECK(titles == std::vector<std::string>{"Energy (J)", "Angular momentum (N m s)", "Constraint error (m)",
                                           "Energy error: relative", "Energy error: absolute (J)", "Step time (us)"});
  CHECK(groups[2].logY);
  // A scene's own plots come first and keep only existing columns.
  const auto own = plotGroupsFor(layout.names(), {{"Mine", {"custom", "missing"}, true}});
  CHECK(own[0].title == "Mine");
  CHECK(own[0].columns == std::vector<std::string>{"custom"});
  CHECK(own.size() == 4);
}

TEST_CASE("FrameStats: nearest-rank percentiles, histogram bins, moving rates") {
  std::vector<double> v;
  for (int i = 1; i <= 100; ++i) v.push_back(i);
  CHECK(FrameTimeLog::percentile(v, 50) == 50);
  CHECK(FrameTimeLog::percentile(v, 99) == 99);
  CHECK(FrameTimeLog::percentile(v, 100) == 100);
  CHECK(FrameTimeLog::percentile({}, 50) == 0);
  const auto h = FrameTimeLog::histogram({0.5, 3.0, 16.6, 16.7, 99.0}, {0, 2, 16.7, 50});
  CHECK(h == std::vector<long>{1, 2, 1, 1});
  RateMeter m;
  for (int i = 0; i < 500; ++i) m.update(1.0 / 60, 2, 40.0);
  CHECK(m.fps() == doctest::Approx(60.0));
  CHECK(m.physicsHz() == doctest::Approx(120.0));
  CHECK(m.stepMicros() == doctest::Approx(40.0));
  FrameTimeLog log;
  for (int i = 0; i < 600; ++i) log.add(16.7, 3.0);
  const std::string report = log.report(600, 0, 10.0, 1.0 / 60);
  CHECK(report.find("missed ticks 0") != std::string::npos);
  CHECK(report.find("p99 16.70") != std::string::npos);
}

TEST_CASE("settings: a restored start says once what it restored, and nothing when all is default") {
  Settings s;
  CHECK(restoredSettingsNote(s, true).empty());
  s.speed = 2.5;
  s.lastScene = "car";
  CHECK(restoredSettingsNote(s, true) == "restored speed 250 %, last scene car \u2014 reset in View > Reset saved settings");
  // --scene on the command line: the saved last scene was not used, so it is not named.
  CHECK(restoredSettingsNote(s, false) == "restored speed 250 % \u2014 reset in View > Reset saved settings");
  s.speed = 1.0;
  s.inputMappings["car"]["steer"] = SavedBinding{};
  CHECK(restoredSettingsNote(s, false) == "restored input mappings of 1 scene(s) \u2014 reset in View > Reset saved settings");
}
