// tests/bench/bench_mpc.cpp — the receding-horizon controller (plan/mpc_controller.h) on the car
// (assets/problems/car_goto.json, horizon 60 segments = 3 s at h = 0.05, a re-plan every 0.1 s, at most 30 Ipopt
// iterations): per re-plan CPU time (p50, p99, max), Ipopt iterations warm (with and without the 1 s cold restart)
// against cold, periods whose solve took longer than the period itself (a live controller would miss them), stale
// solves, and tracking error, for a fixed goal (8 s) and a goal circling at 0.4 m/s (60 s), the PD path tracker aimed
// at the goal beside them. Then the helicopter on
// heli_follow (horizon 30 = 3 s at h = 0.1, goal moved through the canyon at 5 m/s), calm and under 3 m/s seeded
// gusts: the MPC with the helicopter's defaults (at most 12 iterations, budgeted solves rolled out), the MPC with
// horizons ending at rest, and the flight assist with the path pilot
// on the goal: solve times, tracking error, wall clearance, steps within the margin, actuator use, and where Ipopt's
// CPU time went (its timing statistics); every MPC row with each KKT solver (MUMPS, the LDL^T bridge) in the same
// run (`kkt=ldl|mumps` after the mode: that solver only). `bench_mpc heli`: that table only; `bench_mpc car`: the car's
// only; `bench_mpc levers ...` / `bench_mpc carfollow ...`: one MPC row of heli_follow / car_follow (the parking lot,
// 60 s) with other settings or Ipopt options (Levers); `bench_mpc checks ...`: the push and climb checks of docs/mpc.md
// with those settings; `bench_mpc boat [levers]`: the boat's closed loops of docs/mpc.md (tests/bench/mpc_bench_boat.h).
// Prints Markdown tables (a benchmark: no assertions on time).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include <fstream>
#include <sstream>

#include "engine/control/car_path_tracker.h"
#include "engine/control/heli_dmoc.h"
#include "engine/control/heli_path_pilot.h"
#include "mpc_bench_boat.h"
#include "mpc_bench_levers.h"
#include "plan/mpc_controller.h"
#include "plan/plan_problem.h"
#include "scenes/live_edit.h"
#include "scenes/scene.h"
#include "scenes/vehicles/helicopter_setup.h"

using namespace varsim;
using namespace mpc_bench;

