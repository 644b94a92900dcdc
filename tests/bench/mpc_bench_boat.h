// tests/bench/mpc_bench_boat.h — `bench_mpc boat`: the receding-horizon controller on the boat (docs/mpc.md's
// boat_hold and boat_follow runs: horizon 30 = 3 s at h = 0.1 s, a re-plan every 0.2 s) with each KKT solver and
// cold-restart setting, or with the levers given: per re-plan CPU time, iterations, stale re-plans, cold restarts
// adopted, and the distance from the dock (mean, largest, final) and the thrust the boat spends.
#pragma once

#include <cmath>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "mpc_bench_levers.h"
#include "plan/mpc_controller.h"
#include "plan/plan_problem.h"
#include "scenes/scene.h"

namespace mpc_bench {

// One closed loop of docs/mpc.md's boat section: the problem, its plan keys, and what the real boat has that the
// controller's model does not (a scene key set, or a key scaled).
struct BoatCase {
  const char* name;
  const char* file;  // under assets/problems/
  double seconds;
  std::vector<std::string> sets;
  const char* realKey = nullptr;  // the real boat's key: `realValue` as text, or the model's times `realFactor`
  const char* realValue = nullptr;
  double realFactor = 1.0;
};

struct BoatRow {
  int solves = 0, stale = 0, missed = 0, restarts = 0;
  double meanIterations = 0.0, maxIterations = 0.0, p50 = 0.0, p99 = 0.0, maxMs = 0.0, meanError = 0.0,
         maxError = 0.0, finalError = 0.0, meanThrust = 0.0;  // thrust: (u_left + u_right) / 2 over the run (N)
  IpoptProfile profile;  // summed over the re-plans (profile=1)
};

inline BoatRow boatClosedLoop(const BoatCase& c, const MpcSettings& settings, const std::vector<std::string>& sets) {
  std::vector<std::string> all = c.sets;
  all.insert(all.end(), sets.begin(), sets.end());
  const varsim::PlanSetup setup =
      varsim::loadPlanProblem(std::string(VARSIM_SOURCE_DIR) + "/assets/problems/" + c.file, all);
  MpcController mpc(setup, settings);
  varsim::ParamSet edited = setup.scene.params;
  if (c.realValue) edited.setFromString(c.realKey, c.realValue, "bench");
  if (c.realKey && !c.realValue) edited.setReal(c.realKey, c.realFactor * edited.real(c.realKey));
  const auto scene = varsim::SceneRegistry::create(setup.scene.scene, edited);
  const auto col = columnReader(*scene);
  const double h = scene->dt();
  const long steps = std::lround(c.seconds / h);
  std::vector<double> ms, row;
  BoatRow out;
  for (long k = 0; k < steps; ++k) {
    const std::clock_t c0 = std::clock();
    const varsim::InputVector u = mpc.beforeStep(*scene, edited, k);
    const double cpuMs = 1e3 * double(std::clock() - c0) / CLOCKS_PER_SEC;
    if (mpc.lastSolve().step == k) {
      ms.push_back(cpuMs);
      out.meanIterations += mpc.lastSolve().iterations;
      out.maxIterations = std::max(out.maxIterations, double(mpc.lastSolve().iterations));
      out.profile += mpc.lastSolve().profile;
      out.missed += cpuMs > 1e3 * mpc.periodSteps() * h;
    }
    scene->step(h, u);
    scene->diagnostics(row);
    out.finalError = std::hypot(col(row, "x") - mpc.goal("dock_x"), col(row, "y") - mpc.goal("dock_y"));
    out.meanError += out.finalError / double(steps);
    out.maxError = std::max(out.maxError, out.finalError);
    out.meanThrust += 0.5 * (col(row, "u_left") + col(row, "u_right")) / double(steps);
  }
  out.solves = mpc.solves();
  out.restarts = mpc.restartsTaken();
  solveStats(mpc, ms, out);
  return out;
}

// One row's settings: MpcSettings and the plan's Hessian (the problem key `hessian`; empty: the preset's).
struct BoatSetting {
  std::string name, hessian;
  MpcSettings settings;
};

// The rows of `bench_mpc boat` without levers: the segment Hessian and Ipopt's L-BFGS, each KKT solver, the cold
// restart every 1 s with its own budget, every 2 s in the re-plan's budget (the car's), none.
inline std::vector<BoatSetting> boatSettings(const MpcSettings& base) {
  std::vector<BoatSetting> out;
  const auto add = [&](const char* hessian, KktSolver kkt, double restart, bool shared) {
    MpcSettings s = base;
    s.kktSolver = kkt, s.restart = restart, s.restartShared = shared;
    const std::string name = restart == 0.0 ? "warm only"
                             : shared       ? "warm, cold restart every 2 s in the re-plan's budget"
                                            : "warm, cold restart every 1 s with its own budget";
    out.push_back({std::string(hessian == std::string("segment") ? "segment Hessian" : "L-BFGS") + ", " + name,
                   hessian, s});
  };
  add("segment", KktSolver::Mumps, 1.0, false);
  add("segment", KktSolver::Ldl, 1.0, false);
  add("segment", KktSolver::Ldl, 0.0, false);
  add("lbfgs", KktSolver::Mumps, 1.0, false);
  add("lbfgs", KktSolver::Ldl, 1.0, false);
  add("lbfgs", KktSolver::Ldl, 2.0, true);
  add("lbfgs", KktSolver::Ldl, 0.0, false);
  return out;
}

// The period the levers run boat_hold at (theirs, or the boat's default at the step they set).
inline double resolvedPeriod(const Levers& l) {
  const varsim::PlanSetup setup =
      varsim::loadPlanProblem(std::string(VARSIM_SOURCE_DIR) + "/assets/problems/boat_hold.json", l.sets);
  return *MpcController(setup, l.settings).settings().period;
}

// `bench_mpc boat [levers...]`: every case with boatSettings(), or, with levers (Levers; horizon 30 and the boat's
// default period, two steps of its dt, unless given; seconds unused), one row per case with them.
inline void boatTable(int argc, char** argv) {
  Levers l;
  l.settings.horizon = 30;
  if (!l.parse(argc, argv)) return;
  const std::vector<BoatCase> cases = {
      {"boat_hold, the model's wind, 20 s", "boat_hold.json", 20.0, {}},
      {"boat_hold, wind 9, 4.5 m/s (50 % above the model), 10 s", "boat_hold.json", 10.0, {}, "wind", "9,4.5,0"},
      {"boat_hold, mass 20 % above the model, 10 s", "boat_hold.json", 10.0, {}, "mass", nullptr, 1.2},
      {"boat_follow, dock 3 m upwind, 10 s", "boat_follow.json", 10.0, {"dock_x=-2.683", "dock_y=-1.342"}},
      {"boat_follow, dock 8 m upwind, 15 s", "boat_follow.json", 15.0, {"dock_x=-7.155", "dock_y=-3.578"}}};
  const std::vector<BoatSetting> settings =
      argc > 2 ? std::vector<BoatSetting>{{l.label, "", l.settings}} : boatSettings(l.settings);
  std::printf("| boat, horizon %d, period %g s | settings | KKT solver | solves | iterations mean | max | CPU ms p50 | "
              "p99 | max | periods missed | stale | cold restarts adopted | distance from the dock mean / max / final (m)"
              " | thrust per side mean (N) | Ipopt CPU s: total | f, g, J | Hessian | factorisation | back-solves | "
              "symbolic | rest |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
              *l.settings.horizon, resolvedPeriod(l));
  for (const BoatCase& c : cases)
    for (const BoatSetting& s : settings) {
      std::vector<std::string> sets = l.sets;
      if (!s.hessian.empty()) sets.push_back("hessian=" + s.hessian);
      const BoatRow r = boatClosedLoop(c, s.settings, sets);
      // The row the vehicle's defaults and the preset's Hessian give is marked.
      const varsim::PlanSetup setup =
          varsim::loadPlanProblem(std::string(VARSIM_SOURCE_DIR) + "/assets/problems/" + c.file);
      const MpcSettings mine = MpcController(setup, s.settings).settings(), boat = MpcController(setup, l.settings).settings();
      const bool isDefault = *mine.kktSolver == *boat.kktSolver && *mine.restart == *boat.restart &&
                             *mine.restartShared == *boat.restartShared && *mine.maxIterations == *boat.maxIterations &&
                             s.hessian == setup.plan.choice("hessian");
      std::printf("| %s | %s%s | %s | %d | %.2f | %.0f | %.1f | %.1f | %.1f | %d | %d | %d | %.4f / %.4f / %.4f | %.1f | ",
                  c.name, s.name.c_str(), isDefault ? " (the preset's and the boat's defaults)" : "",
                  varsim::kktSolverName(*mine.kktSolver), r.solves, r.meanIterations, r.maxIterations, r.p50, r.p99,
                  r.maxMs, r.missed, r.stale, r.restarts, r.meanError, r.maxError, r.finalError, r.meanThrust);
      printProfile(r.profile, s.settings.profile);
    }
}

}  // namespace mpc_bench
