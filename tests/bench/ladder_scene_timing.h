// bench_ladder --scene: the ladder and chain scenes' whole step as `varsim run` does it (scene step, then
// the diagnostics row, its finite check and the energy monitor's energyScale, every step), split into the
// stepper, the sub-steps/re-linearisations it adds, diagnostics and bookkeeping, beside the stepper alone.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "scenes/rods/rod_scene.h"
#include "scenes/rods/rod_scene_params.h"
#include "scenes/rods/rod_simulation.h"
#include "scenes/scene.h"

namespace varsim::bench {

struct SceneSplit {
  double scene = 0, stepper = 0, diagnostics = 0, alone = 0, solves = 0;  // median µs per step; mean solves
};

inline double usSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

inline double medianOf(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// One scene at its registry defaults with `countKey` = n. Scene and stepper alone are timed in alternation
// (each step of one, then of the other), so load bursts hit both; the stepper alone is the rigid-rod SPOOK
// step with one solve (no sub-step rules) on the scene's own system and relaxation.
inline SceneSplit timeScene(const std::string& name, const std::string& countKey, int n, int warm, int timed) {
  ParamSet params = SceneRegistry::defaults(name);
  params.setFromString(countKey, std::to_string(n), "bench");
  auto scene = SceneRegistry::create(name, params);
  auto& rods = dynamic_cast<RodScene&>(*scene);
  const RodSystem& system = rods.system();
  RodSimulation alone(system, StepperKind::Spook, parseSparseSolverKind(params.choice("solver")), rodLimits(system, params.real("epsilon")),
                      RodModelKind::Rigid);
  applyRelaxation(*alone.spook(), system, params, {});
  const auto columns = scene->columns();
  size_t stepCol = 0;
  for (size_t c = 0; c < columns.size(); ++c)
    if (columns[c] == "step_us") stepCol = c;
  const double h = scene->dt();
  const InputVector inputs(scene->controls().size(), 0.0);
  std::vector<double> row, sceneUs, stepperUs, diagUs, aloneUs;
  double solves = 0, sink = 0;
  for (int k = 0; k < warm + timed; ++k) {
    auto t0 = std::chrono::steady_clock::now();
    scene->step(h, inputs);
    const double stepped = usSince(t0);
    t0 = std::chrono::steady_clock::now();
    scene->diagnostics(row);
    for (double x : row) sink += std::isfinite(x) ? 0.0 : 1.0;  // headless_runner's checkRow
    sink += scene->energyScale();                                // the energy monitor's update
    const double diagnosed = usSince(t0);
    t0 = std::chrono::steady_clock::now();
    alone.step(h);
    const double aloneStep = usSince(t0);
    if (k < warm) continue;
    sceneUs.push_back(stepped);
    stepperUs.push_back(row[stepCol]);
    diagUs.push_back(diagnosed);
    aloneUs.push_back(aloneStep);
    solves += rods.lastSolves();
  }
  if (sink == 0.5) std::printf(" ");  // keeps the diagnostics from being optimised away
  return {medianOf(sceneUs), medianOf(stepperUs), medianOf(diagUs), medianOf(aloneUs), solves / timed};
}

// The table: per scene and N, median µs per step (wall) of the run loop's parts, and (scene + diagnostics) /
// stepper alone. N above the scene's parameter range is listed as skipped. `large`: N = 10 000 too.
inline void sceneTable(bool large) {
  std::printf("scene step as `varsim run` does it (registry defaults, h = 1/60), median wall us per step over 40 steps "
              "after 20 warm-up;\nscene = scene.step(); stepper = its SPOOK step (sub-steps included); bookkeeping = "
              "scene - stepper;\nsub = stepper - stepper alone (one solve per step); diag = diagnostics row + finite "
              "check + energyScale\n");
  std::printf("%-7s %6s %10s %10s %10s %10s %10s %11s %7s %7s\n", "scene", "N", "scene", "stepper", "sub", "bookkeep",
              "diag", "alone", "solves", "ratio");
  std::vector<int> sizes{100, 300, 1000, 3000, 5000};
  if (large) sizes.push_back(10000);
  for (const auto& [name, key] : {std::pair<std::string, std::string>{"ladder", "links"}, {"chain", "rods"}})
    for (int n : sizes) {
      const ParamSpec* spec = SceneRegistry::defaults(name).spec(key);
      if (spec && n > spec->maxValue) {
        std::printf("%-7s %6d   skipped: %s range [%g, %g]\n", name.c_str(), n, key.c_str(), spec->minValue, spec->maxValue);
        continue;
      }
      const SceneSplit s = timeScene(name, key, n, 20, 40);
      std::printf("%-7s %6d %10.0f %10.0f %10.0f %10.0f %10.0f %11.0f %7.2f %7.3f\n", name.c_str(), n, s.scene, s.stepper,
                  s.stepper - s.alone, s.scene - s.stepper, s.diagnostics, s.alone, s.solves,
                  (s.scene + s.diagnostics) / s.alone);
      std::fflush(stdout);
    }
}

}  // namespace varsim::bench
