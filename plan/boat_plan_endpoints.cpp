// plan/boat_plan_endpoints.cpp — the boat's Plan-panel hooks (plan/plan_endpoints.h): a plan starts at the running
// boat's position, height above its floating height, attitude and velocity (start_position, start_heave,
// start_attitude, start_velocity); the held thrusts are live keys the panel already carries. The scene has no body-rate
// start key: the boat is rebuilt with omega = 0 (exact at rest, the state a docking starts from in calm water), and
// the plan and Play restart the clock (t = 0): in waves the sea is then the one of t = 0 around the same pose.
// Named goals: docks 5 m and 10 m upwind of the scene's start, heading into the wind (the wind is the boat's brake: its
// stern thrusters only push; boat_dock is the 5 m one), and 5 m into the current when there is one.
#include <algorithm>
#include <cmath>
#include <string>

#include "engine/sim/errors.h"
#include "plan/plan_endpoints.h"

namespace varsim {
namespace {

constexpr double kTwoPi = 6.283185307179586;

double wrapAngle(double a) { return a - kTwoPi * std::round(a / kTwoPi); }

void setVector(ParamSet& p, const char* key, std::vector<double> v) {
  p.set(key, ParamValue{std::move(v), {}}, "plan start");
}

// Centre of mass x, unit quaternion q (body -> world), world momentum p (the standard columns) -> the start keys. The
// scene builds R = Rz(heading) Ry(pitch) Rx(roll) and z = surface(x, y, 0) + floating height + start_heave: the heave
// is read back against a scene built at the same x, y with start_heave = 0 (the scene's own placement).
void boatStartFrom(const Scene& s, ParamSet& params) {
  const double x = sceneColumn(s, "x"), y = sceneColumn(s, "y"), z = sceneColumn(s, "z");
  const double qw = sceneColumn(s, "qw"), qx = sceneColumn(s, "qx"), qy = sceneColumn(s, "qy"),
               qz = sceneColumn(s, "qz");
  const double R00 = 1 - 2 * (qy * qy + qz * qz), R10 = 2 * (qx * qy + qw * qz), R20 = 2 * (qx * qz - qw * qy),
               R21 = 2 * (qy * qz + qw * qx), R22 = 1 - 2 * (qx * qx + qy * qy);
  const double m = params.real("mass");
  setVector(params, "start_position", {x, y});
  setVector(params, "start_attitude",
            {std::atan2(R21, R22), std::asin(std::clamp(-R20, -1.0, 1.0)), wrapAngle(std::atan2(R10, R00))});
  setVector(params, "start_velocity",
            {sceneColumn(s, "p_x") / m, sceneColumn(s, "p_y") / m, sceneColumn(s, "p_z") / m});
  params.setReal("start_heave", 0.0);
  const auto level = SceneRegistry::create("boat", params);
  params.setReal("start_heave", z - sceneColumn(*level, "z"));
}

// Docks `distance` m from the scene's start against the flow `v` (world, m/s), heading into it.
void addDock(std::vector<PlanGoal>& goals, const std::string& name, const ParamSet& p, const Eigen::Vector3d& v,
             double distance) {
  const double speed = std::hypot(v.x(), v.y());
  if (speed <= 0.0) return;
  const std::vector<double>& start = p.vector("start_position");
  goals.push_back({name,
                   {{"dock_x", start[0] - distance * v.x() / speed},
                    {"dock_y", start[1] - distance * v.y() / speed},
                    {"dock_heading", std::atan2(-v.y(), -v.x())}}});
}

std::vector<PlanGoal> boatGoals(const ParamSet& p) {
  std::vector<PlanGoal> goals;
  addDock(goals, "dock 5 m upwind", p, p.vec3("wind"), 5.0);
  addDock(goals, "dock 10 m upwind", p, p.vec3("wind"), 10.0);
  addDock(goals, "dock 5 m up-current", p, p.vec3("current"), 5.0);
  return goals;
}

}  // namespace

VARSIM_REGISTER_PLAN_ENDPOINTS(PlanEndpointsInfo{"boat", boatStartFrom, boatGoals});

}  // namespace varsim
