// engine/integrators/floating_base.h — steppers for a free-floating multibody system on SE(3) x R^m (seed 002
// Sec. 5): the variational Lie group integrator of eqs. (62)-(64) with the Cayley retraction (ERRATA-corrected
// translation block, eq. (55) with w w^T/4) and Newton on an analytic Jacobian, and two explicit baselines on
// the continuous equations (48)-(49): forward Euler (the paper's comparison) and RK4 (Munthe-Kaas, exact dexp^-1).
//
// Index convention (ERRATA "index shift"): the segment g_k -> g_{k+1} carries v = (xi, dr), xi = cay^-1(g_k^-1
// g_{k+1})/h, dr = (r_{k+1} - r_k)/h. The LGVI keeps the NODE momentum P_k (left-trivialized at g_k; the
// discrete Legendre estimate of M(r_k) v(t_k), so P_0 = M(r_0) v(0) starts it at second order) and solves
//   S(h xi)^T (W v - h/2 f) - h/4 [0; v^T dM(r_k) v] + h/2 gradV(q_k) = P_k,    W = (M(r_k) + M(r_k + h dr))/2
//   P_{k+1} = S(-h xi)^T (W v + h/2 f) + h/4 [0; v^T dM(r_{k+1}) v] - h/2 gradV(q_{k+1})
// which, eliminating P, is eq. (64) with f_d^+ of (59) (f: generalized non-conservative force, constant over
// the step). The momentum map (65) with ERRATA's Ad_{g^-1}^T is J_k = Ad_{g_k^-1}^T P_k[0:6]: without base
// forces and gravity it is conserved exactly; joint torques (internal, rows 6..) leave it unchanged; a base
// wrench f_b changes it by the discrete impulse h/2 (Ad_{g_k^-1}^T C(h xi)^T + Ad_{g_k+1^-1}^T C(-h xi)^T) f_b.
//
// Gravity (LGVI): uniform gravity is removed EXACTLY by integrating in the free-falling frame x = x' + s(t),
// s_dot_dot = gamma (L' = L minus a total time derivative and a function of t), so the scheme above runs without
// its -h g* grad V term and s, s_dot are advanced exactly for piecewise-constant gamma. Why: with (64)'s potential
// term a falling base's body velocity grows without bound and, on SE(3), enters the rotation rows through the
// Cayley tangent (ERRATA "SE(3) vs SO(3)xR^3"): Newton failed after ~9 s of free fall at h = 0.1. pose(),
// velocity(), nodeMomentum(), momentumMap() and energy() are world quantities; the momentum map then changes by
// exactly M gamma h per step (linear) and the matching moment.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/floating/floating_chain.h"

namespace varsim::floating {

// Generalized forces held constant over a step (controls u_k).
struct FloatingForces {
  Vector6d baseWrench = Vector6d::Zero();  // body frame of the base: (torque about its origin; force), N m; N
  VectorXd jointTorque;                    // m entries (empty = zero), N m; internal, equal and opposite
  Vector3d gravity = Vector3d::Zero();     // uniform acceleration, world frame, m/s^2
};

enum class FloatingScheme { Lgvi, Euler, Rk4 };

struct FloatingOptions {
  FloatingScheme scheme = FloatingScheme::Lgvi;
  // Newton stops at |e| <= tol (|P_k| + h/2 (|f| + |gradV|)) (relative momentum residual, in [1e-16, 1e-6]);
  // an update made from |e| <= 0.1 sqrt(tol) scale is accepted unchecked (quadratic convergence).
  double newtonTolerance = 1e-14;
  int maxNewtonIterations = 30;  // >= 1; not converged -> substeps, then SimulationDiverged, state unchanged
  // Locks the joints (dr = 0, the joint rows become constraint reactions): the chain is one rigid body and
  // the LGVI reduces to seed 000's single-body Cayley LGVI with the composite inertia M(r)[0:6, 0:6].
  bool lockJoints = false;
};

class FloatingStepper {
 public:
  // Throws BadInput on bad options.
  FloatingStepper(const FloatingChain& chain, FloatingOptions options);

