// engine/models/rigid_potential.h — a potential V(x, R) of one rigid body (centre of mass x, attitude R), given through
// the two gradients the quaternion LGVI of seed 004 needs: dV/dx (eq. (19)) and F(q) dV/dq (eqs. (14), (22)), the
// latter written through R = pi(q) so every integrator (quaternion, SO(3)xR^3, RK4) shares one law. Uniform gravity
// lives here; the central field of point masses is engine/models/central_field.h.
#pragma once

#include <memory>

#include "engine/lie/quaternion.h"
#include "engine/models/rigid_body.h"

namespace varsim {

// Gradients of V at (x, R). FdVdq is F(q) dV/dq of seed 004 (eq. (14)): eta . FdVdq = d/de V(x, q exp(e eta)) at e = 0,
// i.e. the derivative along R -> R exp(2 e eta^) (exp(eta) rotates by 2|eta|, ERRATA Seed 004). Hence FdVdq = -2 tau
// with tau the body-frame torque about the centre of mass.
struct PotentialGradient {
  Vector3d dVdx = Vector3d::Zero();                     // J/m, world frame
  Vector3d FdVdq = Vector3d::Zero();                    // J, body frame
  Vector3d bodyTorque() const { return -0.5 * FdVdq; }  // N m, body frame, about the centre of mass
};

class RigidPotential {
 public:
  virtual ~RigidPotential() = default;
  virtual double value(const Vector3d& x, const Matrix3d& R) const = 0;  // J
  virtual PotentialGradient gradient(const Vector3d& x, const Matrix3d& R) const = 0;
};

// V = -m g . x: no torque (the centre of mass is the body origin).
class UniformGravityPotential : public RigidPotential {
 public:
  UniformGravityPotential(double mass, const Vector3d& gravity) : mass_(mass), gravity_(gravity) {}
  double value(const Vector3d& x, const Matrix3d& R) const override;
  PotentialGradient gradient(const Vector3d& x, const Matrix3d& R) const override;

 private:
  double mass_;
  Vector3d gravity_;
};

// The body wrench (torque; force), body frame, of V for the rigid-body integrators driven by a WrenchField (LgviSe3 on
// SO(3)xR^3 or SE(3), Rk4RigidBody): (-FdVdq/2; -R^T dV/dx). Keeps a reference-counted V.
WrenchField potentialWrenchField(std::shared_ptr<const RigidPotential> potential);

}  // namespace varsim
