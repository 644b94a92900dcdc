// engine/models/flight_assist.h — a small flight-assist controller for the helicopter: the sticks command a
// climb rate (altitude hold when centred), a pitch/roll attitude (level when centred) and a yaw rate (heading
// hold when centred; a centred stick also brakes the horizontal drift to a hover); the controller turns them
// into u_c, u_psi, gamma_p, gamma_r. Gains follow from m and J: each loop is a critically damped second-order
// system of chosen bandwidth (K = M w^2, D = 2 M w).
#pragma once

#include "engine/lie/se3.h"
#include "engine/models/helicopter.h"

namespace varsim {

// Stick deflections in [-1, 1] (already sanitized by the input layer and the scene).
struct StickCommand {
  double throttle = 0.0;  // +1 = climb (left stick up)
  double yaw = 0.0;       // +1 = yaw right, clockwise seen from above (left stick right)
  double pitch = 0.0;     // +1 = nose down / fly forward (right stick forward)
  double roll = 0.0;      // +1 = roll right / fly right (right stick right)
};

struct FlightAssistSettings {
  double maxClimbRate = 4.0;       // m/s commanded at full throttle stick
  double maxTilt = 0.35;           // rad, pitch and roll attitude commanded at full stick (20 deg)
  double maxYawRate = 0.8;         // rad/s commanded at full yaw stick
  double altitudeBandwidth = 1.0;  // rad/s, w_z of the altitude loop
  double attitudeBandwidth = 2.5;  // rad/s, w_a of the attitude loop (well below the tilt rate limit / tilt)
  double brakeGain = 0.5;          // 1/s: centred sticks tilt against the horizontal velocity, atan(k v / g)
  double altitudeLeash = 0.5;      // m, |z_ref - z| is kept below this (anti-windup, e.g. on the ground)
  double headingLeash = 0.5;       // rad, |psi_ref - psi| is kept below this
};

// Controller memory; part of the scene state (saveState) so replays stay bit-identical.
struct FlightAssistState {
  bool engaged = false;
  double altitudeRef = 0.0;  // z_ref, m
  double headingRef = 0.0;   // psi_ref, rad (yaw of body x about world z)
};

class FlightAssist {
 public:
  // m/s^2: g is floored at this wherever the assist divides by it or scales with it (brake angle, tilt arm),
  // so it is well defined at g = 0 (the scene allows gravity in [0, 100]).
  static constexpr double kMinGravity = 1.0;
  explicit FlightAssist(const FlightAssistSettings& settings = {}) : settings_(settings) {}
  const FlightAssistSettings& settings() const { return settings_; }

  static double heading(const Matrix3d& R);  // atan2(R10, R00)
  // Desired attitude R_d = R_z(psi_ref) R_y(theta) R_x(phi): rotation about body y by +theta is nose down
  // in our z-up frame, about x by +phi is right wing down.
  static Matrix3d desiredAttitude(double theta, double phi, double headingRef);
  // theta, phi for the sticks: s maxTilt, blended with the brake atan(k v / g) as (1 - |s|) (velocity in
  // the heading frame, world z up; g floored at kMinGravity), so a centred stick brings the helicopter to a hover.
  Eigen::Vector2d attitudeCommand(const StickCommand& sticks, const Vector3d& velocity, double heading,
                                  double gravity) const;

  // One control update over a step of length h. omega: body angular velocity; velocity: world velocity of
  // the centre of mass; current: present actuator state (its tilt sets the thrust direction used for the
  // collective's tilt compensation). Attitude (target from attitudeCommand): geometric PD on SO(3) (e_R = vee(R_d^T R -
  // R^T R_d)/2, tau = -J w_a^2 e_R - 2 J w_a (omega - omega_d) + omega x J omega + c_w omega), then tau_x = d_t u_c sin
  // gr, tau_y = d_t u_c sin gp cos gr, tau_z = d_r u_psi (seed 000 Sec. 4.3.1 F) are inverted for the tilts and the
  // tail force. Altitude: a_z = w_z^2 (z_ref - z) + 2 w_z (w_cmd - z_dot), u_c n_z = m (g + a_z) + c_v z_dot. The
  // result is clamped to the actuator ranges.
  RotorState command(const Helicopter& heli, const se3::Pose& g, const Vector3d& omega, const Vector3d& velocity,
                     const StickCommand& sticks, const RotorState& current, double h, FlightAssistState& state) const;

 private:
  FlightAssistSettings settings_;
};

}  // namespace varsim
