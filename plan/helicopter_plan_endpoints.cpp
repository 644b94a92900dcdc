// plan/helicopter_plan_endpoints.cpp — the helicopter's Plan-panel hook (plan/plan_endpoints.h): a plan starts at the
// running helicopter's position, attitude, velocity and body rate, written into start_position, start_heading,
// start_pitch, start_roll (R = Rz(heading) Ry(pitch) Rx(roll)), start_velocity and start_omega: a re-plan from a tilted
// helicopter starts (and Play replays) from its actual attitude.
// The goals are the plan's own target_pad choices (the panel shows target choices beside the goal).
#include <algorithm>
#include <cmath>
#include <utility>

#include "engine/sim/errors.h"
#include "plan/plan_endpoints.h"

namespace varsim {
namespace {

constexpr double kTwoPi = 6.283185307179586;

void setVector(ParamSet& p, const char* key, double a, double b, double c) {
  p.set(key, ParamValue{{a, b, c}, {}}, "plan start");
}

// Centre of mass x, unit quaternion q (body -> world), world momentum p and angular momentum L about the world
// origin (the standard columns) -> velocity v = p / m and body rate Omega = J^-1 R^T (L - x cross p).
void helicopterStartFrom(const Scene& s, ParamSet& params) {
  const double x[3] = {sceneColumn(s, "x"), sceneColumn(s, "y"), sceneColumn(s, "z")};
  const double qw = sceneColumn(s, "qw"), qx = sceneColumn(s, "qx"), qy = sceneColumn(s, "qy"),
               qz = sceneColumn(s, "qz");
  const double p[3] = {sceneColumn(s, "p_x"), sceneColumn(s, "p_y"), sceneColumn(s, "p_z")};
  const double L[3] = {sceneColumn(s, "L_x"), sceneColumn(s, "L_y"), sceneColumn(s, "L_z")};
  const double R[3][3] = {{1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qw * qz), 2 * (qx * qz + qw * qy)},
                          {2 * (qx * qy + qw * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qw * qx)},
                          {2 * (qx * qz - qw * qy), 2 * (qy * qz + qw * qx), 1 - 2 * (qx * qx + qy * qy)}};
  const double m = params.real("mass");
  const std::vector<double>& J = params.vector("inertia");
  const double spin[3] = {L[0] - (x[1] * p[2] - x[2] * p[1]), L[1] - (x[2] * p[0] - x[0] * p[2]),
                          L[2] - (x[0] * p[1] - x[1] * p[0])};
  double omega[3];
  for (int i = 0; i < 3; ++i) omega[i] = (R[0][i] * spin[0] + R[1][i] * spin[1] + R[2][i] * spin[2]) / J.at(size_t(i));
  // z-y-x angles of R: heading in [-pi, pi], pitch in [-pi/2, pi/2], roll in [-pi, pi] (the keys' ranges).
  const double heading = std::atan2(R[1][0], R[0][0]);
  const double pitch = std::asin(std::clamp(-R[2][0], -1.0, 1.0)), roll = std::atan2(R[2][1], R[2][2]);
  setVector(params, "start_position", x[0], x[1], x[2]);
  params.setReal("start_heading", heading - kTwoPi * std::round(heading / kTwoPi));
  params.setReal("start_pitch", pitch);
  params.setReal("start_roll", roll);
  setVector(params, "start_velocity", p[0] / m, p[1] / m, p[2] / m);
  setVector(params, "start_omega", omega[0], omega[1], omega[2]);
  // The actuators are state too (they move within their rate limits): the plan starts from the running ones, held
  // with the assist off (the scene then starts with them: helicopter_scene.cpp heldActuators), not from what the
  // assist would command at this pose.
  params.setFromString("assist", "false", "plan start");
  for (const auto& [key, column] : {std::pair<const char*, const char*>{"collective", "u_c"}, {"yaw", "u_psi"},
                                    {"pitch", "gamma_p"}, {"roll", "gamma_r"}})
    params.setReal(key, sceneColumn(s, column));
}

}  // namespace

VARSIM_REGISTER_PLAN_ENDPOINTS(PlanEndpointsInfo{"helicopter", helicopterStartFrom, {}});

}  // namespace varsim