namespace {

struct Row {
  int solves = 0, stale = 0, missed = 0;
  double meanIterations = 0.0, maxIterations = 0.0, p50 = 0.0, p99 = 0.0, maxMs = 0.0, meanError = 0.0,
         finalError = 0.0;
};

// goalHeading: the circling goal's target_heading is the heading of its motion (what the PD tracker is given) instead
// of car_goto's fixed 0.
Row closedLoop(bool warm, double restart, bool shared, double seconds, bool circling, KktSolver kkt,
               bool goalHeading = false) {
  const PlanSetup setup = loadPlanProblem(std::string(VARSIM_SOURCE_DIR) + "/assets/problems/car_goto.json");
  MpcSettings settings;
  settings.kktSolver = kkt;
  settings.warmStart = warm;
  settings.restart = restart;
  settings.restartShared = shared;
  MpcController mpc(setup, settings);
  ParamSet edited = setup.scene.params;
  const auto scene = SceneRegistry::create(setup.scene.scene, edited);
  const double h = scene->dt();
  const long steps = std::lround(seconds / h);
  std::vector<double> ms;
  std::vector<double> row;
  Row out;
  for (long k = 0; k < steps; ++k) {
    if (circling && k % mpc.periodSteps() == 0) {  // 0.1 rad/s on a 4 m circle through the start
      const double a = 0.1 * double(k) * h;
      mpc.setGoal({{"target_x", 4.0 * std::sin(a) + 2.0}, {"target_y", 4.0 - 4.0 * std::cos(a)}});
      if (goalHeading) mpc.setGoal({{"target_heading", a}});
    }
    const std::clock_t c0 = std::clock();
    const InputVector u = mpc.beforeStep(*scene, edited, k);
    const double cpuMs = 1e3 * double(std::clock() - c0) / CLOCKS_PER_SEC;
    if (mpc.lastSolve().step == k) {
      ms.push_back(cpuMs);
      out.meanIterations += mpc.lastSolve().iterations;
      out.maxIterations = std::max(out.maxIterations, double(mpc.lastSolve().iterations));
      out.missed += cpuMs > 1e3 * mpc.periodSteps() * h;
    }
    scene->step(h, u);
    scene->diagnostics(row);
    out.finalError = std::hypot(row[1] - mpc.goal("target_x"), row[2] - mpc.goal("target_y"));  // columns t, x, y
    out.meanError += out.finalError / double(steps);
  }
  out.solves = mpc.solves();
  solveStats(mpc, ms, out);
  return out;
}

// car_goto with a fixed goal (8 s) and a circling one (60 s): warm with a cold restart (every 2 s, the car's default,
// or every 1 s within the re-plan's iteration budget; every 1 s with its own), warm only, cold.
void carTable(const std::vector<KktSolver>& kkts) {
  std::printf(
      "| goal | start | KKT solver | solves | iterations mean | max | CPU ms p50 | p99 | max | periods missed | stale | "
      "mean tracking error (m) | final (m) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const bool circling : {false, true})
    for (const auto& [name, warm, restart, shared] :
         {std::tuple<const char*, bool, double, bool>{"warm, cold restart every 2 s in the re-plan's budget", true, 2.0,
                                                      true},
          {"warm, cold restart every 1 s in the re-plan's budget", true, 1.0, true},
          {"warm, cold restart every 1 s with its own budget", true, 1.0, false},
          {"warm only", true, 0.0, false},
          {"cold", false, 0.0, false}})
      for (const KktSolver kkt : kkts) {
        const Row r = closedLoop(warm, restart, shared, circling ? 60.0 : 8.0, circling, kkt);
        std::printf("| %s | %s | %s | %d | %.2f | %.0f | %.2f | %.2f | %.2f | %d | %d | %.3f | %.3f |\n",
                    circling ? "circling 0.4 m/s, 60 s" : "fixed (6, 2), 8 s", name, kktSolverName(kkt), r.solves,
                    r.meanIterations, r.maxIterations, r.p50, r.p99, r.maxMs, r.missed, r.stale, r.meanError,
                    r.finalError);
      }
  for (const KktSolver kkt : kkts) {  // the circling goal with its heading of motion as the target heading
    const Row r = closedLoop(true, 2.0, true, 60.0, true, kkt, true);
    std::printf("| circling 0.4 m/s, 60 s, target heading = the goal's heading | warm, cold restart every 2 s in the "
                "re-plan's budget | %s | %d | %.2f | %.0f | %.2f | %.2f | %.2f | %d | %d | %.3f | %.3f |\n",
                kktSolverName(kkt), r.solves, r.meanIterations, r.maxIterations, r.p50, r.p99, r.maxMs, r.missed,
                r.stale, r.meanError, r.finalError);
  }
}

// heli_follow's goal track (t, x, y lines; the goal height is the preset's target_z).
struct GoalTrack {
  std::vector<double> t, x, y;
  // The goal the MPC is given at time `at` (the latest line, as varsim mpc moves it), and the track's velocity there.
  Eigen::Vector2d at(double time, Eigen::Vector2d* velocity = nullptr) const {
    size_t i = 0;
    while (i + 1 < t.size() && t[i + 1] <= time + 1e-12) ++i;
    if (velocity) {
      const size_t j = std::min(i + 1, t.size() - 1);
      *velocity = j > i ? Eigen::Vector2d(Eigen::Vector2d(x[j] - x[i], y[j] - y[i]) / (t[j] - t[i])) : Eigen::Vector2d::Zero();
    }
    return {x[i], y[i]};
  }
};

GoalTrack loadTrack(const std::string& path) {
  std::ifstream in(path);
  GoalTrack g;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line[0] == 't') continue;
    std::stringstream ss(line);
    double v[3];
    char comma;
    ss >> v[0] >> comma >> v[1] >> comma >> v[2];
    g.t.push_back(v[0]), g.x.push_back(v[1]), g.y.push_back(v[2]);
  }
  return g;
}

