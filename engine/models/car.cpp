// engine/models/car.cpp — car of seed 000 Sec. 5.2.1: connection (18), reduced Lagrangian, driver layer
// and the reduced continuous equations (reference/README.md "car_sinusoidal.csv").
#include "engine/models/car.h"

#include <algorithm>
#include <cmath>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {

void validateCarParams(const CarParams& p) {
  const std::pair<const char*, double> fields[] = {{"m", p.m}, {"I", p.I}, {"K", p.K}, {"l", p.l}, {"rho", p.rho}};
  for (const auto& [key, v] : fields)
    if (!std::isfinite(v) || v <= 0.0)
      throw BadInput("car: key '" + std::string(key) + "' = " + formatNumber(v) + ": allowed range (0, inf)");
}

CarModel::AlgebraMatrix CarModel::connection(const Eigen::VectorXd& r) const {
  AlgebraMatrix A = AlgebraMatrix::Zero(3, 2);
  A(0, 0) = -(p_.rho / p_.l) * r[1];
  A(1, 0) = -p_.rho;
  return A;
}

CarModel::AlgebraMatrix CarModel::symmetryBasis(const Eigen::VectorXd&) const { return AlgebraMatrix::Zero(3, 0); }

double CarModel::lagrangian(const Eigen::VectorXd&, const Eigen::VectorXd& u, const Algebra& xi) const {
  return 0.5 * (p_.I * u[0] * u[0] + p_.K * xi[0] * xi[0] + p_.m * (xi[1] * xi[1] + xi[2] * xi[2]));
}

Eigen::VectorXd CarModel::dLdu(const Eigen::VectorXd&, const Eigen::VectorXd& u, const Algebra&) const {
  return Eigen::Vector2d(p_.I * u[0], 0.0);
}

Eigen::VectorXd CarModel::dLdr(const Eigen::VectorXd&, const Eigen::VectorXd&, const Algebra&) const {
  return Eigen::Vector2d::Zero();
}

CarModel::Algebra CarModel::dLdxi(const Eigen::VectorXd&, const Eigen::VectorXd&, const Algebra& xi) const {
  return Algebra(p_.K * xi[0], p_.m * xi[1], p_.m * xi[2]);
}

CarCommand carCommand(const CarDriveSettings& s, const CarControls& c, double constTorque, double constSteerRate,
                      double uPrev, double sigma, double h) {
  CarCommand out;
  if (s.brakeReverses && c.throttle <= 0.0 && c.brake > 0.0 && uPrev < 0.1 * s.brakeSpeed)
    out.torque = -s.maxTorque * c.brake;  // stopped: the brake pedal becomes reverse
  else if (c.throttle > 0.0 || c.brake > 0.0)
    out.torque = s.maxTorque * c.throttle - s.brakeTorque * c.brake * std::tanh(uPrev / s.brakeSpeed);
  else
    out.torque = constTorque;

  if (c.steer != 0.0) {
    out.steerRate = -s.maxSteerRate * c.steer;  // positive steer turns right: sigma decreases
  } else if (constSteerRate != 0.0 || !s.returnToCentre) {
    out.steerRate = constSteerRate;
  } else {
    // Return to centre: at most centreRate, and exactly the remaining distance in the last step.
    out.steerRate = std::abs(sigma) <= s.centreRate * h ? 0.0 - sigma / h : -std::copysign(s.centreRate, sigma);
  }
  const double sigmaMax = std::tan(s.steerLimit);
  const double lo = std::min((-sigmaMax - sigma) / h, 0.0), hi = std::max((sigmaMax - sigma) / h, 0.0);
  out.steerRate = std::clamp(out.steerRate, lo, hi);
  return out;
}

CarOdeState carOdeRhs(const CarParams& p, const CarOdeState& s, double torque, double steerRate) {
  const double theta = s[0], sigma = s[4], psiDot = s[5];
  CarOdeState d;
  d[0] = (p.rho / p.l) * sigma * psiDot;
  d[1] = p.rho * psiDot * std::cos(theta);
  d[2] = p.rho * psiDot * std::sin(theta);
  d[3] = psiDot;
  d[4] = steerRate;
  d[5] = (torque - p.c() * sigma * steerRate * psiDot) / (p.I0() + p.c() * sigma * sigma);
  return d;
}

}  // namespace varsim
