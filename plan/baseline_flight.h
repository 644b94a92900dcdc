// plan/baseline_flight.h — flying a plan's baseline (a tracker or pilot following the plan's nodes) through the
// vehicle scene's own stepper, the loop PlanInstance::baseline shares across vehicles: read the scene's diagnostics
// at node k, score its distance from the plan, choose the inputs, step; a diverged step ends the flight unflown.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "plan/plan_problem.h"
#include "scenes/scene.h"

namespace varsim {

// A scene's diagnostics row read by column name (the names of Scene::columns()).
class SceneRow {
 public:
  explicit SceneRow(const Scene& scene) : scene_(scene), columns_(scene.columns()) { read(); }
  void read() { scene_.diagnostics(row_); }   // the scene's current state
  double operator()(const char* name) const;  // std::out_of_range for a name the scene does not report

 private:
  const Scene& scene_;
  std::vector<std::string> columns_;
  std::vector<double> row_;
};

// What the baseline's vehicle is at node k against the plan's node k.
struct BaselineNode {
  double deviation = 0.0;  // m, its distance from the plan's position
  double speed = 0.0;      // m/s
};

// For k = 0..N: reads the scene's row, observe(k, row) -> maxDeviation (and at k = N finalError, finalSpeed), then
// for k < N steps the scene by h with drive(k, row)'s inputs. Returns false if a step diverged (out is then partial).
bool flyBaseline(Scene& scene, int N, double h, PlanBaseline& out,
                 const std::function<BaselineNode(int k, const SceneRow& row)>& observe,
                 const std::function<InputVector(int k, const SceneRow& row)>& drive);

}  // namespace varsim
