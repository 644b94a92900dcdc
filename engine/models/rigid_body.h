// engine/models/rigid_body.h — the free rigid body as a model: inertia (mass, body inertia tensor)
// with validation, the body-wrench field type shared by every rigid-body integrator (LGVI, RK4) and
// vehicle models, gravity/control/external wrench composition, and energy/momentum helpers.
// Conventions (lie_types.h): twists xi = (omega, v) in the body frame, wrenches (torque; force) in the
// body frame, momenta (angular; linear). Frames: p_world = R p_body + x, x the centre of mass.
#pragma once

#include <functional>
#include <string>

#include "engine/lie/se3.h"

namespace varsim {

// Body-frame wrench (torque about the centre of mass; force) acting at a node, as a function of the
// pose, the last segment velocity (the continuous velocity for RK4) and time (seed 000 eq. (10):
// f_ext((R_k, x_k), (omega_{k-1}, v_{k-1})) + F(gamma_k) u_k).
using WrenchField = std::function<Vector6d(const se3::Pose& g, const Vector6d& xi, double t)>;

struct RigidBodyInertia {
  double mass = 1.0;                      // kg, > 0; translational inertia M = mass * I3
  Eigen::Matrix3d J = Matrix3d::Identity();  // kg m^2, body frame about the centre of mass (principal or full)
};

// Principal moments (J1, J2, J3) -> inertia with J = diag. No validation (see validateInertia).
RigidBodyInertia principalInertia(double mass, const Vector3d& moments);

// Throws BadInput unless mass > 0 and finite, J finite, symmetric (to 1e-12 relative) and positive
// definite: what the integrators need. `massKey`/`inertiaKey` name the parameters in the message.
void validateInertia(const RigidBodyInertia& inertia, const std::string& massKey = "mass",
                     const std::string& inertiaKey = "inertia");
// Additionally requires the principal moments to satisfy J1 + J2 >= J3 (and permutations), which every
// mass distribution obeys (J_i = int (|r|^2 - r_i^2) dm). Scenes check this; the integrators do not,
// because the reference body of reference/README.md (J = diag(2, 4, 7)) violates it.
void validatePhysicalInertia(const RigidBodyInertia& inertia, const std::string& massKey = "mass",
                             const std::string& inertiaKey = "inertia");

// The 6x6 generalized inertia II = diag(J, m I3) of seed 000 Sec. 4 (order (angular, linear)).
Matrix6d generalizedInertia(const RigidBodyInertia& inertia);

// Kinetic energy of a body momentum mu = (pi, p_b): 1/2 mu^T II^{-1} mu.
double kineticEnergyOfMomentum(const RigidBodyInertia& inertia, const Vector6d& mu);
// Kinetic energy of a body twist: 1/2 xi^T II xi.
double kineticEnergyOfTwist(const RigidBodyInertia& inertia, const Vector6d& xi);
// Potential of a uniform gravity field g (world, m/s^2): V = -m g . x (zero at the world origin).
double gravityPotential(double mass, const Vector3d& gravity, const se3::Pose& g);

// Body wrench of uniform gravity: (0; R^T m g) (seed 000 Sec. 4.3.1, no torque about the c.o.m.).
Vector6d gravityWrench(double mass, const Vector3d& gravity, const se3::Pose& g);

// The total body wrench a vehicle feels at a node: gravity + body-fixed control F(gamma) u (already
// multiplied, seed 000 eq. (10)) + an optional external field (drag, buoyancy, waves...). The returned
// field copies its arguments; rebuild it when the control changes (once per step is cheap).
struct BodyWrenchTerms {
  Vector3d gravity = Vector3d::Zero();   // m/s^2, world frame
  Vector6d control = Vector6d::Zero();   // F(gamma_k) u_k, body frame (torque; force)
  WrenchField external;                  // may be empty
};
WrenchField makeWrenchField(double mass, BodyWrenchTerms terms);
WrenchField gravityField(double mass, const Vector3d& gravity);  // gravity only
// Control wrench F(gamma) u for a 6 x c control matrix; throws BadInput on a size mismatch.
Vector6d controlWrench(const Eigen::Matrix<double, 6, Eigen::Dynamic>& F, const Eigen::VectorXd& u);

// Corner-to-corner extents of the homogeneous box with the same mass and principal moments
// (J1 = m(b^2+c^2)/12, ...), used for drawing. A flat body (equality in the triangle inequality)
// gets a thickness of 2 % of its largest side so it stays visible.
Vector3d equivalentBoxSize(double mass, const Vector3d& principalMoments);

}  // namespace varsim
