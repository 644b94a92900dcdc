// plan/mpc_run.cpp — the closed loop of `varsim mpc` and Python's varsim.mpc(): the real vehicle is the scene built
// from the problem's scene part (times any --mismatch factors the controller does not know); before every physics
// step the controller reads it, re-plans each period and writes its controls as input events, exactly as an input
// file's events would.
#include "plan/mpc_run.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "engine/sim/cli_args.h"
#include "engine/sim/errors.h"
#include "engine/sim/file_read.h"
#include "engine/sim/number_text.h"
#include "engine/sim/recorder.h"
#include "plan/mpc_controller.h"
#include "plan/plan_endpoints.h"
#include "scenes/live_edit.h"

namespace varsim {

const char* const kMpcUsage =
    "usage: varsim mpc PROBLEM.json [--set key=value]... [--duration S] [--csv FILE] [--horizon N] [--period S]\n"
    "       [--iterations K] [--restart S] [--cold] [--mismatch key=factor]... [--disturb key=value]...\n"
    "       [--push T,PX,PY,PZ]... [--goal-track FILE] [--kkt mumps|ldl] [--dynamics-tolerance TOL]\n"
    "       [--rollout true|false] [--timings]\n"
    "  closed loop: every --period s the problem is re-solved over --horizon segments from the vehicle's measured\n"
    "  state, warm-started (--cold: not), at most --iterations Ipopt iterations; every --restart s (0: never) a cold\n"
    "  solve runs beside the warm one and the cheaper is adopted. Defaults: period 0.1, horizon 60, 30 iterations,\n"
    "  restart 1, --kkt mumps, --rollout false; the helicopter horizon 30, 12 iterations, restart 10, ldl and true,\n"
    "  but when its horizons end at rest or on the target pose (end_at_rest = true, terminal_weight = 0) 30\n"
    "  iterations, restart 1, ldl and false (true refused), the horizon its N when the pose is fixed; the car restart\n"
    "  2 within the re-plan's iterations and ldl; the boat period two steps of its dt (0.2 at h = 0.1: a plan's first\n"
    "  thrust is the held one, a shorter period is refused), horizon 30, restart 0 and ldl; the snakeboard horizon\n"
    "  30, 60 iterations and ldl.\n"
    "  --mismatch m=1.2 gives the real vehicle 1.2 times the scene key m the controller believes;\n"
    "  --disturb key=value sets a scene key on the real vehicle only (the helicopter's gust_strength, gust_seed,\n"
    "  wind); --push T,PX,PY,PZ gives it the impulse (N s, world) at time T through its live key push;\n"
    "  --goal-track FILE: lines 't,x,y' (s, m) moving the goal (target_x/y, the boat's dock_x/y) from time t on.\n"
    "  --kkt: Ipopt's linear solver (mumps, or the LDL^T of docs/planning.md); --dynamics-tolerance TOL (1e-6 to 1)\n"
    "  adopts a solve that spent its budget when its dynamics rows hold to TOL and every other row to 1e-6.\n"
    "  --rollout true: a solve that spent its budget is flown by the controller's model scene from the measured\n"
    "  state and adopted when every bound and every row beyond the dynamics holds.\n"
    "  CSV: the scene's columns, mpc_iterations, mpc_status (1 adopted, 0 stale: last feasible plan kept,\n"
    "  -1 no re-plan this step), goal_x, goal_y (goal_z: the helicopter's point), tracking_error (with a position\n"
    "  goal); solve_us with --timings.\n"
    "  Exit 0 completed, 4 no feasible plan ever, 2 bad input.";

namespace {

struct GoalPoint {
  double t, x, y;
};

struct PushEvent {
  double t;
  std::string value;  // "px,py,pz"
};

struct MpcArgs {
  std::string problem, csvPath, goalPath;
  std::vector<std::string> sets, mismatch, disturb;
  std::vector<PushEvent> pushes;
  MpcSettings settings;
  double duration = 10.0;
  bool timings = false;
};

double numberAt(const std::string& where, const std::string& text) {
  const NumberText n = parseNumber(text);
  if (!n.ok) throw BadInput(where + ": " + n.error);
  return n.value;
}

double number(const std::string& flag, const std::string& text, double lo, double hi) {
  const double v = numberAt(flag, text);
  if (!(v >= lo && v <= hi))
    throw BadInput(flag + " " + shortText(text) + ": allowed " + formatNumber(lo) + " to " + formatNumber(hi));
  return v;
}

// "T,PX,PY,PZ": the time (s, 0 to 3600) and the impulse vector as the push key's text (its range checked there).
PushEvent parsePush(const std::string& text) {
  const size_t comma = text.find(',');
  if (comma == std::string::npos || std::count(text.begin(), text.end(), ',') != 3)
    throw BadInput("--push '" + shortText(text) + "': allowed T,PX,PY,PZ (s, then N s)");
  return {number("--push time", text.substr(0, comma), 0.0, 3600.0), text.substr(comma + 1)};
}

MpcArgs parseMpcArgs(const std::vector<std::string>& args) {
  if (args.size() < 2) throw BadInput(kMpcUsage);
  static const std::set<std::string> valued{"--set",     "--csv",    "--goal-track", "--mismatch", "--duration",
                                            "--horizon", "--period", "--iterations", "--restart",  "--disturb",
                                            "--push",    "--kkt",    "--dynamics-tolerance", "--rollout"};
  MpcArgs o;
  o.problem = args[1];
  FlagsSeen seen;  // the command-line rule of run, plan and study: single-valued flags once
  for (size_t i = 2; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag != "--set" && flag != "--mismatch" && flag != "--disturb" && flag != "--push") seen.once(flag);
    if (flag == "--cold") { o.settings.warmStart = false; continue; }
    if (flag == "--timings") { o.timings = true; continue; }
    if (!valued.count(flag))
      throw BadInput("unknown option '" + shortText(flag) +
                     "'; allowed --set, --csv, --duration, --horizon, --period, --iterations, --restart, --cold, "
                     "--mismatch, --disturb, --push, --goal-track, --kkt, --dynamics-tolerance, --rollout, --timings");
    if (i + 1 >= args.size()) throw BadInput(flag + ": missing value; " + kMpcUsage);
    const std::string& value = args[++i];
    if (flag == "--set" || flag == "--mismatch" || flag == "--disturb")
      seen.once(flag + " " + value.substr(0, value.find('=')) + "=");
    if (flag == "--set") o.sets.push_back(value);
    else if (flag == "--disturb") o.disturb.push_back(value);
    else if (flag == "--push") o.pushes.push_back(parsePush(value));
    else if ((flag == "--csv" || flag == "--goal-track") && value.empty())
      throw BadInput(flag + ": empty path; allowed: a file path");
    else if (flag == "--csv") o.csvPath = value;
    else if (flag == "--goal-track") o.goalPath = value;
    else if (flag == "--mismatch") o.mismatch.push_back(value);
    else if (flag == "--duration") o.duration = number(flag, value, 0.0, 3600.0);
    else if (flag == "--horizon") o.settings.horizon = int(number(flag, value, 2, 20000));
    else if (flag == "--period") o.settings.period = number(flag, value, 1e-6, 3600.0);
    else if (flag == "--iterations") o.settings.maxIterations = int(number(flag, value, 1, 100000));
    else if (flag == "--kkt") o.settings.kktSolver = kktSolverArg("--kkt ", value);
    else if (flag == "--dynamics-tolerance") o.settings.dynamicsTolerance = number(flag, value, 1e-6, 1.0);
    else if (flag == "--rollout" && (value == "true" || value == "false")) o.settings.rollout = value == "true";
    else if (flag == "--rollout") throw BadInput("--rollout '" + shortText(value) + "': allowed true or false");
    else o.settings.restart = number(flag, value, 0.0, 3600.0);  // --restart
  }
  // The CSV is written; the problem and the goal track are read: one path for two of them loses a file.
  refuseSameFile({{"problem file", o.problem}, {"--csv", o.csvPath}, {"--goal-track", o.goalPath}});
  return o;
}

// "t,target_x,target_y" lines (a header line or '#' lines skipped), t non-decreasing.
std::vector<GoalPoint> loadGoalTrack(const std::string& path) {
  std::istringstream in(readUserFile(path, "--goal-track file", kMaxInputFileBytes));  // the one file rule
  std::vector<GoalPoint> out;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#' || line.rfind("t,", 0) == 0) continue;
    std::stringstream ss(line);
    std::string a, b, c;
    const std::string where = path + ":" + std::to_string(n);
    if (!std::getline(ss, a, ',') || !std::getline(ss, b, ',') || !std::getline(ss, c))
      throw BadInput(where + ": '" + shortText(line) + "': allowed 't,target_x,target_y'");
    GoalPoint g{numberAt(where + " t", a), numberAt(where + " target_x", b), numberAt(where + " target_y", c)};
    if (!out.empty() && g.t < out.back().t) throw BadInput(where + ": t " + shortText(a) + " decreases");
    out.push_back(g);
  }
  return out;
}

