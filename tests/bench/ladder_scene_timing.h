// bench_ladder --scene: the ladder and chain scenes' whole step as `varsim run` does it (scene step, then
// the diagnostics row, its finite check and the energy monitor's energyScale, every step) over the whole fall,
// split into the SPOOK solves, the rigid stepper's sub-step/re-linearisation checks around them, the scene's
// bookkeeping and the diagnostics, beside the same stepper alone (same rod model, rules and relaxation).
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

#include "scenes/rods/rod_scene.h"
#include "scenes/rods/rod_scene_params.h"
#include "scenes/rods/rod_simulation.h"
#include "scenes/scene.h"
#include "tests/log_log_slope.h"

namespace varsim::bench {

struct SceneSplit {
  // Median µs per step: scene.step(), its diagnostics, the stepper alone, the stepper alone's SPOOK solves, the
  // scene's own stepper (its step_us); mean solves per step; the alone stepper ended on the scene's state.
  double scene = 0, diagnostics = 0, alone = 0, solvesUs = 0, sceneStepper = 0, solves = 0;
  bool sameTrajectory = false;
};

inline double usSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

// This thread's CPU time (µs): on the shared 2-core hosts wall time carries the other tenants' load.
inline double threadCpuUs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e6 + double(ts.tv_nsec) * 1e-3;
}

inline double medianOf(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// The registry defaults with `countKey` = n; a count above the parameter's range is allowed here (the bench
// measures where the range could go; the scene's own range stays what the sweeps showed sane).
inline ParamSet benchParams(const std::string& name, const std::string& countKey, int n, bool& aboveRange) {
  std::vector<ParamSpec> specs = SceneRegistry::defaults(name).specs();
  aboveRange = false;
  for (ParamSpec& s : specs)
    if (s.key == countKey && n > s.maxValue) s.maxValue = n, aboveRange = true;
  ParamSet params(specs);
  params.setFromString(countKey, std::to_string(n), "bench");
  return params;
}

// One scene with `countKey` = n on one solver thread, `steps` steps from release (the registry's 10 s fall at 600). The scene and the
// stepper alone — a RodSimulation with the scene's rod model, sub-step rules, re-linearisations, relaxation and
// limits, so the same trajectory and solves — are stepped in alternation (each step of one, then of the other),
// so load bursts hit both.
inline SceneSplit timeScene(const std::string& name, const std::string& countKey, int n, int steps, bool& aboveRange) {
  ParamSet params = benchParams(name, countKey, n, aboveRange);
  params.setFromString("threads", "1", "bench");  // one thread's CPU time measures all of it (two: threadTable)
  auto scene = SceneRegistry::create(name, params);
  auto& rods = dynamic_cast<RodScene&>(*scene);
  const RodSystem& system = rods.system();
  RodSimulation alone(system, StepperKind::Spook, parseSparseSolverKind(params.choice("solver")),
                      rodLimits(system, params.real("epsilon")), parseRodModelKind(params.choice("rod_model")),
                      params.real("max_turn"), params.real("max_chord"), int(params.integer("max_relinearise")));
  applyRelaxation(*alone.spook(), system, params, {});
  const auto columns = scene->columns();
  size_t stepCol = 0;
  for (size_t c = 0; c < columns.size(); ++c)
    if (columns[c] == "step_us") stepCol = c;
  const double h = scene->dt();
  const InputVector inputs(scene->controls().size(), 0.0);
  std::vector<double> row, sceneUs, diagUs, aloneUs, solvesUs, stepperUs;
  double solves = 0, sink = 0;
  for (int k = 0; k < steps; ++k) {
    double c0 = threadCpuUs();
    auto w0 = std::chrono::steady_clock::now();
    scene->step(h, inputs);
    const double sceneWall = usSince(w0), sceneCpu = threadCpuUs() - c0;
    sceneUs.push_back(sceneCpu);
    c0 = threadCpuUs();
    scene->diagnostics(row);
    for (double x : row) sink += std::isfinite(x) ? 0.0 : 1.0;  // run_session's checkRow
    sink += scene->energyScale();                                // the energy monitor's update
    diagUs.push_back(threadCpuUs() - c0);
    c0 = threadCpuUs();
    w0 = std::chrono::steady_clock::now();
    alone.step(h);
    const double aloneWall = usSince(w0), aloneCpu = threadCpuUs() - c0;
    aloneUs.push_back(aloneCpu);
    // The solves' and the scene stepper's shares come from wall clocks (SpookProfile, step_us) taken over the same
    // step as a wall reading of the whole: their ratio to it, times the CPU time, is the CPU time of the part.
    solvesUs.push_back(aloneCpu * std::min(1.0, alone.lastSolvesUs() / aloneWall));
    stepperUs.push_back(sceneCpu * std::min(1.0, row[stepCol] / sceneWall));
    solves += rods.lastSolves();
  }
  if (sink == 0.5) std::printf(" ");  // keeps the diagnostics from being optimised away
  const bool same = alone.state.q == rods.state().q && alone.state.v == rods.state().v;
  return {medianOf(sceneUs), medianOf(diagUs), medianOf(aloneUs), medianOf(solvesUs), medianOf(stepperUs), solves / steps, same};
}

inline double loadNow() {
  double load = -1;
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &load) != 1) load = -1;
    std::fclose(f);
  }
  return load;
}

