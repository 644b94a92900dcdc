// engine/control/heli_path_pilot.h — the baseline a user would otherwise fly a planned helicopter path with: the
// scene's flight assist (engine/models/flight_assist.h) and, on top, a pilot turning the path's position, velocity and
// acceleration into the assist's stick deflections (a PD on the position error with the path's acceleration fed
// forward; tilt = atan(a / g), the assist's brake blend inverted). It sees the plan's states only, never its controls.
#pragma once

#include "engine/models/flight_assist.h"

namespace varsim {

struct PathReference {  // world frame, at the current step
  Vector3d x = Vector3d::Zero(), v = Vector3d::Zero(), a = Vector3d::Zero();
  double heading = 0.0, headingRate = 0.0;  // rad, rad/s about world z
};

// Measured on heli_canyon (N = 300) and the east pad (N = 120): w = 0.6 lags 2-7 m behind and grazes the canyon wall,
// 1.5 tracks to 0.3-0.7 m at the end for 1.5-2.2x the effort; 1.0 with a 0.2 s lead: 1.2-1.7 m, 1.1-1.35x.
struct PathPilotGains {
  double position = 1.0;  // rad/s: horizontal error loop a = a_ref + w^2 e + 2 w de (critically damped)
  double climb = 1.0;     // 1/s: climb rate = v_z,ref + k (z_ref - z)
  double heading = 1.0;   // 1/s: yaw rate = psi_dot,ref + k (psi_ref - psi)
  double lead = 0.2;      // s: the reference is taken this far ahead (the assist's attitude loop lags ~1/2.5 s)
};

// Sticks in [-1, 1] for the present state: position x, world velocity v, heading psi (ref: the path `lead` ahead).
StickCommand pathPilotSticks(const FlightAssistSettings& assist, double gravity, const PathPilotGains& gains,
                             const PathReference& ref, const Vector3d& x, const Vector3d& v, double heading);

}  // namespace varsim