// The track's velocity from line i to the next (the goal's motion the controller anticipates); 0 after the last line.
std::vector<double> trackVelocity(const std::vector<GoalPoint>& goals, size_t i) {
  if (i + 1 >= goals.size() || !(goals[i + 1].t > goals[i].t)) return {0.0, 0.0};
  const double dt = goals[i + 1].t - goals[i].t;
  return {(goals[i + 1].x - goals[i].x) / dt, (goals[i + 1].y - goals[i].y) / dt};
}

ParamSet realVehicle(const PlanSetup& setup, const std::vector<std::string>& mismatch,
                     const std::vector<std::string>& disturb) {
  ParamSet p = setup.scene.params;
  for (const std::string& d : disturb) {
    const size_t eq = d.find('=');
    if (eq == std::string::npos) throw BadInput("--disturb '" + shortText(d) + "': allowed key=value");
    p.setFromString(d.substr(0, eq), d.substr(eq + 1), "--disturb");
  }
  for (const std::string& m : mismatch) {
    const size_t eq = m.find('=');
    if (eq == std::string::npos) throw BadInput("--mismatch '" + shortText(m) + "': allowed key=factor");
    const std::string key = m.substr(0, eq);
    const double f = number("--mismatch " + key, m.substr(eq + 1), 0.01, 100.0);
    if (!p.spec(key)) throw BadInput("--mismatch: scene '" + setup.scene.scene + "' has no key '" + shortText(key) + "'");
    p.setReal(key, f * p.real(key));
  }
  return p;
}