struct HeliRow {
  int solves = 0, stale = 0, missed = 0, failures = 0;  // failures: steps closer to a wall than the plan's margin
  double meanIterations = 0.0, p50 = 0.0, p99 = 0.0, maxMs = 0.0, meanError = 0.0, maxError = 0.0,
         minWall = 1e300, rmsTilt = 0.0, rmsCollective = 0.0;
  double maxDynamics = 0.0;  // largest dynamics residual of an adopted plan (an unfinished solve's)
  int rolledOut = 0;         // adopted roll-outs of unfinished solves (MpcSettings::rollout)
  IpoptProfile profile;  // summed over the re-plans
};

// heli_follow for `seconds`: the MPC (horizon 30 = 3 s at h = 0.1, budget `iterations`) or the flight assist with
// the path pilot (engine/control/heli_path_pilot.h) following the goal itself (its position 0.2 s ahead, velocity,
// heading along it). Wall clearance: every bounding sphere of the plan's (defaultSpheres) to every canyon rock.
HeliRow heliFollow(bool mpcOn, const MpcSettings& settings, double seconds, const std::vector<std::string>& sets,
                   double gusts) {
  const std::string dir = std::string(VARSIM_SOURCE_DIR) + "/assets/problems/";
  const PlanSetup setup = loadPlanProblem(dir + "heli_follow.json", sets);
  const GoalTrack track = loadTrack(dir + "heli_follow_goals.csv");
  MpcController mpc(setup, settings);
  ParamSet edited = setup.scene.params;  // the real helicopter: the gusts are unknown to the controller's model
  edited.setReal("gust_strength", gusts);
  if (!mpcOn) edited.setFromString("assist", "true", "bench");
  const auto scene = SceneRegistry::create(setup.scene.scene, edited);
  const HelicopterSettings hs = helicopterSettingsFrom(edited);
  const std::vector<BoundingSphere> spheres = defaultSpheres(Helicopter(hs));
  const HelicopterWorld world = HelicopterWorld::standard();
  const auto col = columnReader(*scene);
  const double h = scene->dt(), z = setup.plan.real("target_z");
  const long steps = std::lround(seconds / h);
  std::vector<double> ms, row;
  HeliRow out;
  InputVector sticks(scene->controls().size(), 0.0);
  for (long k = 0; k < steps; ++k) {
    Eigen::Vector2d gv;
    const Eigen::Vector2d goal = track.at(k * h, &gv);
    scene->diagnostics(row);
    const Vector3d x(col(row, "x"), col(row, "y"), col(row, "z"));
    const Eigen::Quaterniond q(col(row, "qw"), col(row, "qx"), col(row, "qy"), col(row, "qz"));
    double wall = 1e300;
    for (const BoundingSphere& s : spheres)
      for (const RockBox& b : world.rocks()) {
        Vector3d n;
        wall = std::min(wall, rockDistance(b, q * s.center + x, n) - s.radius);
      }
    out.minWall = std::min(out.minWall, wall);
    out.failures += wall < setup.plan.real("margin");
    const double e = (x - Vector3d(goal.x(), goal.y(), z)).norm();
    out.meanError += e / double(steps), out.maxError = std::max(out.maxError, e);
    out.rmsTilt += (std::pow(col(row, "gamma_p"), 2) + std::pow(col(row, "gamma_r"), 2)) / double(steps);
    out.rmsCollective += std::pow(col(row, "u_c") / (hs.mass * hs.gravity) - 1.0, 2) / double(steps);
    InputVector u;
    if (mpcOn) {
      mpc.setGoal({{"target_x", goal.x()}, {"target_y", goal.y()}});
      mpc.setGoalVelocity({gv.x(), gv.y()});  // as varsim mpc does from the goal track
      const std::clock_t c0 = std::clock();
      u = mpc.beforeStep(*scene, edited, k);
      const double cpuMs = 1e3 * double(std::clock() - c0) / CLOCKS_PER_SEC;
      if (mpc.lastSolve().step == k)
        ms.push_back(cpuMs), out.meanIterations += mpc.lastSolve().iterations, out.profile += mpc.lastSolve().profile;
      if (mpc.lastSolve().step == k && mpc.lastSolve().adopted)
        out.maxDynamics = std::max(out.maxDynamics, mpc.lastSolve().dynamics), out.rolledOut += mpc.lastSolve().rolledOut;
      out.missed += cpuMs > 1e3 * mpc.periodSteps() * h;
    } else {
      PathReference ref;
      const PathPilotGains gains;
      ref.x << track.at(k * h + gains.lead), z;
      ref.v << gv, 0.0;
      ref.heading = gv.norm() > 0.0 ? std::atan2(gv.y(), gv.x()) : 0.0;
      const Vector3d v = Vector3d(col(row, "p_x"), col(row, "p_y"), col(row, "p_z")) / hs.mass;
      const StickCommand st = pathPilotSticks(FlightAssistSettings{}, hs.gravity, gains, ref, x, v,
                                              FlightAssist::heading(q.toRotationMatrix()));
      const auto controls = scene->controls();
      for (size_t i = 0; i < controls.size(); ++i) {
        const std::string& c = controls[i].name;
        sticks[i] = c == "yaw" ? st.yaw : c == "throttle" ? st.throttle : c == "roll" ? st.roll : st.pitch;
      }
      u = sticks;
    }
    scene->step(h, u);
  }
  out.rmsTilt = std::sqrt(out.rmsTilt), out.rmsCollective = std::sqrt(out.rmsCollective);
  out.solves = mpc.solves() * mpcOn;
  solveStats(mpc, ms, out);
  return out;
}

