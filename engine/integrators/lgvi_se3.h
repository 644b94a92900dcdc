// engine/integrators/lgvi_se3.h — the holonomic Lie group variational integrator of seed 000 eqs. (9)-(10)
// (Fig. 6, App. A) for one rigid body, with the ERRATA fixes: correct SE(3) Cayley translation block,
// xi = (omega, v), discrete-Legendre start, explicit-Euler Newton predictor, exact dexp^{-1} offered next
// to the printed truncation. Groups: SE(3) as in the paper, or SO(3)xR^3 (rotation on SO(3), translation
// in R^3), which removes the gravity-induced attitude error of the SE(3) scheme (see LgviGroup).
//
// One step (node k -> k+1), with mu^-_k the LEFT body momentum at node k and f_k = f(g_k, xi_{k-1}, t_k):
//   C(h xi_k)^T II xi_k = mu^-_k + h f_k                         (seed 000 eq. (10), solved by Newton)
//   g_{k+1} = g_k tau(h xi_k),   mu^-_{k+1} = C(-h xi_k)^T II xi_k   (eq. (9) and the next left momentum)
// Start (ERRATA "initialization"): mu^-_0 = II xi(0) - (h/2) f_0, so that the first solve reads
// C(h xi_0)^T II xi_0 = II xi(0) + (h/2) f_0 (the discrete Legendre transform). Feeding xi(0) in as
// xi_{-1} (App. A) makes the scheme first order; initializeFromPreviousVelocity keeps that variant for
// the test that shows it.
//
// Optional END-OF-STEP (implicit) wrench f^+ (step's third argument; see ImplicitWrench): eq. (10) becomes
//   C(h xi_k)^T II xi_k = mu^-_k + h f_k + h Tr(xi_k) f^+(g_{k+1}, xi_k^+, t_{k+1}),  g_{k+1} = g_k tau(h xi_k),
// solved by a full 6x6 Newton with the exact Jacobian (lgvi_se3_implicit.cpp). Stiff penalty contact, drag,
// buoyancy belong here: for a linear spring F = -K x this is x_{k+1} = x_k + h v_k, m v_k = m v_{k-1} - h K x_{k+1}
// (backward Euler in the force), |lambda|^2 = 1/(1 + h^2 w^2) < 1 for every h w, and the discrete energy
// 1/2 m v_{k-1}^2 + 1/2 K x_k^2 decreases by 1/2 m dv^2 + 1/2 K dx^2 each step (never gains), whereas the
// explicit node force f_k is the symplectic-Euler spring, unstable for h w > 2 (issue 15 item 10).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/integrators/step_time.h"
#include "engine/lie/se3.h"
#include "engine/models/rigid_body.h"

