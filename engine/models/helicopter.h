// engine/models/helicopter.h — the simple helicopter of seed 000 Sec. 4.3.1 as a forced rigid body: control
// matrix F(gamma) for u = (u_c, u_psi) with rotor tilts gamma = (gamma_p, gamma_r) as shape variables,
// gravity, linear and rotational aerodynamic drag, and actuator range and rate limits. Wrenches are BODY
// wrenches (torque; force), the row order of F (ERRATA "ordering").
#pragma once

#include <vector>

#include "engine/lie/lie_types.h"

namespace varsim {

// Actuator positions: u_c [N], u_psi [N], gamma_p [rad], gamma_r [rad].
struct RotorState {
  double collective = 0.0;  // u_c: main-rotor thrust along n(gamma), N, in [0, collectiveMax]
  double yaw = 0.0;         // u_psi: tail-rotor force along -e_y at (-d_r, 0, 0), N
  double pitch = 0.0;       // gamma_p: fore/aft rotor tilt, rad; > 0 tilts thrust to +x (nose down)
  double roll = 0.0;        // gamma_r: lateral rotor tilt, rad; > 0 tilts thrust to -y (right wing down)
};

struct ActuatorLimits {
  double collectiveMax = 12000.0;   // N, u_c in [0, collectiveMax] (about 2 m g for the default mass)
  double yawMax = 2000.0;           // N, |u_psi| <= yawMax
  double tiltMax = 0.25;            // rad, |gamma_p|, |gamma_r| <= tiltMax, in (0, pi/2)
  double collectiveRate = 10000.0;  // N/s, |d u_c / dt|
  double yawRate = 6000.0;          // N/s, |d u_psi / dt|
  double tiltRate = 1.2;            // rad/s, |d gamma / dt|
};

struct HelicopterSettings {
  double mass = 600.0;                      // kg, > 0 (a light two-seat helicopter)
  Vector3d inertia{300.0, 1200.0, 1000.0};  // kg m^2, principal moments J1, J2, J3 (body x fwd, y left, z up)
  // d_t and d_r are not defined in seed 000 (ERRATA): we take d_t = height of the main-rotor hub above the
  // centre of mass and d_r = distance of the tail rotor behind it (thrust acts at (0,0,d_t), the tail
  // force at (-d_r,0,0)).
  double hubHeight = 1.6;       // d_t, m
  double tailArm = 4.6;         // d_r, m
  double dragLinear = 80.0;     // c_v, N s/m: force -c_v v on the body velocity (isotropic, still air)
  double dragAngular = 1500.0;  // c_w, N m s/rad: torque -c_w omega
  double gravity = 9.81;        // m/s^2, along world -z
  ActuatorLimits limits;
};

class Helicopter {
 public:
  explicit Helicopter(const HelicopterSettings& settings = {});
  const HelicopterSettings& settings() const { return settings_; }
  double mass() const { return settings_.mass; }
  double hoverCollective() const { return settings_.mass * settings_.gravity; }

  // Thrust direction n = R_y(gamma_p) R_x(gamma_r) e_z = (sin gp cos gr, -sin gr, cos gp cos gr) (body).
  static Vector3d thrustDirection(double gammaP, double gammaR);
  // seed 000 Sec. 4.3.1: columns (d_t e_z x n, n) for u_c and (d_r e_z, -e_y) for u_psi, i.e.
  // [[d_t sin gr, 0], [d_t sin gp cos gr, 0], [0, d_r], [sin gp cos gr, 0], [-sin gr, -1], [cos gp cos gr, 0]].
  Eigen::Matrix<double, 6, 2> controlMatrix(double gammaP, double gammaR) const;
  Vector6d controlWrench(const RotorState& a) const;  // F(gamma) u
  Vector6d gravityWrench(const Matrix3d& R) const;    // (0, R^T (0, 0, -m g))
  // Still-air drag on the body twist xi = (omega, v): (-c_w omega, -c_v v). With isotropic c_v this is the
  // world force -c_v x_dot, so a released stick settles.
  Vector6d dragWrench(const Vector6d& xi) const;
  double potentialEnergy(const Vector3d& x) const { return settings_.mass * settings_.gravity * x.z(); }

  // Actuator model: the commanded state is clamped to the ranges, then each actuator moves towards it by
  // at most rate * h in one step. Non-finite commands keep the current value (they never reach physics).
  RotorState clampToLimits(const RotorState& command) const;
  RotorState advanceActuators(const RotorState& current, const RotorState& command, double h) const;

  // Points that touch the world (body frame, m): four skid ends, nose, tail tip, rotor hub.
  const std::vector<Vector3d>& contactPoints() const { return contactPoints_; }
  // Drawing geometry (body frame, m).
  Vector3d hubPosition() const { return {0.0, 0.0, settings_.hubHeight}; }
  Vector3d tailRotorPosition() const { return {-settings_.tailArm, 0.0, 0.0}; }
  double rotorRadius() const { return 3.8; }
  double skidDrop() const { return 1.1; }        // m, skids below the centre of mass
  double skidHalfLength() const { return 1.3; }  // m
  double skidHalfTrack() const { return 1.0; }   // m

 private:
  HelicopterSettings settings_;
  std::vector<Vector3d> contactPoints_;
};

}  // namespace varsim
