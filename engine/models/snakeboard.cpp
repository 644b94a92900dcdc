// engine/models/snakeboard.cpp — snakeboard of seed 000 Sec. 5.2.2: ERRATA connection and momentum,
// constraint basis e1(phi), energy, gait and the reduced continuous ODE (reference/README.md).
#include "engine/models/snakeboard.h"

#include <cmath>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {

void validateSnakeboardParams(const SnakeboardParams& p) {
  const std::pair<const char*, double> fields[] = {{"m", p.m}, {"I", p.I}, {"J", p.J}, {"l", p.l}};
  for (const auto& [key, v] : fields)
    if (!std::isfinite(v) || v <= 0.0)
      throw BadInput("snakeboard: key '" + std::string(key) + "' = " + formatNumber(v) + ": allowed range (0, inf)");
  const double yaw = p.m * p.l * p.l;
  if (p.I >= yaw)
    throw BadInput("snakeboard: key 'I' = " + formatNumber(p.I) + ": allowed range (0, m l^2 = " + formatNumber(yaw) +
                   ") (the rotor is part of the yaw inertia m l^2)");
}

namespace snakeboard {

Vector3d e1(double l, double phi) {
  const double c = std::cos(phi);
  return Vector3d(std::sin(2.0 * phi), -2.0 * l * c * c, 0.0);
}

Vector3d lockedInertia(const SnakeboardParams& p) { return Vector3d(p.m * p.l * p.l, p.m, p.m); }

Vector3d velocityOfMomentum(const SnakeboardParams& p, double phi, double psiDot, double mom) {
  const double c = std::cos(phi);
  const double zeta = (mom - p.I * psiDot * std::sin(2.0 * phi)) / (4.0 * p.m * p.l * p.l * c * c);
  return zeta * e1(p.l, phi);
}

double momentumOfVelocity(const SnakeboardParams& p, double phi, double psiDot, const Vector3d& xi) {
  Vector3d mu = lockedInertia(p).cwiseProduct(xi);
  mu[0] += p.I * psiDot;
  return mu.dot(e1(p.l, phi));
}

double energy(const SnakeboardParams& p, double psiDot, double phiDot, const Vector3d& xi) {
  return 0.5 * (p.m * p.l * p.l * xi[0] * xi[0] + p.m * (xi[1] * xi[1] + xi[2] * xi[2]) +
                2.0 * p.I * psiDot * xi[0] + p.I * psiDot * psiDot + 2.0 * p.J * phiDot * phiDot);
}

}  // namespace snakeboard

SnakeboardModel::AlgebraMatrix SnakeboardModel::connection(const Eigen::VectorXd& r) const {
  const double phi = r[1], s = std::sin(phi);
  AlgebraMatrix A = AlgebraMatrix::Zero(3, 2);
  A(0, 0) = p_.I / (p_.m * p_.l * p_.l) * s * s;
  A(1, 0) = -p_.I / (2.0 * p_.m * p_.l) * std::sin(2.0 * phi);  // ERRATA: rotor inertia I
  return A;
}

SnakeboardModel::AlgebraMatrix SnakeboardModel::symmetryBasis(const Eigen::VectorXd& r) const {
  return snakeboard::e1(p_.l, r[1]);
}

double SnakeboardModel::lagrangian(const Eigen::VectorXd&, const Eigen::VectorXd& u, const Algebra& xi) const {
  return snakeboard::energy(p_, u[0], u[1], xi);
}

Eigen::VectorXd SnakeboardModel::dLdu(const Eigen::VectorXd&, const Eigen::VectorXd& u, const Algebra& xi) const {
  return Eigen::Vector2d(p_.I * (u[0] + xi[0]), 2.0 * p_.J * u[1]);
}

Eigen::VectorXd SnakeboardModel::dLdr(const Eigen::VectorXd&, const Eigen::VectorXd&, const Algebra&) const {
  return Eigen::Vector2d::Zero();
}

SnakeboardModel::Algebra SnakeboardModel::dLdxi(const Eigen::VectorXd&, const Eigen::VectorXd& u,
                                                const Algebra& xi) const {
  Algebra mu = snakeboard::lockedInertia(p_).cwiseProduct(xi);
  mu[0] += p_.I * u[0];  // ERRATA: the rotor psi couples with theta
  return mu;
}

Eigen::Vector2d SnakeboardGait::shape(double phase) const {
  return Eigen::Vector2d(psiAmplitude * std::sin(phase), phiOffset + phiAmplitude * std::sin(phase + delta));
}

Eigen::Vector2d SnakeboardGait::shapeRate(double phase) const {
  return omega * Eigen::Vector2d(psiAmplitude * std::cos(phase), phiAmplitude * std::cos(phase + delta));
}

SnakeboardOdeState snakeboardOdeRhs(const SnakeboardParams& p, const SnakeboardOdeState& s, const Eigen::Vector2d& r,
                                    const Eigen::Vector2d& rDot) {
  const double theta = s[0], mom = s[3], phi = r[1], c = std::cos(phi);
  const Vector3d xi = snakeboard::velocityOfMomentum(p, phi, rDot[0], mom);
  const double ct = std::cos(theta), st = std::sin(theta);
  SnakeboardOdeState d;
  d[0] = xi[0];
  d[1] = ct * xi[1] - st * xi[2];
  d[2] = st * xi[1] + ct * xi[2];
  d[3] = 2.0 * p.I * c * c * rDot[1] * rDot[0] - std::tan(phi) * rDot[1] * mom;
  return d;
}

}  // namespace varsim