// The table: per scene and N, median thread CPU µs per step of the run loop's parts, (scene + diagnostics) / stepper
// alone, and the log-log slope of the scene's whole step over N. Counts up to maxN; `steps` per run.
inline void sceneTable(int maxN, int steps) {
  std::printf("scene step as `varsim run` does it (registry defaults, h = 1/60, %d steps from release), median thread CPU us per "
              "step; load %.1f at start\nscene = scene.step(); diag = diagnostics row + finite check + energyScale; "
              "alone = the same stepper outside the scene\n(same rod model, sub-step rules, re-linearisations: same "
              "solves); solves = its SPOOK solves; checks = alone - solves (sub-step\nand re-linearisation tests, "
              "rate/twist conversions); bookkeep = scene - its stepper's step_us; ratio = (scene + diag) / alone;\n"
              "per solve = (scene + diag) / solves; '*': count above the scene's parameter range (bench only)\n",
              steps, loadNow());
  std::printf("%-7s %6s %9s %8s %9s %9s %8s %8s %7s %6s %9s %5s\n", "scene", "N", "scene", "diag", "alone", "solves", "checks",
              "bookkeep", "solves", "ratio", "per solve", "same");
  const std::vector<std::pair<std::string, std::string>> scenes{{"ladder", "links"}, {"chain", "rods"}};
  for (const auto& [name, key] : scenes) {
    std::vector<double> Ns, whole;
    const std::vector<int> sizes = name == "ladder" ? std::vector<int>{100, 300, 1000, 3000, 5000, 10000}
                                                    : std::vector<int>{100, 300, 1000, 3000, 10000, 20000};
    for (int n : sizes) {
      if (n > maxN) continue;
      bool above = false;
      const SceneSplit s = timeScene(name, key, n, steps, above);
      std::printf("%-7s %5d%s %9.0f %8.0f %9.0f %9.0f %8.0f %8.0f %7.2f %6.3f %9.3f %5s\n", name.c_str(), n, above ? "*" : " ",
                  s.scene, s.diagnostics, s.alone, s.solvesUs, s.alone - s.solvesUs, s.scene - s.sceneStepper, s.solves,
                  (s.scene + s.diagnostics) / s.alone, (s.scene + s.diagnostics) / s.solvesUs, s.sameTrajectory ? "yes" : "NO");
      std::fflush(stdout);
      Ns.push_back(n);
      whole.push_back(s.scene + s.diagnostics);
    }
    if (Ns.size() > 1)
      std::printf("%-7s log-log slope of (scene + diag) per step over N = %g..%g: %.3f; load %.1f\n", name.c_str(), Ns.front(),
                  Ns.back(), test::logLogSlope(Ns, whole), loadNow());
  }
}

// The thread crossover: per scene and N, the scene at threads = 1 and at threads = 2 stepped in alternation
// (`steps` steps from release each), median wall µs per step and the speed-up 1T / 2T, and whether the two ended
// in the same state bit for bit. The scene's automatic choice (threads = 0) is printed beside.
inline void threadTable(int maxN, int steps) {
  std::printf("scene step at threads = 1 and 2 (registry defaults, %d steps from release, alternated), median wall us per "
              "step; load %.1f at start\n%-7s %6s %7s %9s %9s %9s %6s %5s\n",
              steps, loadNow(), "scene", "N", "bodies", "1 thread", "2 threads", "speed-up", "auto", "same");
  const std::vector<std::pair<std::string, std::string>> scenes{{"ladder", "links"}, {"chain", "rods"}};
  for (const auto& [name, key] : scenes) {
    const std::vector<int> sizes = name == "ladder" ? std::vector<int>{100, 300, 600, 1000, 3000, 5000, 8000, 10000}
                                                    : std::vector<int>{300, 1000, 3000, 5000, 10000, 20000};
    for (int n : sizes) {
      if (n > maxN) continue;
      bool above = false;
      ParamSet one = benchParams(name, key, n, above), two = one;
      one.setFromString("threads", "1", "bench");
      two.setFromString("threads", "2", "bench");
      auto a = SceneRegistry::create(name, one), b = SceneRegistry::create(name, two);
      const InputVector inputs(a->controls().size(), 0.0);
      std::vector<double> wallOne, wallTwo;
      for (int k = 0; k < steps; ++k) {
        auto w0 = std::chrono::steady_clock::now();
        a->step(a->dt(), inputs);
        wallOne.push_back(usSince(w0));
        w0 = std::chrono::steady_clock::now();
        b->step(b->dt(), inputs);
        wallTwo.push_back(usSince(w0));
      }
      const size_t bodies = dynamic_cast<RodScene&>(*a).system().bodies().size();
      const double t1 = medianOf(wallOne), t2 = medianOf(wallTwo);
      std::printf("%-7s %5d%s %7zu %9.0f %9.0f %9.2f %6d %5s\n", name.c_str(), n, above ? "*" : " ", bodies, t1, t2, t1 / t2,
                  solverThreads(0, bodies), a->saveState() == b->saveState() ? "yes" : "NO");
      std::fflush(stdout);
    }
  }
}

}  // namespace varsim::bench
