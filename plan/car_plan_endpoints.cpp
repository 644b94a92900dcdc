// plan/car_plan_endpoints.cpp — the car's Plan-panel hooks (plan/plan_endpoints.h): a plan starts at the car's
// current pose, steering and wheel momentum (start_x, start_y, start_heading, steer, speed), and its goals are
// the free bays of the parking lot, parked nose-in (scenes/vehicles/vehicle_scenery.h; "north 3" is car_park's bay).
#include <algorithm>
#include <cmath>

#include "engine/models/car.h"
#include "plan/plan_endpoints.h"
#include "scenes/vehicles/vehicle_scenery.h"

namespace varsim {
namespace {

constexpr double kTwoPi = 6.283185307179586;

void carStartFrom(const Scene& running, ParamSet& p) {
  const double theta = sceneColumn(running, "theta");
  const double limit = std::tan(p.real("steer_limit"));
  p.setReal("start_x", sceneColumn(running, "x"));
  p.setReal("start_y", sceneColumn(running, "y"));
  p.setReal("start_heading", theta - kTwoPi * std::round(theta / kTwoPi));  // in [-pi, pi]: the key's range
  const double sigma = std::clamp(sceneColumn(running, "sigma"), -limit, limit);
  p.setReal("steer", sigma);
  // The key is the rolling rate carStart turns into p^- (engine/models/car.h): invert that map at the current
  // p^- (column mu), so the rebuilt car carries the running car's momentum.
  const CarParams car{p.real("m"), p.real("I"), p.real("K"), p.real("l"), p.real("rho")};
  p.setReal("speed", sceneColumn(running, "mu") / (car.I0() + car.c() * sigma * sigma));
}

std::vector<PlanGoal> carGoals(const ParamSet& p) {
  std::vector<PlanGoal> goals;
  if (p.choice("world") != "parking_lot") return goals;
  for (const NamedPose& bay : carLotFreeBays(p.real("l"), p.real("rho")))
    goals.push_back(
        {"bay " + bay.name, {{"target_x", bay.pose.x}, {"target_y", bay.pose.y}, {"target_heading", bay.pose.theta}}});
  return goals;
}

}  // namespace

VARSIM_REGISTER_PLAN_ENDPOINTS(PlanEndpointsInfo{"car", carStartFrom, carGoals});

}  // namespace varsim