namespace varsim {

// SE3: the paper's scheme; the translation update uses B_tau(h omega) and, for tau = cay or exp with
//      the matching C, the rotation equation contains v (e.g. C_cay adds (h/2) v x (D^T m v)): a fast
//      falling torque-free body gets a spurious attitude error that grows with |v| (ERRATA, 0.048 rad
//      after 4 s at h = 0.01 in rigid_body_falling.csv).
// SO3xR3: rotation R_{k+1} = R_k tau(h omega_k) with the SO(3) block of C; translation
//      x_{k+1} = x_k + h xdot_k, m xdot_k = m xdot_{k-1} + h F_k (world frame, Stoermer-Verlet).
//      The discrete Lagrangian h(1/2 w^T J w + 1/2 m |dx/h|^2) is still SE(3)-invariant, so the spatial
//      momentum is conserved exactly as well, but the rotation equation no longer sees v: gravity (no
//      torque) leaves the attitude history identical to free flight. Better for vehicles under gravity.
enum class LgviGroup { SE3, SO3xR3 };

struct LgviOptions {
  LgviGroup group = LgviGroup::SE3;
  Retraction retraction = Retraction::Cay;  // tau in g_{k+1} = g_k tau(h xi_k)
  // C in eq. (10). Exact momentum conservation for (Cay, Cay) and (Exp, Exp). Measured otherwise
  // (tests/test_lgvi_se3.cpp): SE(3) (cay, Tln) drifts as O(h^2) (ERRATA) but conserves the energy
  // exactly; (exp, ExpTrunc) drifts as O(h^4); mismatched pairs drift as O(h^2). On SO3xR3, (cay, Tln)
  // conserves momentum exactly too, because cay(w) (I - w^/2) = I + w^/2 (the C_cay - C_TLN difference
  // w w^T/4 is invariant under cay(w)).
  Tangent tangent = Tangent::Cay;
  // Newton stops when |residual| <= newtonTolerance * |mu^-_k + h f_k| (relative momentum residual,
  // dimensionless, in [1e-16, 1e-6]), or when it stalls at the round-off floor. An update made from a
  // residual <= 0.1 sqrt(tol) |b| is accepted without re-evaluation (quadratic convergence puts the
  // next residual below tol/100), so steps usually end at round-off: that is what the exact momentum
  // conservation of the matched pairs needs over 10^4 steps; 1e-14 alone would allow ~1e-11 drift.
  double newtonTolerance = 1e-14;
  int maxNewtonIterations = 25;  // iteration cap per step, >= 1; exceeded -> SimulationDiverged
  // SE(3) with C = Cay or Tln: eliminate v in closed form (the linear rows are linear in v) and run a
  // 3x3 Newton on omega. false: full 6x6 Newton on xi (the reference path; same solution to round-off).
  bool reducedNewton = true;
  // A step whose Newton fails is retried in 2^j equal substeps, j = 1..maxSubstepLevel (0..10; 0: no retry, the
  // failure is thrown). The integrator study sets 0: it measures each method at the step h it names.
  int maxSubstepLevel = 10;
};

// d f^+ of an end-of-step wrench, both 6x6 with columns (omega, v) / (theta, y):
struct ImplicitWrenchJacobian {
  // w.r.t. the pose, perturbed in its body frame to first order: R -> R exp(theta^), x -> x + R y
  // (the same at first order for g exp(eta) on SE(3) and for the SO(3)xR^3 perturbation).
  Matrix6d dPose = Matrix6d::Zero();
  Matrix6d dXi = Matrix6d::Zero();  // w.r.t. the twist xi^+ at fixed pose
};
// The end-of-step wrench hook of LgviSe3::step. Called with
//   g   = g_{k+1} = g_k tau(h xi_k) (exactly the pose the step commits),
//   xi  = xi_k^+, the segment twist expressed in the body frame of g_{k+1}: xi_k itself on SE(3) (tau(h xi)
//         commutes with xi), (omega_k, R_{k+1}^T xdot_k) on SO(3)xR^3 (so R (v + omega x r) is the world
//         velocity of body point r over the segment on both groups),
//   t   = t_{k+1}.
// Returns the BODY wrench (torque about the centre of mass; force) in the frame of g. When jac != nullptr it
// must also fill both partial derivatives (exact where possible: Newton converges quadratically only with
// the exact Jacobian; tests/test_lgvi_se3.cpp checks the chain rule, the owner checks its partials against
// finite differences). Must be deterministic and finite; called several times per step (each Newton
// iterate). The LGVI rotates f^+ into the axes of node k (Tr = diag(dR, dR), dR = tau_SO3(h omega_k): a
// torque about the centre of mass and a force, on both groups) and adds h Tr f^+ to eq. (10) at node k.
using ImplicitWrench =
    std::function<Vector6d(const se3::Pose& g, const Vector6d& xi, double t, ImplicitWrenchJacobian* jac)>;

// Outcome of one Newton solve of eq. (10) (iterations, convergence, final relative residual).
struct LgviNewtonOutcome {
  int iterations = 0;
  bool converged = false;
  double relativeResidual = 0.0;
};

class LgviSe3 {
 public:
  // Throws BadInput on invalid inertia (validateInertia) or options.
  LgviSe3(RigidBodyInertia inertia, LgviOptions options = {});