int columnOf(const Scene& s, const char* name) {
  const std::vector<std::string> c = s.columns();
  for (size_t i = 0; i < c.size(); ++i)
    if (c[i] == name) return int(i);
  return -1;
}

}  // namespace

MpcRunResult runMpc(const std::vector<std::string>& args) {
  const MpcArgs o = parseMpcArgs(args);
  const PlanSetup setup = loadPlanProblem(o.problem, o.sets);
  MpcController mpc(setup, o.settings);
  const std::vector<std::string> goalKeys = mpc.goalKeys();
  if (!o.goalPath.empty() && goalKeys.empty())
    throw BadInput("--goal-track: the goal of scene '" + setup.scene.scene + "' is not a position the track can move");
  const std::vector<GoalPoint> goals = o.goalPath.empty() ? std::vector<GoalPoint>{} : loadGoalTrack(o.goalPath);
  ParamSet edited = realVehicle(setup, o.mismatch, o.disturb);
  const std::unique_ptr<Scene> scene = SceneRegistry::create(setup.scene.scene, edited);
  if (!o.pushes.empty() && !edited.spec("push"))
    throw BadInput("--push: scene '" + setup.scene.scene + "' has no key 'push'");
  for (const PushEvent& p : o.pushes) ParamSet(edited).setFromString("push", p.value, "--push");  // its range, now
  const double h = scene->dt();
  const long steps = std::lround(o.duration / h);
  const int cx = columnOf(*scene, "x"), cy = columnOf(*scene, "y");
  std::vector<std::string> cols = scene->columns();
  const int cz = goalKeys.size() == 3 ? columnOf(*scene, "z") : -1;  // a goal in space: its height tracked too
  cols.insert(cols.end(), {"mpc_iterations", "mpc_status"});
  if (!goalKeys.empty()) cols.insert(cols.end(), {"goal_x", "goal_y"});
  if (cz >= 0) cols.push_back("goal_z");
  if (!goalKeys.empty()) cols.push_back("tracking_error");
  cols.push_back("solve_us");
  CsvWriter csv;
  if (!o.csvPath.empty()) csv.open(o.csvPath, cols, o.timings ? CsvTimings::Keep : CsvTimings::Drop);
  std::vector<double> row;
  size_t nextGoal = 0;
  int adopted = 0;
  auto write = [&](double status) {
    if (!csv.isOpen()) return;
    scene->diagnostics(row);
    const MpcSolve& s = mpc.lastSolve();
    row.insert(row.end(), {double(s.iterations), status});
    if (!goalKeys.empty()) {
      const double gx = mpc.goal(goalKeys[0]), gy = mpc.goal(goalKeys[1]);
      const double gz = cz >= 0 ? mpc.goal(goalKeys[2]) : 0.0, dz = cz >= 0 ? row[size_t(cz)] - gz : 0.0;
      const double err = cx >= 0 && cy >= 0 ? std::hypot(row[size_t(cx)] - gx, row[size_t(cy)] - gy, dz) : 0.0;
      row.insert(row.end(), {gx, gy});
      if (cz >= 0) row.push_back(gz);
      row.push_back(err);
    }
    row.push_back(1e6 * s.seconds);
    csv.write(row);
  };
  write(-1.0);
  for (long k = 0; k < steps; ++k) {
    for (; nextGoal < goals.size() && goals[nextGoal].t <= k * h + 1e-12; ++nextGoal) {
      mpc.setGoal({{goalKeys[0], goals[nextGoal].x}, {goalKeys[1], goals[nextGoal].y}});
      mpc.setGoalVelocity(trackVelocity(goals, nextGoal));
    }
    for (const PushEvent& p : o.pushes)  // the real vehicle is pushed; the controller only sees where it went
      if (std::lround(p.t / h) == k || std::lround(p.t / h) + 1 == k)  // then back to 0: the next push acts too
        applyInputEvent(*scene, setup.scene.scene, edited,
                        {k, InputEvent::Kind::Param, "push", std::lround(p.t / h) == k ? p.value : "0,0,0", "--push"});
    const InputVector u = mpc.beforeStep(*scene, edited, k);
    const bool replanned = mpc.lastSolve().step == k;
    adopted += replanned && mpc.lastSolve().adopted;
    try {
      scene->step(h, u);
    } catch (const SimulationDiverged& e) {
      throw SimulationDiverged("step " + std::to_string(k + 1) + ": " + e.what());
    }
    write(replanned ? (mpc.lastSolve().adopted ? 1.0 : 0.0) : -1.0);
  }
  if (csv.isOpen()) csv.finish();
  const std::string summary = "mpc " + setup.source + ": " + std::to_string(steps) + " steps of h=" +
                              formatNumber(h) + ", " + std::to_string(mpc.solves()) + " solves (" +
                              std::to_string(adopted) + " adopted, " + std::to_string(mpc.staleSolves()) +
                              " stale: last feasible plan kept; " + std::to_string(mpc.restartsTaken()) +
                              " took the cold restart)";
  return {adopted > 0 || steps == 0 ? 0 : 4, summary};
}

}  // namespace varsim