  // Starts at t = 0 from the continuous state (g0, r0, v0 = (xi0, rdot0)); h > 0 is the step.
  void initialize(const se3::Pose& g0, const VectorXd& r0, const VectorXd& v0, double h, const FloatingForces& f);
  // One step of the chosen scheme; throws SimulationDiverged (state unchanged) or BadInput (bad forces).
  void step(const FloatingForces& f);

  const se3::Pose& pose() const { return gWorld_; }  // base pose, world
  const VectorXd& r() const { return r_; }
  VectorXd velocity() const;                     // continuous estimate M(r)^-1 P (LGVI) / the state (explicit)
  VectorXd nodeMomentum() const;                 // P_k (LGVI) / M(r) v (explicit), base frame
  Vector6d momentumMap() const;                  // eq. (65): (L about the world origin; p), world frame
  double energy(const Vector3d& gravity) const;  // 1/2 v^T M v + V(g, r), J
  // (xi, dr) of the last segment (LGVI; in the free-falling frame under gravity).
  const VectorXd& segmentVelocity() const { return vSeg_; }
  int newtonIterations() const { return iterations_; }  // of the last step (summed over its substeps)
  // Equal substeps the last LGVI step took: 1 normally, 2^j (j <= 10) when Newton failed on the whole step.
  int substeps() const { return substeps_; }
  static constexpr int kMaxSubstepLevel = 10;  // at most 2^10 = 1024 substeps
  double time() const { return tAnchor_ + double(steps_) * h_; }  // t_k = k h exactly at constant h
  double stepSize() const { return h_; }
  void setStepSize(double h);  // keeps the state (P is the node momentum, independent of h)
  const FloatingChain& chain() const { return chain_; }
  const FloatingOptions& options() const { return options_; }

  std::vector<double> saveState() const;
  void loadState(const std::vector<double>& s);  // throws BadInput on a wrong size or non-finite data

  // The LGVI residual e(v) at the current node and its analytic Jacobian (exposed for the FD test); f.gravity is
  // not part of it (free-falling frame).
  VectorXd residual(const VectorXd& v, const FloatingForces& f, MatrixXd* jacobian) const;

 private:
  void checkForces(const FloatingForces& f) const;
  VectorXd generalizedForce(const FloatingForces& f) const;  // (base wrench; joint torques)
  void stepLgvi(const FloatingForces& f);  // plain step, else 2, 4, ..., 1024 equal substeps
  bool advanceLgvi(const FloatingForces& f, double h);  // one plain step of size h; false (state kept) if Newton fails
  VectorXd residual(const VectorXd& v, const FloatingForces& f, double h, MatrixXd* jacobian) const;
  void stepExplicit(const FloatingForces& f);
  // Continuous dynamics (48)-(49): v_dot at (g, r, v).
  VectorXd acceleration(const se3::Pose& g, const VectorXd& r, const VectorXd& v, const FloatingForces& f) const;

  const FloatingChain& chain_;
  FloatingOptions options_;
  se3::Pose g_;       // base pose in the free-falling frame (LGVI; = world without gravity and for Euler/RK4)
  se3::Pose gWorld_;  // g_ shifted by s_
  Vector3d s_ = Vector3d::Zero(), sdot_ = Vector3d::Zero();  // free-fall offset and velocity, world (LGVI)
  VectorXd r_, P_, v_, vSeg_;                                // P_: LGVI node momentum; v_: explicit schemes' velocity
  MatrixXd M_;                                               // M(r_k) and dM(r_k) of the current node (LGVI)
  std::vector<MatrixXd> dM_;
  double h_ = 0.01, tAnchor_ = 0.0;
  long steps_ = 0;  // since the anchor tAnchor_ (set at initialize and at each change of h)
  int iterations_ = 0, substeps_ = 1;
  bool initialized_ = false;
};

std::string schemeName(FloatingScheme s);

}  // namespace varsim::floating