  // Discrete-Legendre start at node 0: g_0 = g0, mu^-_0 = II xi0 - (h/2) f(g0, xi0, t0). xi0 is the
  // continuous body velocity at t0; it also serves as the "last segment velocity" seen by f at node 0.
  void initialize(const se3::Pose& g0, const Vector6d& xi0, double t0, double h, const WrenchField& f);
  // App. A start (ERRATA: first order): mu^-_0 = C(-h xi0)^T II xi0, i.e. xi_{-1} := xi0.
  void initializeFromPreviousVelocity(const se3::Pose& g0, const Vector6d& xi0, double t0, double h);

  // Solves xi_k from mu^-_k + h f_k, updates g, mu^-, t. If h differs from the previous step, the
  // left momentum is first re-initialised consistently: the node momentum mu^-_k + (h_old/2) f_k (the
  // discrete Legendre estimate of II xi(t_k)) is kept, so mu^-_k becomes mu^-_k + ((h_old - h)/2) f_k
  // (unchanged when no force acts: momentum stays exactly conserved across h changes).
  // Throws SimulationDiverged (state unchanged) on Newton failure or any non-finite value; BadInput
  // on h <= 0 or before initialize.
  // fEnd (optional): the end-of-step wrench (ImplicitWrench above; empty = the plain scheme, bit-identical
  // to a call without it). With fEnd both groups solve a full 6x6 Newton (reducedNewton is ignored: the
  // wrench couples rotation and translation) with a backtracking line search on |r| (penalty contact is
  // only piecewise smooth), up to max(maxNewtonIterations, 50) iterations. With or without fEnd, a step whose
  // Newton fails is split into 2, 4, ..., 2^maxSubstepLevel (default 1024) equal substeps (each a plain step of the scheme, f evaluated at
  // each substep node; a step that converges at once is unchanged, bit for bit) before SimulationDiverged is
  // thrown: the rigid body at omega 1000 and gravity 1000 per axis failed at t = 2.2 s (h|omega| = 4.1 rad).
  void step(double h, const WrenchField& f, const ImplicitWrench& fEnd = {});
  // Spatial impulse (world; angular about the origin, linear) the last step applied to the left momentum:
  // Ad*_{g_{k+1}^-1} mu^-_{k+1} - Ad*_{g_k^-1} mu^-_k = ((h_old - h)/2) Ad*_{g_k^-1} f_k (h change) +
  // h Ad*_{g_k^-1} (f_k + Tr f^+) (exact for the matched pairs; summed over substeps). Not saved state.
  const Vector6d& lastStepImpulse() const { return stepImpulse_; }
  int lastSubsteps() const { return substeps_; }  // 1, or 2..1024 when the fallback split the last step
  // f^+ of the last step as the hook returned it (body frame of the new node g_{k+1}): the end-of-step wrench
  // is f(g_{k+1}, xi_k) -- a wrench AT node k+1, like the explicit f_{k+1} = f(g_{k+1}, xi_k); only the equation
  // it enters differs. Zero after a step without fEnd and after loadState.
  const Vector6d& implicitWrenchAtEnd() const { return implicitWrenchAtEnd_; }
  // Tr(xi) f^+(g_k tau(h xi), xi^+, t + h) from the current node for a trial xi, and its total Jacobian
  // d/dxi (chain rule through g_{k+1}, xi^+ and Tr); what the Newton of step() uses. Exposed for tests.
  Vector6d endOfStepWrench(double h, const Vector6d& xi, const ImplicitWrench& fEnd, Matrix6d* jacobian,
                           Vector6d* raw = nullptr) const;  // raw: f^+ before the rotation Tr
  // Discrete work of body wrenches over the last segment: (h/2)(fStart . xi_k + fEnd . xi_k^+), fStart given
  // in the body frame of node k, fEnd in that of node k+1 (xi_k^+ as for ImplicitWrench). For node wrenches
  // f_k, f_{k+1} this is the scheme's own work: on SO(3)xR^3 the kinetic energy of the node momenta changes
  // by the sum of these terms plus the telescoping (h^2/8m)(|F_{k+1}|^2 - |F_k|^2) (F: total node force).
  double segmentWork(const Vector6d& fStart, const Vector6d& fEnd) const;

