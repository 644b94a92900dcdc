// engine/models/rigid_body.cpp — rigid-body inertia validation, wrench composition and energy helpers.
#include "engine/models/rigid_body.h"

#include <Eigen/Eigenvalues>
#include <cmath>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {

RigidBodyInertia principalInertia(double mass, const Vector3d& moments) {
  RigidBodyInertia inertia;
  inertia.mass = mass;
  inertia.J = moments.asDiagonal();
  return inertia;
}

void validateInertia(const RigidBodyInertia& inertia, const std::string& massKey, const std::string& inertiaKey) {
  const double m = inertia.mass;
  if (!std::isfinite(m) || m <= 0.0)
    throw BadInput("key '" + massKey + "' = " + formatNumber(m) + ": allowed range (0, inf) kg");
  const Matrix3d& J = inertia.J;
  if (!J.allFinite()) throw BadInput("key '" + inertiaKey + "': not finite; allowed: positive moments in kg m^2");
  const double scale = J.cwiseAbs().maxCoeff();
  if (!((J - J.transpose()).cwiseAbs().maxCoeff() <= 1e-12 * scale))
    throw BadInput("key '" + inertiaKey + "': the inertia tensor is not symmetric");
  const Vector3d e = Eigen::SelfAdjointEigenSolver<Matrix3d>(J, Eigen::EigenvaluesOnly).eigenvalues();
  if (!(e.minCoeff() > 0.0))
    throw BadInput("key '" + inertiaKey + "': principal moments must be > 0 kg m^2, smallest is " +
                   formatNumber(e.minCoeff()));
}

void validatePhysicalInertia(const RigidBodyInertia& inertia, const std::string& massKey,
                             const std::string& inertiaKey) {
  validateInertia(inertia, massKey, inertiaKey);
  // Eigenvalues in the order of the diagonal when J is diagonal (the usual case), so the message
  // names the moments as the user typed them.
  const Matrix3d& J = inertia.J;
  const bool diagonal = J.isDiagonal(0.0);
  const Vector3d e = diagonal ? Vector3d(J.diagonal())
                              : Vector3d(Eigen::SelfAdjointEigenSolver<Matrix3d>(J, Eigen::EigenvaluesOnly).eigenvalues());
  // Every mass distribution satisfies J_i + J_j >= J_k. Allow round-off.
  const char* names[3] = {"J1", "J2", "J3"};
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    if (e[i] + e[j] < e[k] * (1.0 - 1e-12))
      throw BadInput("key '" + inertiaKey + "' = " + formatNumber(e[0]) + "," + formatNumber(e[1]) + "," +
                     formatNumber(e[2]) + ": violates the triangle inequality " + names[i] + " + " + names[j] +
                     " >= " + names[k] + " (" + formatNumber(e[i] + e[j]) + " < " + formatNumber(e[k]) +
                     "); no physical body has these moments");
  }
}

Matrix6d generalizedInertia(const RigidBodyInertia& inertia) {
  Matrix6d II = Matrix6d::Zero();
  II.topLeftCorner<3, 3>() = inertia.J;
  II.bottomRightCorner<3, 3>() = inertia.mass * Matrix3d::Identity();
  return II;
}

double kineticEnergyOfMomentum(const RigidBodyInertia& inertia, const Vector6d& mu) {
  const Vector3d pi = mu.head<3>(), p = mu.tail<3>();
  return 0.5 * (pi.dot(inertia.J.ldlt().solve(pi)) + p.squaredNorm() / inertia.mass);
}

double kineticEnergyOfTwist(const RigidBodyInertia& inertia, const Vector6d& xi) {
  const Vector3d w = xi.head<3>(), v = xi.tail<3>();
  return 0.5 * (w.dot(inertia.J * w) + inertia.mass * v.squaredNorm());
}

double gravityPotential(double mass, const Vector3d& gravity, const se3::Pose& g) { return -mass * gravity.dot(g.x); }

Vector6d gravityWrench(double mass, const Vector3d& gravity, const se3::Pose& g) {
  Vector6d f;
  f << Vector3d::Zero(), g.R.transpose() * (mass * gravity);
  return f;
}

WrenchField makeWrenchField(double mass, BodyWrenchTerms terms) {
  return [mass, terms = std::move(terms)](const se3::Pose& g, const Vector6d& xi, double t) -> Vector6d {
    Vector6d f = gravityWrench(mass, terms.gravity, g) + terms.control;
    if (terms.external) f += terms.external(g, xi, t);
    return f;
  };
}

WrenchField gravityField(double mass, const Vector3d& gravity) {
  return [mass, gravity](const se3::Pose& g, const Vector6d&, double) { return gravityWrench(mass, gravity, g); };
}

Vector6d controlWrench(const Eigen::Matrix<double, 6, Eigen::Dynamic>& F, const Eigen::VectorXd& u) {
  if (F.cols() != u.size())
    throw BadInput("control matrix F has " + std::to_string(F.cols()) + " columns but the input has " +
                   std::to_string(u.size()) + " entries");
  return F * u;
}

Vector3d equivalentBoxSize(double mass, const Vector3d& J) {
  // a^2 = 6 (J2 + J3 - J1)/m etc. (from J1 = m (b^2 + c^2)/12); clamp round-off negatives.
  Vector3d side;
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    side[k] = std::sqrt(std::max(0.0, 6.0 * (J[i] + J[j] - J[k]) / mass));
  }
  const double minSide = 0.02 * side.maxCoeff();
  return side.cwiseMax(minSide);
}

}  // namespace varsim
