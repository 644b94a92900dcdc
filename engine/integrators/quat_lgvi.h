// engine/integrators/quat_lgvi.h — the Lie group variational integrator of seed 004 on R^3 x S^3 (unit quaternions, no
// normalisation, no multiplier): eqs. (23) stepped as in Sec. 4, for one rigid body in a potential V(x, q)
// (engine/models/rigid_potential.h). Conventions (ERRATA Seed 004): exp(xi) rotates by 2|xi|, Omega = 2 xi, w = 4 J xi
// = 2 J Omega (twice the body angular momentum); energy |p|^2/2m + w^T J^-1 w/8 + V; angular momentum x x p + pi(q) w /
// 2 (the discrete Noether quantity of the S^3 x R^3 symmetry, Sec. 5).
//
// One step (x0, q0, p0, w0) -> (x1, q1, p1, w1), all in eq. (23):
//   x1 = x0 + (h/m) (p0 - (h/2) dV/dx(x0, q0))                                   (explicit)
//   f = q0* q1 = (s, v), s = sqrt(1 - |v|^2) > 0, from the second line of (23) with G(f*) = s I + v^:
//       (4/h) G(f*) J v = w0 - (h/2) F(q0) dV/dq(x0, q0) =: b                     (Newton on the unit ball |v| < 1)
//   q1 = q0 f,  p1 = m (x1 - x0)/h - (h/2) dV/dx(x1, q1),
//   w1 = (4/h) G(f) J v - (h/2) F(q1) dV/dq(x1, q1)                              (explicit)
// The Newton Jacobian is analytic (s J - J v v^T / s + v^ J - (J v)^); the paper's finite-difference + Broyden
// Jacobian is not needed (the 3x3 costs less than one potential gradient). One gradient evaluation per step (the
// node's gradient is kept for the next step).
// q1 = q0 f is summed as q0 + q0 (f - 1) with the addition's round-off carried to the next step (compensated
// two-sum, 4 extra numbers of state): |q| = 1 to ~1e-16 for any number of steps, with no normalisation. (With a
// plain product |q| - 1 random-walks: 2.9e-14 after 1.25e5 steps of the Sec. 5 orbit.)
#pragma once

#include <memory>
#include <vector>

#include "engine/integrators/step_time.h"
#include "engine/lie/quaternion.h"
#include "engine/models/quat_rigid_body.h"

namespace varsim {

// Seed 004's maps for q = (q_s, q_v): Im(q (0, v)) = G(q)^T v with G(q) = q_s I - q_v^ (after eq. (20)), and q (0, v) =
// F(q)^T v with F(q) = (-q_v, q_s I - q_v^) (3x4, after eq. (13)).
Matrix3d quatG(const quat::Quat& q);
Eigen::Matrix<double, 3, 4> quatF(const quat::Quat& q);

struct QuatLgviOptions {
  // Newton stops when |r| <= newtonTolerance |b h/4| (r the rotation residual; relative, in [1e-16, 1e-6]) or when
  // it stalls at the round-off floor below 1e-10 |b h/4|. An update computed from a residual <= 0.1 sqrt(tol) |b h/4|
  // is accepted without a new residual (quadratic convergence puts the next one below tol |b h/4|). Exact momentum
  // conservation needs the round-off end.
  double newtonTolerance = 1e-15;
  int maxNewtonIterations = 30;  // >= 1; exceeded -> SimulationDiverged
};

class QuatLgvi {
 public:
  // Throws BadInput on invalid inertia/options or a null potential.
  QuatLgvi(RigidBodyInertia inertia, std::shared_ptr<const RigidPotential> potential, QuatLgviOptions options = {});

  // Sec. 4 steps (1)-(2): q0 given (normalised here; BadInput if |q0| is 0 or not finite), p0 = m xdot0, w0 = 2 J
  // Omega0.
  void initialize(const Vector3d& x0, const quat::Quat& q0, const Vector3d& xdot0, const Vector3d& omega0, double t0);
  // One step of eq. (23). Throws SimulationDiverged (state unchanged) when Newton fails or would leave the unit
  // ball, or anything is non-finite; BadInput on h <= 0 or before initialize. Solvability: for J = j I the rotation
  // line reads (4/h) j s |v| = |b| with s |v| = sin(phi)/2 (phi = 2 asin|v| the rotation of the step), at most 1/2
  // at phi = pi/2, so a solution exists only for h |Omega| <= 1 (tests/test_quat_lgvi.cpp).
  void step(double h);

  const QuatRigidState& state() const { return s_; }           // node k of the discrete flow (Sec. 4 step 3)
  const PotentialGradient& gradient() const { return grad_; }  // at the current node
  const Vector3d& lastImagStep() const { return v_; }          // v = Im(q_k* q_k+1) of the last step
  Matrix3d rotation() const { return quat::toRotation(s_.q); }
  Vector3d omega() const;          // body angular velocity Omega = J^-1 w / 2, rad/s
  double kineticEnergy() const;    // |p|^2/2m + w^T J^-1 w / 8, J
  double potentialEnergy() const;  // V(x, q), J
  double energy() const { return kineticEnergy() + potentialEnergy(); }
  Vector3d angularMomentum() const;  // x x p + pi(q) w / 2, about the world origin
  int newtonIterations() const { return newtonIterations_; }
  double time() const { return clock_.now(); }
  const RigidBodyInertia& inertia() const { return inertia_; }
  const QuatLgviOptions& options() const { return options_; }

  // Layout (24 numbers): x (3), q (4), p (3), w (3), v (3), round-off part of q (4), t_anchor, steps since anchor, h,
  // newton iterations. The node gradient is recomputed on load (a pure function of (x, q): bit-identical).
  std::vector<double> saveState() const;
  void loadState(const std::vector<double>& state);  // BadInput on a wrong size or non-finite entries

 private:
  // Solves (4/h) G(f*) J v = b for v on the unit ball; returns false (v untouched) on failure.
  bool solveRotation(double h, const Vector3d& b, Vector3d& v, int& iterations) const;

  RigidBodyInertia inertia_;
  Matrix3d Jinv_;
  std::shared_ptr<const RigidPotential> potential_;
  QuatLgviOptions options_;
  QuatRigidState s_;
  PotentialGradient grad_;
  Vector3d v_ = Vector3d::Zero();
  quat::Quat qLo_ = quat::Quat::Zero();  // q_k = s_.q + qLo_ exactly as summed (compensated update)
  StepTime clock_;
  int newtonIterations_ = 0;
  bool initialized_ = false;
};

}  // namespace varsim