  // Changes group/retraction/tangent/Newton settings; keeps the state (pose, mu^-, time).
  void setOptions(const LgviOptions& options);
  const LgviOptions& options() const { return options_; }
  const RigidBodyInertia& inertia() const { return inertia_; }

  const se3::Pose& pose() const { return g_; }
  const Vector6d& xi() const { return xiPrev_; }  // last segment velocity xi_{k-1} (body, (omega, v))
  const Vector6d& momentumBody() const { return muMinus_; }  // mu^-_k, body frame (angular about c.o.m.; linear)
  // (L about the world origin; p) = Ad*_{g^-1} mu^-: L = R pi + x x R p_b, p = R p_b.
  Vector6d spatialMomentum() const { return se3::spatialMomentum(g_, muMinus_); }
  // mu^-_k + (h/2) f_k: the momentum AT node k (average of left and right momenta); equals II xi(0) at
  // node 0. Its kinetic energy plus the potential is conserved exactly under constant forces.
  Vector6d nodeMomentumBody(const WrenchField& f) const;
  double energy() const;  // 1/2 mu^-^T II^{-1} mu^- (kinetic energy of the left momentum), J
  int newtonIterations() const { return newtonIterations_; }  // Newton updates in the last step
  double time() const { return clock_.now(); }
  double stepSize() const { return clock_.h; }  // h of the last step (or of initialize)

  // Layout (28 numbers): R (9, column-major), x (3), mu^- (6), xi_{k-1} (6), t_anchor, steps since
  // anchor, h, newton iterations. Time is t_anchor + n h so that t_k = k h exactly at constant h.
  std::vector<double> saveState() const;
  void loadState(const std::vector<double>& state);  // throws BadInput on a wrong size/non-finite data

 private:
  struct Solution {
    Vector6d xi = Vector6d::Zero();
    LgviNewtonOutcome newton;
    Vector6d fEnd = Vector6d::Zero();     // Tr f^+ at the solution (implicit path only)
    Vector6d fEndRaw = Vector6d::Zero();  // f^+ itself (frame of g_{k+1})
  };
  Solution solveStep(double h, const Vector6d& b, const Vector6d& fk) const;
  // One step of size h, committed on success; returns the failure message (state unchanged) instead of throwing
  // for a Newton failure, a dexp^-1 pole or a non-finite result.
  std::string advance(double h, const WrenchField& f, const ImplicitWrench& fEnd);
  // The fallback of step() after a Newton failure: 2^j equal substeps, j = 1..maxSubstepLevel; false (state as
  // before) if every split failed.
  bool stepInSubsteps(double h, const WrenchField& f, const ImplicitWrench& fEnd);
  Solution solveStepImplicit(double h, const Vector6d& b, const Vector6d& fk, const ImplicitWrench& fEnd) const;
  Vector6d predictor(double h, const Vector6d& fk) const;  // explicit-Euler xi_k^0 (ERRATA), full 6 components
  // g_{k+1} = g_k tau(h xi) (eq. (9) on SE(3); R_k tau(h w), x_k + h R_k v on SO(3)xR^3); also returns the
  // segment motion T = tau(h xi) (SO(3)xR^3: (tau_SO3(h w), h v)).
  se3::Pose nextPose(double h, const Vector6d& xi, se3::Pose* segment = nullptr) const;

