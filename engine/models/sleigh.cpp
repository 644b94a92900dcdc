// Chaplygin sleigh from a rod (see sleigh.h). The initial velocity satisfies all rows exactly:
// blade point velocity v u (+ w n), centre velocity v u + w n + a ω n, u̇ = ω e_z × u.
#include "engine/models/sleigh.h"

#include <Eigen/Geometry>
#include <cmath>

#include "engine/sim/errors.h"

namespace varsim {

Sleigh::Sleigh(const SleighConfig& config) : config_(config), system_(Eigen::Vector3d(0, 0, -9.81)) {
  if (!(config.mass > 0) || !(config.length > 0)) throw BadInput("sleigh: mass and length must be > 0");
  const double a = 0.5 * config.length;
  const Eigen::Vector3d u(std::cos(config.heading), std::sin(config.heading), 0.0);
  const Eigen::Vector3d n = Eigen::Vector3d::UnitZ().cross(u);
  const Eigen::Vector3d centre = a * u;  // blade (tail) at the origin
  const Eigen::Vector3d uDot = config.yawRate * n;
  const Eigen::Vector3d vCentre = config.speed * u + config.sideSlip * n + a * config.yawRate * n;
  system_.addRod(config.mass, config.length, centre, u, vCentre, uDot);
  system_.addPlanePoint({0, -1}, Eigen::Vector3d::UnitZ(), 0.0, "ground: tail on z = 0");
  system_.addPlanePoint({0, +1}, Eigen::Vector3d::UnitZ(), 0.0, "ground: head on z = 0");
  blade_ = system_.addNoSideSlip({0, -1}, Eigen::Vector3d::UnitZ(), config.sideSlip, "blade: no side slip at the tail");
}

Eigen::Vector3d Sleigh::pose(const Eigen::VectorXd& q) const {
  const Eigen::Vector3d p = system_.point({0, -1}, q), u = system_.direction(0, q);
  return {p.x(), p.y(), std::atan2(u.y(), u.x())};
}

double Sleigh::forwardSpeed(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
  const Eigen::Vector3d u = system_.direction(0, q);
  return system_.pointVelocity({0, -1}, v).dot(u) / u.norm();
}

double Sleigh::yawRate(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
  const Eigen::Vector3d u = system_.direction(0, q), uDot = system_.direction(0, v);
  return u.cross(uDot).z() / u.squaredNorm();
}

double Sleigh::reducedEnergy(double v, double omega) const {
  const double m = config_.mass, l = config_.length, a = 0.5 * l;
  return 0.5 * m * v * v + 0.5 * (m * l * l / 12.0 + m * a * a) * omega * omega;
}

}  // namespace varsim
