// engine/models/central_field.cpp — potential and gradients of a ball cluster around a central point mass.
#include "engine/models/central_field.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace varsim {

double CentralFieldPotential::value(const Vector3d& x, const Matrix3d& R) const {
  double V = 0.0;
  for (size_t i = 0; i < body_.centres.size(); ++i) V -= gm_ * body_.masses[i] / (x + R * body_.centres[i]).norm();
  return V;
}

PotentialGradient CentralFieldPotential::gradient(const Vector3d& x, const Matrix3d& R) const {
  PotentialGradient g;
  for (size_t i = 0; i < body_.centres.size(); ++i) {
    const Vector3d y = x + R * body_.centres[i];
    const double r = y.norm();
    const Vector3d dVdy = (gm_ * body_.masses[i] / (r * r * r)) * y;  // = -(force on ball i)
    g.dVdx += dVdy;
    // d/de V(R exp(2 e eta^)): dy = R (2 eta x rho) -> eta . 2 rho x (R^T dV/dy).
    g.FdVdq += 2.0 * body_.centres[i].cross(R.transpose() * dVdy);
  }
  return g;
}

double CentralFieldPotential::clearance(const Vector3d& x, const Matrix3d& R) const {
  double d = std::numeric_limits<double>::infinity();
  for (const Vector3d& c : body_.centres) d = std::min(d, (x + R * c).norm());
  return d - body_.radius;
}

double keplerClosestApproach(const Vector3d& x, const Vector3d& v, double mu) {
  const double r = x.norm(), h2 = x.cross(v).squaredNorm();
  const double energy = 0.5 * v.squaredNorm() - mu / r;  // per unit mass
  if (energy >= 0.0 && x.dot(v) >= 0.0) return r;
  const double e = std::sqrt(std::max(0.0, 1.0 + 2.0 * energy * h2 / (mu * mu)));
  return (h2 / mu) / (1.0 + e);
}

}  // namespace varsim
