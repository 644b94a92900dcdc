// engine/models/quat_rigid_body.h — the rigid body of seed 004 lifted to T*(R^3 x S^3): the state (x, q, p, w), its
// energy and angular momentum, and the continuous equations of motion (15) with the ERRATA sign,
//   m xdd = -dV/dx,   4 J xi' + 8 xi x (J xi) = -F(q) dV/dq,   q' = q (0, xi),
// written for w = 4 J xi: x' = p/m, p' = -dV/dx, q' = q (0, J^-1 w/4), w' = -2 xi x w - F(q) dV/dq. (The printed sign,
// +F dV/dq, does not conserve the energy; tests/test_quat_lgvi.cpp shows both.)
#pragma once

#include <vector>

#include "engine/lie/quaternion.h"
#include "engine/models/rigid_potential.h"

namespace varsim {

struct QuatRigidState {
  Vector3d x = Vector3d::Zero();    // m, centre of mass, world
  quat::Quat q = quat::identity();  // body -> world (unit for the LGVI; RK4 lets it drift)
  Vector3d p = Vector3d::Zero();    // kg m/s, linear momentum, world
  Vector3d w = Vector3d::Zero();    // kg m^2/s, w = 4 J xi = 2 J Omega, body
};

// Sec. 4 step (2): p = m xdot, w = 2 J Omega; q is normalised (BadInput if zero or not finite).
QuatRigidState quatRigidStateFrom(const RigidBodyInertia& inertia, const Vector3d& x, const quat::Quat& q,
                                  const Vector3d& xdot, const Vector3d& omega);
// Omega = J^-1 w / 2 (rad/s, body).
Vector3d quatRigidOmega(const RigidBodyInertia& inertia, const QuatRigidState& s);
// |p|^2/2m + w^T J^-1 w / 8 (J).
double quatRigidKineticEnergy(const RigidBodyInertia& inertia, const QuatRigidState& s);
// x x p + pi(q) w / 2 about the world origin (pi(q) from q/|q|).
Vector3d quatRigidAngularMomentum(const QuatRigidState& s);
// Saved-state layout shared by the integrators on this state: x (3), q (4), p (3), w (3) -> 13 numbers.
void appendQuatRigidState(const QuatRigidState& s, std::vector<double>& out);
QuatRigidState quatRigidStateFromNumbers(const double* d);  // reads 13 numbers, no checks

// Time derivative of the state under V (eq. (15), ERRATA sign); V is evaluated at the rotation of q/|q|.
QuatRigidState quatRigidRates(const RigidBodyInertia& inertia, const RigidPotential& V, const QuatRigidState& s);

}  // namespace varsim
