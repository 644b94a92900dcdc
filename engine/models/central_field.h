// engine/models/central_field.h — a ball cluster in the field of a central point mass at the world origin (seed 004
// Sec. 5): V(x, R) = -sum_i gm m_i / |x + R rho_i|, exact for uniform balls outside the centre (shell theorem), with
// the spin-orbit coupling torque this sum produces.
#pragma once

#include <utility>

#include "engine/models/ball_cluster.h"
#include "engine/models/rigid_potential.h"

namespace varsim {

class CentralFieldPotential : public RigidPotential {
 public:
  // gm: gravitational parameter of the central mass, m^3/s^2 (> 0; not checked here, scenes validate).
  CentralFieldPotential(BallCluster body, double gm) : body_(std::move(body)), gm_(gm) {}
  double value(const Vector3d& x, const Matrix3d& R) const override;
  // dV/dx = sum gm m_i y_i/|y_i|^3, FdVdq = 2 sum gm m_i rho_i x (R^T y_i)/|y_i|^3, y_i = x + R rho_i.
  PotentialGradient gradient(const Vector3d& x, const Matrix3d& R) const override;
  // min_i |x + R rho_i| - radius: the closest a ball surface comes to the centre, m.
  double clearance(const Vector3d& x, const Matrix3d& R) const;
  const BallCluster& body() const { return body_; }
  double gm() const { return gm_; }

 private:
  BallCluster body_;
  double gm_;
};

// Closest approach to the centre still ahead of a point mass on the Kepler orbit of (x, v) about mu = gm (m^3/s^2):
// the periapsis p/(1 + e), or |x| itself when the orbit is unbound and already receding (x . v >= 0). A radial
// orbit (x x v = 0) that is bound or approaching gives 0. The centre of mass of a small body follows this orbit up
// to tidal terms O((size/r)^2).
double keplerClosestApproach(const Vector3d& x, const Vector3d& v, double mu);

}  // namespace varsim