// Side by side on heli_follow (66 s through the canyon, calm and under seeded gusts the MPC's model does not know):
// the MPC as the preset has it (horizons ending in motion, tracking the goal's path), the MPC with every horizon
// ending at rest in hover (the plan problem's default end, no tracking), and the flight assist with the path pilot.
void heliTable(const std::vector<KktSolver>& kkts) {
  std::printf(
      "\n| heli_follow, 66 s | KKT solver | gusts (m/s) | solves | iterations mean | CPU ms p50 | p99 | max | periods "
      "missed | stale | tracking error mean / max (m) | ratio to the pilot's mean | min wall clearance (m) | steps within "
      "the 1 m margin | rms tilt (rad) | rms collective / mg - 1 | Ipopt CPU s: total / factorisation / back-solves / "
      "evaluations |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  const std::vector<std::string> preset, atRest = {"end_at_rest=true", "weight_track=0"};
  for (const double gusts : {0.0, 3.0}) {
    double pilot = 0.0;
    for (const auto& [name, mpcOn, sets, kkt] :
         {std::tuple<const char*, bool, std::vector<std::string>, KktSolver>{
              "flight assist + path pilot on the goal", false, preset, KktSolver::Mumps},
          {"MPC (preset: ends in motion, tracks)", true, preset, KktSolver::Mumps},
          {"MPC (preset: ends in motion, tracks)", true, preset, KktSolver::Ldl},
          {"MPC, horizons ending at rest", true, atRest, KktSolver::Mumps},
          {"MPC, horizons ending at rest", true, atRest, KktSolver::Ldl}}) {
      if (mpcOn && std::find(kkts.begin(), kkts.end(), kkt) == kkts.end()) continue;
      MpcSettings settings;
      settings.horizon = 30;
      settings.kktSolver = kkt;
      settings.profile = true;  // the Ipopt CPU columns (Ipopt's task timers run: a re-plan costs a little more)
      const HeliRow r = heliFollow(mpcOn, settings, 66.0, sets, gusts);
      if (!mpcOn) pilot = r.meanError;
      const IpoptProfile& p = r.profile;
      std::printf("| %s | %s | %.0f | %d | %.2f | %.1f | %.1f | %.1f | %d | %d | %.2f / %.2f | %.2f | %.2f | %d | %.3f | "
                  "%.3f | %.1f / %.1f / %.1f / %.1f |\n",
                  name, mpcOn ? kktSolverName(kkt) : "-", gusts, r.solves, r.meanIterations, r.p50, r.p99, r.maxMs,
                  r.missed, r.stale, r.meanError, r.maxError, r.meanError / pilot, r.minWall, r.failures, r.rmsTilt,
                  r.rmsCollective, p.total, p.factorization, p.backsolve, p.functions + p.jacobian + p.hessian);
    }
  }
}

// `bench_mpc levers ...` (Levers): one MPC row of heli_follow (horizon 30 unless horizon=), Ipopt's CPU split summed
// over the re-plans, and the mean tracking error against the path pilot's in the same conditions.
void heliLevers(int argc, char** argv) {
  Levers l;
  l.settings.horizon = 30;
  l.settings.profile = true;
  if (!l.parse(argc, argv)) return;
  const HeliRow r = heliFollow(true, l.settings, l.seconds, l.sets, l.gusts);
  const HeliRow pilot = heliFollow(false, l.settings, l.seconds, l.sets, l.gusts);
  std::printf("| settings | solves | iterations mean | CPU ms p50 | p99 | max | periods missed | stale | tracking error "
              "mean (m) | pilot's (m) | ratio | min wall clearance (m) | failures | largest adopted dynamics residual | "
              "adopted roll-outs | Ipopt CPU s: total | f, g, J | Hessian | factorisation | back-solves | symbolic | "
              "rest |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::printf("| %s | %d | %.2f | %.1f | %.1f | %.1f | %d | %d | %.2f | %.2f | %.2f | %.2f | %d | %.1e | %d | ",
              l.label.c_str(), r.solves, r.meanIterations, r.p50, r.p99, r.maxMs, r.missed, r.stale, r.meanError,
              pilot.meanError, r.meanError / pilot.meanError, r.minWall, r.failures, r.maxDynamics, r.rolledOut);
  printProfile(r.profile, l.settings.profile);
}

// `bench_mpc checks ...` (Levers; gusts unused): the two checks of docs/mpc.md on heli_follow with the levers'
// settings, as `varsim mpc` runs them: hovering at the goal (112, 0, 8) a 3000 N s sideways push at 0.5 s (3 s), and
// the climb from the ground at the canyon mouth to the point goal (4 s): re-plans adopted (of them roll-outs), the
// largest and the final distance from the goal, the final height, the skids' least clearance after 1 s.
void heliChecks(int argc, char** argv) {
  Levers l;
  l.settings.horizon = 30;
  if (!l.parse(argc, argv)) return;
  std::printf("| check | settings | re-plans | adopted | of them roll-outs | largest / final distance from the goal (m) "
              "| final z (m) | skid clearance after 1 s (m) |\n|---|---|---|---|---|---|---|---|\n");
  for (const bool push : {true, false}) {
    std::vector<std::string> sets = l.sets;
    if (push) sets.push_back("start_position=112,0,8");
    const PlanSetup setup = loadPlanProblem(std::string(VARSIM_SOURCE_DIR) + "/assets/problems/heli_follow.json", sets);
    MpcController mpc(setup, l.settings);
    ParamSet edited = setup.scene.params;
    const auto scene = SceneRegistry::create(setup.scene.scene, edited);
    const auto col = columnReader(*scene);
    const double h = scene->dt();
    const long steps = std::lround((push ? 3.0 : 4.0) / h), pushStep = std::lround(0.5 / h);
    int adopted = 0, rolled = 0;
    double worst = 0.0, last = 0.0, z = 0.0, skids = 1e300;
    std::vector<double> row;
    for (long k = 0; k < steps; ++k) {
      if (push && (k == pushStep || k == pushStep + 1))  // the impulse, then back to 0 (mpc_run.cpp's --push)
        applyInputEvent(*scene, setup.scene.scene, edited,
                        {k, InputEvent::Kind::Param, "push", k == pushStep ? "0,3000,0" : "0,0,0", "bench"});
      const InputVector u = mpc.beforeStep(*scene, edited, k);
      if (mpc.lastSolve().step == k) adopted += mpc.lastSolve().adopted, rolled += mpc.lastSolve().rolledOut;
      scene->step(h, u);
      scene->diagnostics(row);
      last = (Vector3d(col(row, "x"), col(row, "y"), col(row, "z")) - Vector3d(112.0, 0.0, 8.0)).norm();
      worst = std::max(worst, last), z = col(row, "z");
      if ((k + 1) * h >= 1.0 - 1e-9) skids = std::min(skids, col(row, "clearance"));
    }
    std::printf("| %s | %s | %d | %d | %d | %.2f / %.2f | %.2f | %.3f |\n",
                push ? "3000 N s push hovering at the goal, 3 s" : "climb from the ground, 4 s", l.label.c_str(),
                mpc.solves(), adopted, rolled, worst, last, z, skids);
  }
}

// The car's baseline through the MPC's scene for `seconds`: the PD path tracker (engine/control/car_path_tracker.h)
// steering at the goal itself (its position, heading along its motion or toward it while it stands, its speed along
// that heading: 1 m/s on car_follow), commanded through the scene's live torque/steer_rate keys as the MPC's plans are.
struct CarFollowRow {
  double meanError = 0.0, finalError = 0.0, minClearance = 1e300, effort = 0.0;  // effort: h sum u^T W u (plan's W)
  int impacts = 0;
};

// h (weight_steer u_sigma^2 + weight_torque f^2) of the step just taken (the scene's steer_rate and torque columns).
double carStepEffort(const PlanSetup& setup, double h, double steerRate, double torque) {
  return h * (setup.plan.real("weight_steer") * steerRate * steerRate + setup.plan.real("weight_torque") * torque * torque);
}

// The goal at time t and its velocity (GoalTrack::at's signature).
using CarGoalAt = std::function<Eigen::Vector2d(double, Eigen::Vector2d*)>;

CarFollowRow carFollowTracker(const PlanSetup& setup, const CarGoalAt& goalAt, double seconds) {
  ParamSet edited = setup.scene.params;
  const auto scene = SceneRegistry::create(setup.scene.scene, edited);
  const auto col = columnReader(*scene);
  const ParamSet& p = edited;
  const CarParams car{p.real("m"), p.real("I"), p.real("K"), p.real("l"), p.real("rho")};
  const CarTrackerLimits limits{std::tan(p.real("steer_limit")) - 1e-7, p.real("max_steer_rate"), p.real("max_torque")};
  const double h = scene->dt();
  const long steps = std::lround(seconds / h);
  const InputVector neutral = neutralInputs(scene->controls());
  applyInputEvent(*scene, setup.scene.scene, edited, {0, InputEvent::Kind::Param, "return_to_centre", "false", "bench"});
  std::vector<double> row;
  CarFollowRow out;
  for (long k = 0; k < steps; ++k) {
    Eigen::Vector2d gv;
    const Eigen::Vector2d goal = goalAt(k * h, &gv);
    scene->diagnostics(row);
    CarState s, r;
    s.g = {col(row, "theta"), col(row, "x"), col(row, "y")};
    s.sigma = col(row, "sigma"), s.pMinus = col(row, "mu");
    const Eigen::Vector2d toGoal = goal - Eigen::Vector2d(s.g.x, s.g.y);
    const bool moving = gv.norm() > 1e-9;
    const Eigen::Vector2d dir = moving ? gv : toGoal;
    r.g = {dir.norm() > 1e-9 ? std::atan2(dir.y(), dir.x()) : s.g.theta, goal.x(), goal.y()};
    r.pMinus = moving ? car.I0() * gv.norm() / car.rho : 0.0;  // p^- of rolling at the goal's speed, straight
    const CarTrackerCommand u = carTrackerCommand(s, r, h, limits);
    applyInputEvent(*scene, setup.scene.scene, edited, {k, InputEvent::Kind::Param, "torque", formatNumber(u.torque), "bench"});
    applyInputEvent(*scene, setup.scene.scene, edited,
                    {k, InputEvent::Kind::Param, "steer_rate", formatNumber(u.steerRate), "bench"});
    scene->step(h, neutral);
    scene->diagnostics(row);
    out.finalError = std::hypot(col(row, "x") - goal.x(), col(row, "y") - goal.y());
    out.meanError += out.finalError / double(steps);
    out.minClearance = std::min(out.minClearance, col(row, "clearance"));
    out.impacts = int(col(row, "impacts"));
    out.effort += carStepEffort(setup, h, col(row, "steer_rate"), col(row, "torque"));
  }
  return out;
}

// The car table's two goals (car_goto on open ground) for the PD path tracker at the goal, as carFollowTracker
// steers it: tracking error mean and final (the MPC rows' columns), and its effort.
void carTrackerRows() {
  const PlanSetup setup = loadPlanProblem(std::string(VARSIM_SOURCE_DIR) + "/assets/problems/car_goto.json");
  const Eigen::Vector2d fixed(setup.plan.real("target_x"), setup.plan.real("target_y"));
  std::printf("\n| goal | PD path tracker at the goal | mean tracking error (m) | final (m) | impacts | effort h sum u^T W u |\n"
              "|---|---|---|---|---|---|\n");
  for (const bool circling : {false, true}) {
    const CarFollowRow r = carFollowTracker(
        setup,
        [&](double t, Eigen::Vector2d* v) -> Eigen::Vector2d {
          if (!circling) return *v = Eigen::Vector2d::Zero(), fixed;
          const double a = 0.1 * t;  // closedLoop's circle: 0.1 rad/s on a 4 m circle through the start
          *v = 0.4 * Eigen::Vector2d(std::cos(a), std::sin(a));
          return {4.0 * std::sin(a) + 2.0, 4.0 - 4.0 * std::cos(a)};
        },
        circling ? 60.0 : 8.0);
    std::printf("| %s | its heading (toward it while it stands), its speed | %.3f | %.3f | %d | %.3f |\n",
                circling ? "circling 0.4 m/s, 60 s" : "fixed (6, 2), 8 s", r.meanError, r.finalError, r.impacts,
                r.effort);
  }
}

// `bench_mpc carfollow ...` (Levers; gusts unused): car_follow through the parking lot for `seconds` (60: the whole
// goal track of car_follow_goals.csv, its latest line the goal as varsim mpc moves it): per re-plan CPU, periods
// missed, stale re-plans, tracking error, the scene's impacts and least clearance, Ipopt's CPU split with
// profile=1; then the same measures and the control effort beside the PD path tracker's (carFollowTracker).
void carFollow(int argc, char** argv) {
  Levers l;
  l.seconds = 60.0;
  if (!l.parse(argc, argv)) return;
  const std::string dir = std::string(VARSIM_SOURCE_DIR) + "/assets/problems/";
  const PlanSetup setup = loadPlanProblem(dir + "car_follow.json", l.sets);
  const GoalTrack track = loadTrack(dir + "car_follow_goals.csv");
  MpcController mpc(setup, l.settings);
  ParamSet edited = setup.scene.params;
  const auto scene = SceneRegistry::create(setup.scene.scene, edited);
  const auto col = columnReader(*scene);
  const double h = scene->dt();
  const long steps = std::lround(l.seconds / h);
  std::vector<double> ms, row;
  HeliRow out;  // failures: the scene's impacts at the end
  double finalError = 0.0, effort = 0.0;  // effort: h sum u^T W u, as carFollowTracker's
  for (long k = 0; k < steps; ++k) {
    const Eigen::Vector2d goal = track.at(k * h);
    mpc.setGoal({{"target_x", goal.x()}, {"target_y", goal.y()}});
    const std::clock_t c0 = std::clock();
    const InputVector u = mpc.beforeStep(*scene, edited, k);
    const double cpuMs = 1e3 * double(std::clock() - c0) / CLOCKS_PER_SEC;
    if (mpc.lastSolve().step == k)
      ms.push_back(cpuMs), out.meanIterations += mpc.lastSolve().iterations, out.profile += mpc.lastSolve().profile;
    out.missed += cpuMs > 1e3 * mpc.periodSteps() * h;
    scene->step(h, u);
    scene->diagnostics(row);
    finalError = std::hypot(col(row, "x") - goal.x(), col(row, "y") - goal.y());
    out.meanError += finalError / double(steps);
    out.minWall = std::min(out.minWall, col(row, "clearance"));
    out.failures = int(col(row, "impacts"));
    effort += carStepEffort(setup, h, col(row, "steer_rate"), col(row, "torque"));
  }
  out.solves = mpc.solves();
  solveStats(mpc, ms, out);
  std::printf("| car_follow, %g s | solves | iterations mean | CPU ms p50 | p99 | max | periods missed | stale | "
              "tracking error mean / final (m) | impacts | least clearance (m) | Ipopt CPU s: total | f, g, J | "
              "Hessian | factorisation | back-solves | symbolic | rest |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n", l.seconds);
  std::printf("| %s | %d | %.2f | %.1f | %.1f | %.1f | %d | %d | %.3f / %.3f | %d | %.3f | ", l.label.c_str(),
              out.solves, out.meanIterations, out.p50, out.p99, out.maxMs, out.missed, out.stale, out.meanError,
              finalError, out.failures, out.minWall);
  printProfile(out.profile, l.settings.profile);
  const CarFollowRow pd =
      carFollowTracker(setup, [&](double t, Eigen::Vector2d* v) { return track.at(t, v); }, l.seconds);
  std::printf("\n| car_follow, %g s, same scene | tracking error mean / final (m) | impacts | least clearance (m) | "
              "effort h sum u^T W u |\n|---|---|---|---|---|\n| MPC, %s | %.3f / %.3f | %d | %.3f | %.3f |\n",
              l.seconds, l.label.c_str(), out.meanError, finalError, out.failures, out.minWall, effort);
  std::printf("| PD path tracker at the goal (its heading, 1 m/s) | %.3f / %.3f | %d | %.3f | %.3f |\n", pd.meanError,
              pd.finalError, pd.impacts, pd.minClearance, pd.effort);
}

}  // namespace

// `bench_mpc [car|heli] [kkt=ldl|mumps]`: the tables with both KKT solvers, or with the one named.
int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // rows appear as they are measured
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "levers") return heliLevers(argc, argv), 0;
  if (mode == "carfollow") return carFollow(argc, argv), 0;
  if (mode == "checks") return heliChecks(argc, argv), 0;
  if (mode == "boat") return boatTable(argc, argv), 0;
  std::vector<KktSolver> kkts = {KktSolver::Mumps, KktSolver::Ldl};
  const std::string kktArg = argc > 2 ? argv[2] : argc > 1 && mode.rfind("kkt=", 0) == 0 ? mode : "";
  if (kktArg.rfind("kkt=", 0) == 0 && !parseKktSolver(kktArg.substr(4), kkts.front()))
    return std::printf("%s: kkt=ldl or kkt=mumps\n", kktArg.c_str()), 2;
  if (!kktArg.empty()) kkts.resize(1);
  if (mode != "heli") carTable(kkts), carTrackerRows();
  if (mode != "car") heliTable(kkts);
  return 0;
}
