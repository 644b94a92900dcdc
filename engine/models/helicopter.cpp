// engine/models/helicopter.cpp — helicopter control matrix (seed 000 Sec. 4.3.1, ERRATA reading), gravity,
// drag and the rate-limited actuator model.
#include "engine/models/helicopter.h"

#include <algorithm>
#include <cmath>

namespace varsim {

Helicopter::Helicopter(const HelicopterSettings& settings) : settings_(settings) {
  const double d = skidDrop(), l = skidHalfLength(), w = skidHalfTrack();
  contactPoints_ = {{l, w, -d},   {l, -w, -d},      {-l, w, -d},
                    {-l, -w, -d}, {2.2, 0.0, -0.4}, {-settings_.tailArm - 0.4, 0.0, 0.3},
                    hubPosition()};
}

Vector3d Helicopter::thrustDirection(double gammaP, double gammaR) {
  return {std::sin(gammaP) * std::cos(gammaR), -std::sin(gammaR), std::cos(gammaP) * std::cos(gammaR)};
}

Eigen::Matrix<double, 6, 2> Helicopter::controlMatrix(double gammaP, double gammaR) const {
  const Vector3d n = thrustDirection(gammaP, gammaR);
  Eigen::Matrix<double, 6, 2> F;
  F.col(0) << hubPosition().cross(n), n;  // = (d_t sin gr, d_t sin gp cos gr, 0, n)
  F.col(1) << tailRotorPosition().cross(Vector3d(0.0, -1.0, 0.0)), Vector3d(0.0, -1.0, 0.0);  // (0,0,d_r, 0,-1,0)
  return F;
}

Vector6d Helicopter::controlWrench(const RotorState& a) const {
  return controlMatrix(a.pitch, a.roll) * Eigen::Vector2d(a.collective, a.yaw);
}

Vector6d Helicopter::gravityWrench(const Matrix3d& R) const {
  Vector6d f = Vector6d::Zero();
  f.tail<3>() = R.transpose() * Vector3d(0.0, 0.0, -settings_.mass * settings_.gravity);
  return f;
}

Vector6d Helicopter::dragWrench(const Vector6d& xi) const {
  Vector6d f;
  f.head<3>() = -settings_.dragAngular * xi.head<3>();
  f.tail<3>() = -settings_.dragLinear * xi.tail<3>();
  return f;
}

RotorState Helicopter::clampToLimits(const RotorState& c) const {
  const ActuatorLimits& L = settings_.limits;
  return {std::clamp(c.collective, 0.0, L.collectiveMax), std::clamp(c.yaw, -L.yawMax, L.yawMax),
          std::clamp(c.pitch, -L.tiltMax, L.tiltMax), std::clamp(c.roll, -L.tiltMax, L.tiltMax)};
}

namespace {
double approach(double current, double target, double maxDelta) {
  if (!std::isfinite(target)) return current;
  return current + std::clamp(target - current, -maxDelta, maxDelta);
}
}  // namespace

RotorState Helicopter::advanceActuators(const RotorState& current, const RotorState& command, double h) const {
  const ActuatorLimits& L = settings_.limits;
  RotorState next;
  next.collective = approach(current.collective, command.collective, L.collectiveRate * h);
  next.yaw = approach(current.yaw, command.yaw, L.yawRate * h);
  next.pitch = approach(current.pitch, command.pitch, L.tiltRate * h);
  next.roll = approach(current.roll, command.roll, L.tiltRate * h);
  return clampToLimits(next);
}

}  // namespace varsim
