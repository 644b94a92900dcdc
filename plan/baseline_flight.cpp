// plan/baseline_flight.cpp — the shared baseline flight loop; see the header.
#include "plan/baseline_flight.h"

#include <algorithm>

#include "engine/sim/errors.h"

namespace varsim {

double SceneRow::operator()(const char* name) const {
  return row_.at(size_t(std::find(columns_.begin(), columns_.end(), name) - columns_.begin()));
}

bool flyBaseline(Scene& scene, int N, double h, PlanBaseline& out,
                 const std::function<BaselineNode(int k, const SceneRow& row)>& observe,
                 const std::function<InputVector(int k, const SceneRow& row)>& drive) {
  SceneRow row(scene);
  for (int k = 0; k <= N; ++k) {
    row.read();
    const BaselineNode node = observe(k, row);
    out.maxDeviation = std::max(out.maxDeviation, node.deviation);
    if (k == N) {
      out.finalError = node.deviation;
      out.finalSpeed = node.speed;
      break;
    }
    const InputVector in = drive(k, row);
    try {
      scene.step(h, in);
    } catch (const SimulationDiverged&) {
      return false;
    }
  }
  return true;
}

}  // namespace varsim
