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
#pragma once

#include "engine/integrators/rigid_body_baseline.h"

namespace varsim {

class LieNewmark : public RigidBodyBaseline {
 public:
  explicit LieNewmark(RigidBodyInertia inertia) : RigidBodyBaseline(std::move(inertia)) {}
  void step(double h, const WrenchField& f) override;
  const char* name() const override { return "newmark"; }
  int newtonIterations() const override { return newtonIterations_; }

 private:
  int newtonIterations_ = 0;
};

}  // namespace varsim
