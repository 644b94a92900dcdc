// Headless runner: parses the command line per ARCHITECTURE.md, builds the scene from defaults, a
// scene file and --set overrides, steps it at fixed h and streams diagnostics to CSV.
#include "ui/headless_runner.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "engine/sim/errors.h"
#include "engine/sim/input_track.h"
#include "engine/sim/recorder.h"
#include "scenes/scene.h"
#include "scenes/scene_file.h"

namespace varsim {

bool isHeadlessCommand(const std::string& arg) { return arg == "list" || arg == "describe" || arg == "run"; }

static bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

static double parseNumberArg(const std::string& flag, const std::string& text, double lo, bool loExclusive) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v) || (loExclusive ? v <= lo : v < lo))
    throw BadInput(flag + " " + text + ": expected a finite number " + (loExclusive ? "> " : ">= ") + formatNumber(lo));
  return v;
}

static int runScene(const std::vector<std::string>& args) {
  if (args.size() < 2) throw BadInput("usage: varsim run SCENE|FILE.json [--set key=value]... [--dt H] "
                                      "[--duration T | --steps N] [--csv FILE] [--every K] [--input FILE]");
  SceneConfig config;
  if (endsWith(args[1], ".json")) config = loadSceneFile(args[1]);
  else { config.scene = args[1]; config.params = SceneRegistry::defaults(args[1]); }

  double duration = 10.0;
  long steps = -1;
  long every = 1;
  std::string csvPath, inputPath;
  bool haveDuration = false;
  for (size_t i = 2; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (i + 1 >= args.size()) throw BadInput(flag + ": missing value");
    const std::string& value = args[++i];
    if (flag == "--set") {
      const auto eq = value.find('=');
      if (eq == std::string::npos) throw BadInput("--set " + value + ": expected key=value");
      config.params.setFromString(value.substr(0, eq), value.substr(eq + 1), "--set");
    } else if (flag == "--dt") {
      config.params.setFromString("dt", value, "--dt");
    } else if (flag == "--duration") {
      duration = parseNumberArg(flag, value, 0.0, false);
      haveDuration = true;
    } else if (flag == "--steps") {
      double n = parseNumberArg(flag, value, 0.0, false);
      if (n != std::floor(n) || n > 1e12) throw BadInput("--steps " + value + ": expected an integer in [0, 1e12]");
      steps = long(n);
    } else if (flag == "--every") {
      double k = parseNumberArg(flag, value, 1.0, false);
      if (k != std::floor(k)) throw BadInput("--every " + value + ": expected an integer >= 1");
      every = long(k);
    } else if (flag == "--csv") {
      csvPath = value;
    } else if (flag == "--input") {
      inputPath = value;
    } else {
      throw BadInput("unknown option '" + flag + "'; allowed: --set, --dt, --duration, --steps, --csv, --every, --input");
    }
  }
  if (haveDuration && steps >= 0) throw BadInput("--duration and --steps are exclusive; give one");

  std::unique_ptr<Scene> scene = SceneRegistry::create(config.scene, config.params);
  const double h = scene->dt();
  if (steps < 0) steps = long(std::llround(duration / h));
  const auto controls = scene->controls();
  InputTrack track;
  track.neutral = neutralInputs(controls);
  if (!inputPath.empty()) track = InputTrack::load(inputPath, controls, h);

  const auto columns = scene->columns();
  CsvWriter csv;
  if (!csvPath.empty()) csv.open(csvPath, columns);
  std::vector<double> row;
  auto checkRow = [&](long k) {
    scene->diagnostics(row);
    for (size_t c = 0; c < row.size(); ++c)
      if (!std::isfinite(row[c]))
        throw SimulationDiverged("step " + std::to_string(k) + " (t=" + formatNumber(scene->time()) +
                                 "): '" + columns[c] + "' is not finite");
  };
  checkRow(0);
  csv.write(row);
  for (long k = 0; k < steps; ++k) {
    try {
      scene->step(h, track.at(k));
    } catch (const SimulationDiverged& e) {
      throw SimulationDiverged("step " + std::to_string(k + 1) + ": " + e.what());
    }
    checkRow(k + 1);
    if ((k + 1) % every == 0) csv.write(row);
  }
  std::fprintf(stderr, "%s: %ld steps of h=%s, t=%s\n", config.scene.c_str(), steps, formatNumber(h).c_str(),
               formatNumber(scene->time()).c_str());
  return kExitOk;
}

int runHeadless(const std::vector<std::string>& args) {
  try {
    if (args[0] == "list") {
      for (const auto& s : SceneRegistry::all()) std::printf("%s\n", s.name.c_str());
      return kExitOk;
    }
    if (args[0] == "describe") {
      if (args.size() != 2) throw BadInput("usage: varsim describe SCENE");
      std::printf("%s\n", describeSceneJson(args[1]).c_str());
      return kExitOk;
    }
    return runScene(args);
  } catch (const BadInput& e) {
    std::fprintf(stderr, "varsim: error: %s\n", e.what());
    return kExitBadInput;
  } catch (const SimulationDiverged& e) {
    std::fprintf(stderr, "varsim: diverged: %s\n", e.what());
    return kExitDiverged;
  }
}

}  // namespace varsim
