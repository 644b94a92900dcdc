// Headless runner: parses the command line per ARCHITECTURE.md, builds the scene from defaults, a
// scene file and --set overrides, steps it at fixed h and streams diagnostics to CSV. Every number on
// the command line goes through parseNumber/parseCount (engine/sim/number_text.h), and every count is
// range-checked as a double before it becomes an integer, so no input wraps or runs without end.
#include "ui/headless_runner.h"

#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <set>

#include "engine/sim/cli_args.h"
#include "engine/sim/errors.h"
#include "engine/sim/input_track.h"
#include "engine/sim/number_text.h"
#include "engine/sim/recorder.h"
#include "plan/mpc_run.h"
#include "scenes/run_cost.h"
#include "scenes/run_session.h"
#include "scenes/scene.h"
#include "scenes/scene_file.h"
#include "study/study_runner.h"
#include "ui/headless_help.h"
#include "ui/plan_command.h"
#include "ui/run_frames.h"

namespace varsim {

const char* const kRunUsage =
    "usage: varsim run SCENE|FILE.json [--set key=value]... [--dt H] [--duration T | --steps N]\n"
    "       [--csv FILE] [--every K] [--input FILE] [--timings]\n"
    "       [--video OUT.mp4|.webm|.gif | --frames DIR] [--fps F] [--size WxH] [--camera KEY=V,...] [--hud on|off]";

// A subcommand is a word; the app's flags start with '-' (ui/core/app_options.h), except the help flags, which
// print the subcommands' overview (ui/headless_help.h). An unknown word is refused here, naming the subcommands.
bool isHeadlessCommand(const std::string& arg) {
  return arg == "--help" || arg == "-h" || arg.empty() || arg[0] != '-';
}

namespace {

struct RunOptions {
  SceneConfig config;
  double duration = 10.0;  // s, default when neither --duration nor --steps is given
  bool haveDuration = false;
  double steps = -1;  // a whole number in [0, kMaxRunSteps] once given
  double every = 1;
  std::string csvPath, inputPath;
  bool timings = false;
  FrameFlags frameFlags;  // --video and its options, for the frame sink (ui/run_frames.h)
};

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string flagError(const std::string& flag, const std::string& value, const std::string& why) {
  return flag + " " + shortText(value) + ": " + why;
}

double countArg(const std::string& flag, const std::string& value, double lo, double hi) {
  const NumberText n = parseCount(value, lo, hi);
  if (!n.ok) throw BadInput(flagError(flag, value, n.error + "; allowed a whole number in [" + formatNumber(lo) + ", " +
                                                       formatNumber(hi) + "]"));
  return n.value;
}

std::string fileArg(const std::string& flag, const std::string& value) {
  if (value.empty()) throw BadInput(flag + ": empty file name");
  return value;
}

RunOptions parseRunArgs(const std::vector<std::string>& args) {
  if (args.size() < 2) throw BadInput(kRunUsage);
  RunOptions o;
  if (endsWith(args[1], ".json")) o.config = loadSceneFile(args[1]);
  else { o.config.scene = args[1]; o.config.params = sceneDefaults(args[1]); }
  FlagsSeen seen;
  static const std::set<std::string> kFlags = {"--set", "--dt", "--duration", "--steps", "--csv", "--every", "--input"};
  for (size_t i = 2; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag != "--timings" && !kFlags.count(flag) && !isFrameFlag(flag))
      throw BadInput("unknown option '" + shortText(flag) +
                     "'; allowed: --set, --dt, --duration, --steps, --csv, --every, --input, --timings, --video, "
                     "--frames, --fps, --size, --camera, --hud");
    // --set may repeat with different keys; every other flag, and each --set key, once.
    if (flag != "--set") seen.once(flag);
    if (flag == "--timings") { o.timings = true; continue; }
    if (i + 1 >= args.size()) throw BadInput(flag + ": missing value; " + kRunUsage);
    const std::string& value = args[++i];
    if (flag == "--set") {
      const auto eq = value.find('=');
      if (eq == std::string::npos) throw BadInput(flagError(flag, value, "expected key=value"));
      seen.once("--set " + value.substr(0, eq) + "=");
      o.config.params.setFromString(value.substr(0, eq), value.substr(eq + 1), "--set");
    } else if (flag == "--dt") {
      o.config.params.setFromString("dt", value, "--dt");
    } else if (flag == "--duration") {
      const NumberText n = parseNumber(value);
      if (!n.ok || n.value < 0)
        throw BadInput(flagError(flag, value, (n.ok ? "negative" : n.error) + "; allowed >= 0 s"));
      o.duration = n.value;
      o.haveDuration = true;
    } else if (flag == "--steps") {
      o.steps = countArg(flag, value, 0, kMaxRunSteps);
    } else if (flag == "--every") {
      o.every = countArg(flag, value, 1, kMaxRunSteps);
    } else if (flag == "--csv") {
      o.csvPath = fileArg(flag, value);
    } else if (flag == "--input") {
      o.inputPath = fileArg(flag, value);
    } else if (isFrameFlag(flag)) {
      o.frameFlags.emplace_back(flag, value);
    }
  }
  refuseSameFile({{"scene file", endsWith(args[1], ".json") ? args[1] : ""}, {"--input", o.inputPath},
                  {"--csv", o.csvPath}});
  if (o.haveDuration && o.steps >= 0) throw BadInput("--duration and --steps are exclusive; give one");
  return o;
}

// Steps for --duration T at step h, checked while still a double: 1e300 / h never reaches llround.
long stepsFor(const RunOptions& o, double h) {
  if (o.steps >= 0) return long(o.steps);
  const double n = o.duration / h;
  if (!(n <= kMaxRunSteps))
    throw BadInput("--duration " + formatNumber(o.duration) + (o.haveDuration ? "" : " (default)") + " at dt " +
                   formatNumber(h) + " is " + formatNumber(n) + " steps; the maximum is " + formatNumber(kMaxRunSteps) +
                   " steps per run (shorten the duration or raise dt)");
  return long(std::llround(n));
}

// The scene built from the options; a refusal of a scene file's values (the scene's checks, e.g. a cross-key
// range) names the file, as the file's own parse errors do.
std::unique_ptr<RunSession> openRun(const RunOptions& o, const std::string& sceneFile) {
  const auto warn = [](const std::string& w) { std::fprintf(stderr, "varsim: warning: %s\n", w.c_str()); };
  try {
    return std::make_unique<RunSession>(o.config, warn);
  } catch (const BadInput& e) {
    if (sceneFile.empty() || std::string(e.what()).find(sceneFile) != std::string::npos) throw;
    throw BadInput(sceneFile + ": " + e.what());
  }
}

int runScene(const std::vector<std::string>& args) {
  const RunOptions o = parseRunArgs(args);
  const std::unique_ptr<RunSession> session = openRun(o, endsWith(args[1], ".json") ? args[1] : "");
  RunSession& run = *session;
  Scene& scene = run.scene();
  const double h = run.h();
  const long steps = stepsFor(o, h);
  const long every = long(o.every);
  const auto controls = scene.controls();
  InputTrack track;
  track.neutral = neutralInputs(controls);
  if (!o.inputPath.empty()) track = InputTrack::load(o.inputPath, controls, h);
  for (const InputEvent& e : track.events())
    if (e.kind == InputEvent::Kind::Reset)
      throw BadInput(e.where + ": reset events are replayed by the app only (`varsim run` writes one run from "
                     "t = 0; split the file at the reset)");
  const std::unique_ptr<FrameSink> frames = makeFrameSink(o.frameFlags);  // nullptr without --video/--frames
  CsvWriter csv;
  if (!o.csvPath.empty()) csv.open(o.csvPath, run.columns(), o.timings ? CsvTimings::Keep : CsvTimings::Drop);
  csv.write(run.row());
  if (frames) frames->frame(run);
  RunCost cost(steps);
  for (long k = 0; k < steps; ++k) {
    const auto [first, last] = track.eventsAt(k);  // before step k's physics, as in the app
    for (size_t i = first; i < last; ++i)
      if (run.applyEvent(track.events()[i]) == EditTiming::OnReset)
        std::fprintf(stderr, "varsim: note: %s: '%s' takes effect on a reset only; this run keeps %s\n",
                     track.events()[i].where.c_str(), track.events()[i].key.c_str(),
                     scene.params().valueText(track.events()[i].key).c_str());
    if (first < last) run.endEdits();
    run.step(track.at(k));
    const std::string slow = cost.afterStep(k + 1);
    if (!slow.empty()) std::fprintf(stderr, "varsim: warning: %s: %s\n", o.config.scene.c_str(), slow.c_str());
    if ((k + 1) % every == 0) csv.write(run.row());
    if (frames) frames->frame(run);
  }
  csv.finish();
  if (frames) frames->finish();
  std::fprintf(stderr, "%s: %ld steps of h=%s, t=%s\n", o.config.scene.c_str(), steps, formatNumber(h).c_str(),
               formatNumber(scene.time()).c_str());
  return kExitOk;
}

int dispatch(const std::vector<std::string>& args) {
  if (const int helped = answerHelp(args); helped >= 0) return helped;  // --help / -h / help: usage on stdout
  if (args.empty() || !isKnownCommand(args[0]))
    throw BadInput((args.empty() ? "usage: varsim SUBCOMMAND [ARGS]..." : "unknown subcommand '" + shortText(args[0]) + "'") +
                   "; allowed: " + allowedCommands() + " (varsim --help describes them)");
  if (args[0] == "list") {
    for (const auto& s : SceneRegistry::all()) std::printf("%s\n", s.name.c_str());
    return kExitOk;
  }
  if (args[0] == "describe") {
    if (args.size() != 2) throw BadInput(commandUsage("describe"));
    sceneDefaults(args[1]);  // an unknown name is refused before describe echoes it
    std::printf("%s\n", describeSceneJson(args[1]).c_str());
    return kExitOk;
  }
  if (args[0] == "study") return study::studyCommand(args);  // integrator comparisons (study/study_runner.h)
  if (args[0] == "plan") return planCommand(args);            // optimal control with Ipopt (ui/plan_command.h)
  if (args[0] == "mpc") {  // receding-horizon control (plan/mpc_run.h)
    const MpcRunResult r = runMpc(args);
    std::fprintf(stderr, "%s\n", r.summary.c_str());
    return r.exitCode;
  }
  return runScene(args);
}

}  // namespace

int runHeadless(const std::vector<std::string>& args) {
  try {
    return dispatch(args);
  } catch (const BadInput& e) {
    std::fprintf(stderr, "varsim: error: %s\n", e.what());
    return kExitBadInput;
  } catch (const SimulationDiverged& e) {
    std::fprintf(stderr, "varsim: diverged: %s\n", e.what());
    return kExitDiverged;
  } catch (const std::exception& e) {
    // Last line of defence: any other exception is still a refused input, never an abort. Real
    // causes are fixed where they arise (the fuzz test reports which inputs reach this line).
    std::fprintf(stderr, "varsim: error: unexpected failure: %s\n", shortText(e.what(), 200).c_str());
    return kExitBadInput;
  }
}

}  // namespace varsim
