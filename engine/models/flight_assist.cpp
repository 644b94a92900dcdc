// engine/models/flight_assist.cpp — altitude, attitude and heading hold for the helicopter (see header).
#include "engine/models/flight_assist.h"

#include <algorithm>
#include <cmath>

#include "engine/lie/so3.h"

namespace varsim {

namespace {
constexpr double kPi = 3.14159265358979323846;
double wrapAngle(double a) { return std::remainder(a, 2.0 * kPi); }
Matrix3d rotZ(double a) { return Eigen::AngleAxisd(a, Vector3d::UnitZ()).toRotationMatrix(); }
Matrix3d rotY(double a) { return Eigen::AngleAxisd(a, Vector3d::UnitY()).toRotationMatrix(); }
Matrix3d rotX(double a) { return Eigen::AngleAxisd(a, Vector3d::UnitX()).toRotationMatrix(); }
}  // namespace

double FlightAssist::heading(const Matrix3d& R) { return std::atan2(R(1, 0), R(0, 0)); }

Matrix3d FlightAssist::desiredAttitude(double theta, double phi, double headingRef) {
  return rotZ(headingRef) * rotY(theta) * rotX(phi);
}

Eigen::Vector2d FlightAssist::attitudeCommand(const StickCommand& sticks, const Vector3d& velocity, double heading,
                                              double gravity) const {
  const double c = std::cos(heading), s = std::sin(heading);
  const double forward = c * velocity.x() + s * velocity.y(), left = -s * velocity.x() + c * velocity.y();
  const double g = std::max(gravity, kMinGravity), k = settings_.brakeGain, tilt = settings_.maxTilt;
  // +theta accelerates forward, +phi accelerates to the right (-y): brake against the drift.
  const double brakeTheta = std::clamp(-std::atan(k * forward / g), -tilt, tilt);
  const double brakePhi = std::clamp(std::atan(k * left / g), -tilt, tilt);
  const double sp = std::clamp(sticks.pitch, -1.0, 1.0), sr = std::clamp(sticks.roll, -1.0, 1.0);
  return {sp * tilt + (1.0 - std::abs(sp)) * brakeTheta, sr * tilt + (1.0 - std::abs(sr)) * brakePhi};
}

RotorState FlightAssist::command(const Helicopter& heli, const se3::Pose& g, const Vector3d& omega,
                                 const Vector3d& velocity, const StickCommand& sticks, const RotorState& current,
                                 double h, FlightAssistState& state) const {
  const HelicopterSettings& hs = heli.settings();
  const FlightAssistSettings& fs = settings_;
  const Matrix3d& R = g.R;
  const double psi = heading(R);
  if (!state.engaged) {  // engage on the current altitude and heading: no jump when switched on in flight
    state.engaged = true;
    state.altitudeRef = g.x.z();
    state.headingRef = psi;
  }

  // References move with the stick rates and stay on a leash around the actual state (anti-windup).
  const double climbCmd = fs.maxClimbRate * sticks.throttle;
  const double yawRateCmd = -fs.maxYawRate * sticks.yaw;  // stick right = clockwise = -z
  state.altitudeRef =
      std::clamp(state.altitudeRef + h * climbCmd, g.x.z() - fs.altitudeLeash, g.x.z() + fs.altitudeLeash);
  const double headingErr =
      std::clamp(wrapAngle(state.headingRef + h * yawRateCmd - psi), -fs.headingLeash, fs.headingLeash);
  state.headingRef = wrapAngle(psi + headingErr);

  // Altitude loop (mass m): collective along the current thrust direction's world vertical component.
  const double wz = fs.altitudeBandwidth;
  const double az = wz * wz * (state.altitudeRef - g.x.z()) + 2.0 * wz * (climbCmd - velocity.z());
  const double nz = (R * Helicopter::thrustDirection(current.pitch, current.roll)).z();
  RotorState cmd;
  cmd.collective = (hs.mass * (hs.gravity + az) + hs.dragLinear * velocity.z()) / std::max(nz, 0.5);
  cmd.collective = std::clamp(cmd.collective, 0.0, hs.limits.collectiveMax);

  // Attitude loop (inertia J): geometric PD with gyroscopic and drag feed-forward.
  const Eigen::Vector2d attitude = attitudeCommand(sticks, velocity, psi, hs.gravity);
  const Matrix3d Rd = desiredAttitude(attitude.x(), attitude.y(), state.headingRef);
  const Vector3d eR = 0.5 * so3::vee(Rd.transpose() * R - R.transpose() * Rd);
  const Vector3d omegaDes = R.transpose() * Vector3d(0.0, 0.0, yawRateCmd);
  const Vector3d J = hs.inertia;
  const double wa = fs.attitudeBandwidth;
  const Vector3d tau = -(wa * wa) * J.cwiseProduct(eR) - (2.0 * wa) * J.cwiseProduct(omega - omegaDes) +
                       omega.cross(J.cwiseProduct(omega)) + hs.dragAngular * omega;

  // Invert the torque rows of F(gamma): the tilt arm uses the new collective, at least 20% of the hover
  // thrust m g so a nearly idle rotor does not ask for huge tilts. Without gravity (g = 0 is allowed) the
  // hover thrust is 0, so the floor uses g >= kMinGravity: the assist still works (issue 15 item 5). A zero
  // hub height or tail arm (allowed) gives no authority over that axis: the command there stays 0.
  const double arm = hs.hubHeight * std::max(cmd.collective, 0.2 * hs.mass * std::max(hs.gravity, kMinGravity));
  const double sMax = std::sin(hs.limits.tiltMax);
  if (arm > 0.0) {
    cmd.roll = std::asin(std::clamp(tau.x() / arm, -sMax, sMax));
    cmd.pitch = std::asin(std::clamp(tau.y() / (arm * std::cos(cmd.roll)), -sMax, sMax));
  }
  cmd.yaw = hs.tailArm > 0.0 ? tau.z() / hs.tailArm : 0.0;
  return heli.clampToLimits(cmd);
}

}  // namespace varsim
