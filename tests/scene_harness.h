// tests/scene_harness.h — helpers for scene-level tests: build a registered scene with parameter
// overrides, step it with an input function and collect the diagnostics rows (plain or in a
// Recorder), and run the headless binary to check exit codes. Header-only, test use.
#pragma once
#include <sys/wait.h>

#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/sim/recorder.h"
#include "scenes/scene.h"

namespace varsim::test {

inline std::unique_ptr<Scene> makeScene(const std::string& name,
                                        const std::vector<std::pair<std::string, std::string>>& overrides = {}) {
  ParamSet p = SceneRegistry::defaults(name);
  for (const auto& [key, value] : overrides) p.setFromString(key, value, "test");
  return SceneRegistry::create(name, p);
}

using Rows = std::vector<std::vector<double>>;

// Rows 0..steps (row 0 before the first step); inputs(k) gives the input of step k.
inline Rows runScene(Scene& scene, long steps, const std::function<InputVector(long)>& inputs) {
  Rows rows;
  std::vector<double> row;
  scene.diagnostics(row);
  rows.push_back(row);
  for (long k = 0; k < steps; ++k) {
    scene.step(scene.dt(), inputs(k));
    scene.diagnostics(row);
    rows.push_back(row);
  }
  return rows;
}

// The same run kept in a Recorder, for tests that read columns by name; no inputs = neutral controls.
inline Recorder recordScene(Scene& scene, long steps, const std::function<InputVector(long)>& inputs = {}) {
  Recorder rec(scene.columns());
  const InputVector neutral(scene.controls().size(), 0.0);
  for (const auto& row : runScene(scene, steps, [&](long k) { return inputs ? inputs(k) : neutral; })) rec.add(row);
  return rec;
}

inline double at(const Recorder& r, size_t row, const std::string& column) {
  return r.rows().at(row).at(size_t(r.columnIndex(column)));
}

inline int columnOf(const Scene& scene, const std::string& name) {
  const auto cols = scene.columns();
  for (size_t i = 0; i < cols.size(); ++i)
    if (cols[i] == name) return int(i);
  return -1;
}

// Exit code of `VARSIM_BINARY args` (stderr silenced).
inline int exitCodeOf(const std::string& args) {
  const int status = std::system((std::string(VARSIM_BINARY) + " " + args + " >/dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace varsim::test
