// plan/plan_endpoints.h — what the app's Plan panel needs of a vehicle beyond its plan problem (plan_problem.h):
// where a plan starts in a running scene and the named goals of the scene's world. startFrom writes the running
// scene's current state into the scene's start parameters, so a plan starts where the vehicle is (re-planning)
// and Play, which rebuilds the scene at those parameters and replays the plan, continues from there exactly as
// `varsim run SCENE --set ... --input plan_inputs.csv` would. goals lists bays, pads or docks as plan key values.
// Self-registered per scene (VARSIM_REGISTER_PLAN_ENDPOINTS in plan/<vehicle>_plan_endpoints.cpp); optional.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "engine/sim/param.h"
#include "scenes/scene.h"

namespace varsim {

struct PlanGoal {
  std::string name;                                    // "bay north 3", "pad B", ...
  std::vector<std::pair<std::string, double>> values;  // the plan keys it sets (target_x, target_y, ...)
};

struct PlanEndpointsInfo {
  std::string scene;
  // Sets the start keys of `sceneParams` (validated ranges: BadInput names a state no start key can hold).
  std::function<void(const Scene& running, ParamSet& sceneParams)> startFrom;
  std::function<std::vector<PlanGoal>(const ParamSet& sceneParams)> goals;
};

class PlanEndpointsRegistry {
 public:
  static bool add(PlanEndpointsInfo info);
  static const PlanEndpointsInfo* find(const std::string& scene);  // null if the scene registered none
};

// The value of diagnostics column `name` of the running scene (BadInput naming the scene if it has none).
double sceneColumn(const Scene& running, const std::string& name);

#define VARSIM_REGISTER_PLAN_ENDPOINTS(...)                                                  \
  static const bool VARSIM_PLAN_ENDPOINTS_CONCAT(varsimPlanEndpointsRegistered_, __LINE__) = \
      ::varsim::PlanEndpointsRegistry::add(__VA_ARGS__)
#define VARSIM_PLAN_ENDPOINTS_CONCAT_INNER(a, b) a##b
#define VARSIM_PLAN_ENDPOINTS_CONCAT(a, b) VARSIM_PLAN_ENDPOINTS_CONCAT_INNER(a, b)

}  // namespace varsim
