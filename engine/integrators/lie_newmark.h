// engine/integrators/lie_newmark.h — the "Newmark" baseline of seed 000
// Sec. 3.3: the explicit Lie-group Newmark (beta = 0, gamma = 1/2) of Krysl &
// Endres, "Explicit Newmark/Verlet algorithm for time integration of the
// rotational dynamics of rigid bodies", IJNME 62 (2005), written in the body
// (convected) frame and extended, as the paper says, from SO(3) to SE(3) by
// using the SE(3) exponential on the whole twist:
//   Psi = h xi_k + (h^2/2) A_k,   g_{k+1} = g_k exp(Psi) (configuration,
//   explicit) xi_{k+1} = xi_k + (h/2) (A_k + A_{k+1}),  A = F(g, xi, t)
//   (velocity, trapezoidal)
// with F the body equations of seed 000 eqs. (7)-(8). The velocity update is
// implicit in xi_{k+1} through the gyroscopic term (Krysl & Endres iterate it;
// we use Newton, RigidBodyBaseline::solveVelocity). A_k is re-evaluated at the
// start of each step from the committed state, which equals the A_{k+1} of the
// previous solve to round-off. Second order; exact for motions of constant body
// velocity (A = 0: g_k exp(k h xi)). The quaternion is the one of R_{k+1} (q_k
// exp_q(Psi_w), renormalised), so |q| = 1 always.
//
// Group SO(3)xR^3 (name "newmark_so3xr3"): the same Newmark pair with the translation on R^3 in the world frame,
// as seed 000's SO(3)xR^3 LGVI separates it: x_{k+1} = x_k + h u_k + (h^2/2) a_k, u_{k+1} = u_k + (h/2)(a_k +
// a_{k+1}) with u = R v and a = R F/m (the world acceleration; no v x w term), the rotation as above. Exact for
// any torque-free spin about a principal axis with any translation velocity, and u stays constant when F = 0
// (linear momentum conserved to round-off), which the SE(3) form only approximates.
#pragma once

#include "engine/integrators/rigid_body_baseline.h"

namespace varsim {

class LieNewmark : public RigidBodyBaseline {
 public:
  enum class Group { SE3, SO3xR3 };
  explicit LieNewmark(RigidBodyInertia inertia, Group group = Group::SE3)
      : RigidBodyBaseline(std::move(inertia)), group_(group) {}
  void step(double h, const WrenchField& f) override;
  const char* name() const override { return group_ == Group::SE3 ? "newmark" : "newmark_so3xr3"; }
  int newtonIterations() const override { return newtonIterations_; }

 private:
  void stepSE3(double h, const WrenchField& f);
  void stepSO3xR3(double h, const WrenchField& f);

  Group group_;
  int newtonIterations_ = 0;
};

}  // namespace varsim