  RigidBodyInertia inertia_;
  LgviOptions options_;
  Matrix3d Jinv_;
  se3::Pose g_;
  Vector6d muMinus_ = Vector6d::Zero();
  Vector6d xiPrev_ = Vector6d::Zero();
  StepTime clock_;
  int newtonIterations_ = 0;
  bool initialized_ = false;
  Vector6d implicitWrenchAtEnd_ = Vector6d::Zero();
  Vector6d stepImpulse_ = Vector6d::Zero();
  int substeps_ = 1;
};

// ---- One step of eqs. (9)-(10) as pure functions of the node (g_k, t_k) and a trial segment twist xi = xi_k: what
// LgviSe3::step solves and commits (it calls exactly these) and what the DMOC transcriptions (engine/control/*_dmoc)
// impose as constraints, so the planner and the simulator share one code path. No integrator state.
// Pose perturbations are body-frame, first order: R -> R exp(theta^), x -> x + R y (as ImplicitWrenchJacobian).

// Eq. (9): g_{k+1} = g_k tau(h xi) on SE(3); (R_k tau(h w), x_k + h R_k v) on SO(3)xR^3. segment: tau(h xi)
// (SO(3)xR^3: (tau_SO3(h w), h v)).
se3::Pose lgviNextPose(const LgviOptions& o, const se3::Pose& g, double h, const Vector6d& xi,
                       se3::Pose* segment = nullptr);
// The next left momentum mu^-_{k+1} = C(-h xi)^T II xi (SO(3)xR^3: (C_SO3(-h w)^T J w, dR^T m v), the world-fixed
// linear momentum in the axes of node k+1); dXi (optional): its exact derivative d/dxi.
Vector6d lgviNextMomentum(const RigidBodyInertia& inertia, const LgviOptions& o, double h, const Vector6d& xi,
                          Matrix6d* dXi = nullptr);
// Tr(xi) f^+(g_k tau(h xi), xi^+, t_k + h) (see ImplicitWrench; the member LgviSe3::endOfStepWrench at its node).
// dXi: total derivative d/dxi; dPose: derivative w.r.t. the body perturbation (theta, y) of g_k; raw: f^+.
Vector6d lgviEndOfStepWrench(const LgviOptions& o, const se3::Pose& gk, double tk, double h, const Vector6d& xi,
                             const ImplicitWrench& fEnd, Matrix6d* dXi, Vector6d* raw = nullptr,
                             Matrix6d* dPose = nullptr);
// Eq. (10) with the end-of-step wrench, r(xi) = C(h xi)^T II xi - b - h Tr f^+(xi) with b = mu^-_k + h f_k (SO(3)xR^3:
// rotation rows on SO(3), linear rows m v - b_lin): the residual the implicit Newton of LgviSe3 drives to zero.
struct LgviResidual {
  Vector6d r = Vector6d::Zero();
  Vector6d fEnd = Vector6d::Zero();     // Tr f^+ (zero without an end-of-step wrench)
  Vector6d fEndRaw = Vector6d::Zero();  // f^+ in the frame of g_{k+1}
  Matrix6d dXi = Matrix6d::Zero();      // dr/dxi                       (if jacobians)
  Matrix6d dFEnd = Matrix6d::Zero();    // d(Tr f^+)/dxi                (if jacobians)
  Matrix6d dPose = Matrix6d::Zero();    // dr/d(theta, y) of g_k (only through f^+; if jacobians and dPose asked)
};
LgviResidual lgviResidual(const RigidBodyInertia& inertia, const LgviOptions& o, const se3::Pose& gk, double tk,
                          double h, const Vector6d& b, const Vector6d& xi, const ImplicitWrench& fEnd, bool jacobians,
                          bool poseJacobian = false);

// C(xi)^T mu on SO(3) (3-vectors; xi = w already scaled by h) for each Tangent, and its derivative
// d/dw [C(w)^T m] at fixed m (analytic; the Jacobian of the rotational Newton residual is
// h so3CTmuJacobian(c, h w, J w) + C(h w)^T J). Exposed for tests.
Vector3d so3CTmu(Tangent c, const Vector3d& w, const Vector3d& m);
Matrix3d so3CTmuJacobian(Tangent c, const Vector3d& w, const Vector3d& m);
// C(xi)^T mu on SE(3) without forming C (closed forms for Cay/Tln, ad^T-chains for Exp/ExpTrunc).
Vector6d se3CTmu(Tangent c, const Vector6d& xi, const Vector6d& mu);

}  // namespace varsim
