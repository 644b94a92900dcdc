// App command line parsing; see header.
#include "ui/core/app_options.h"

#include <cmath>
#include <cstdlib>

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "engine/sim/param.h"

namespace varsim {

const char* appUsage() {
  return "usage: varsim [--scene NAME|FILE.json] [--set key=value]... [--replay FILE] [--record FILE] [--video FILE.mp4]\n"
         "              [--gamepad-mappings FILE] [--hide-ui] [--sync-physics]\n"
         "       varsim --smoke-test SCENE [--frames N] --screenshot FILE.png [--no-scene] [--switch-from SCENE]\n"
         "                 [--autopilot X,Y]\n"
         "       varsim --bench-frames SECONDS [--scene NAME|FILE.json] [--hide-ui] [--sync-physics]\n"
         "       varsim list | describe | run | plan | mpc | study | help ...   (headless; varsim SUBCOMMAND --help)\n";
}

// Same parser and message style as the headless runner (engine/sim/number_text.h).
static double numberArg(const std::string& flag, const std::string& text, double lo, double hi) {
  const NumberText n = parseNumber(text);
  if (!n.ok) throw BadInput(flag + " " + shortText(text) + ": " + n.error);
  if (n.value < lo || n.value > hi)
    throw BadInput(flag + " " + shortText(text) + ": allowed [" + formatNumber(lo) + ", " + formatNumber(hi) + "]");
  return n.value;
}

AppOptions parseAppOptions(const std::vector<std::string>& args) {
  AppOptions o;
  bool haveFrames = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag == "--help" || flag == "-h") { o.mode = AppOptions::Mode::Help; continue; }
    if (flag == "--no-scene") { o.hideScene = true; continue; }
    if (flag == "--hide-ui") { o.hideUi = true; continue; }
    if (flag == "--sync-physics") { o.syncPhysics = true; continue; }
    if (i + 1 >= args.size()) throw BadInput(flag + ": missing value (see varsim --help)");
    const std::string& value = args[++i];
    if (flag == "--scene") o.scene = value;
    else if (flag == "--set") {
      const auto eq = value.find('=');
      if (eq == std::string::npos || eq == 0) throw BadInput("--set " + value + ": expected key=value");
      o.sets.emplace_back(value.substr(0, eq), value.substr(eq + 1));
    } else if (flag == "--replay") o.replayFile = value;
    else if (flag == "--record") o.recordFile = value;
    else if (flag == "--video") o.videoFile = value;
    else if (flag == "--gamepad-mappings") o.gamepadMappings = value;
    else if (flag == "--smoke-test") { o.mode = AppOptions::Mode::SmokeTest; o.scene = value; }
    else if (flag == "--frames") {
      const NumberText n = parseCount(value, 1, 1e6);
      if (!n.ok) throw BadInput("--frames " + shortText(value) + ": " + n.error);
      o.frames = int(n.value);
      haveFrames = true;
    } else if (flag == "--screenshot") o.screenshot = value;
    else if (flag == "--switch-from") o.switchFrom = value;
    else if (flag == "--autopilot") {
      const auto comma = value.find(',');
      if (comma == std::string::npos) throw BadInput("--autopilot " + shortText(value) + ": expected X,Y (m)");
      o.autopilot = true;
      o.autopilotX = numberArg(flag + " X", value.substr(0, comma), -1e4, 1e4);
      o.autopilotY = numberArg(flag + " Y", value.substr(comma + 1), -1e4, 1e4);
    } else if (flag == "--bench-frames") { o.mode = AppOptions::Mode::Bench; o.benchSeconds = numberArg(flag, value, 0.1, 3600); }
    else
      throw BadInput("unknown option '" + flag + "'; allowed: --scene, --set, --replay, --record, --video, "
                     "--gamepad-mappings, --smoke-test, --frames, --screenshot, --no-scene, --switch-from, --autopilot, --bench-frames, --hide-ui, "
                     "--sync-physics, --help");
  }
  if (o.mode == AppOptions::Mode::SmokeTest && o.screenshot.empty())
    throw BadInput("--smoke-test needs --screenshot FILE.png");
  if (o.mode != AppOptions::Mode::SmokeTest &&
      (haveFrames || !o.screenshot.empty() || o.hideScene || o.autopilot || !o.switchFrom.empty()))
    throw BadInput("--frames, --screenshot, --no-scene, --switch-from and --autopilot belong to --smoke-test");
  if (!o.replayFile.empty() && !o.recordFile.empty() && o.replayFile == o.recordFile)
    throw BadInput("--replay and --record name the same file '" + o.replayFile + "'");
  return o;
}

}  // namespace varsim
