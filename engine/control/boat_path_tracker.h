// engine/control/boat_path_tracker.h — the baseline a user would otherwise steer a planned boat path with (issue 10,
// Numbers): a PD on the along-track error and a heading loop that turns toward the path (cross-track error through
// atan), mixed onto the two stern thrusters and clipped to [0, thrust_max]. It sees the plan's states only, never
// its thrusts; the plan's BoatPlan::baseline flies it through the boat scene's own stepper.
#pragma once

#include "engine/lie/se3.h"

namespace varsim {

struct BoatPathReference {  // world frame, at the current step
  Vector3d x = Vector3d::Zero(), v = Vector3d::Zero();
  double heading = 0.0, headingRate = 0.0;  // rad, rad/s about world z
};

// On the boat_dock path (5 m upwind, N = 160, L-BFGS plan): gains (0.5, 1.5, 1, 1, 2) lag 0.40 m and end 7 cm off,
// still at 2 cm/s, for 0.94x the plan's effort; (2, 3, 1, 1, 2) 0.12 m; these 3.5 cm and 7 mm, at rest, 1.006x.
struct BoatTrackerGains {
  double along = 8.0;       // 1/s^2: surge a = along e_along + speed (v_ref - v) . e_x
  double speed = 6.0;       // 1/s
  double crossTrack = 2.0;  // 1/m: heading command psi_ref + atan(crossTrack e_cross) (turn toward the path)
  double heading = 4.0;     // 1/s^2: yaw acceleration heading (psi_cmd - psi) + yawRate (r_ref - r)
  double yawRate = 4.0;     // 1/s
};

struct BoatTrackerModel {
  double mass, yawInertia;  // kg, kg m^2 (J_zz)
  double lever;             // m: |y| of each thruster, yaw torque lever (u_r - u_l) lever
  double thrustMax;         // N per thruster
};

// (u_left, u_right) in [0, thrustMax] for position x, world velocity v, heading psi and yaw rate r.
Eigen::Vector2d boatTrackerThrust(const BoatTrackerModel& model, const BoatTrackerGains& gains,
                                  const BoatPathReference& ref, const Vector3d& x, const Vector3d& v, double psi,
                                  double r);

}  // namespace varsim
