// engine/integrators/rk2i_rigid_body.h — implicit RK2 baseline of seed 000
// Sec. 3.3 ("RK2i": "a standard form (Dormand 1996, Sec. 11.5)" on the dynamics
// only, with explicit quaternion reconstruction). Our choice of the standard
// form: the one-stage Gauss method (implicit midpoint rule, order 2, A-stable;
// Hairer, Norsett & Wanner, Solving ODEs I, Sec. II.7) on the velocity equation
//   xi_mid = xi_k + (h/2) F(g_mid, xi_mid, t_k + h/2),   xi_{k+1} = 2 xi_mid -
//   xi_k,
// F the body equations of seed 000 eqs. (7)-(8), solved by Newton
// (RigidBodyBaseline::solveVelocity). The pose is then reconstructed explicitly
// from the midpoint velocity, second order:
//   q_mid = q_k exp_q(h w_mid / 2), q_{k+1} = q_k exp_q(h w_mid)
//   (renormalised), x_{k+1} = x_k + h R(q_mid) v_mid,  g_mid = (R(q_mid), x_k +
//   (h/2) R(q_mid) v_mid) inside the Newton.
#pragma once

#include "engine/integrators/rigid_body_baseline.h"

namespace varsim {

class Rk2iRigidBody : public RigidBodyBaseline {
 public:
  explicit Rk2iRigidBody(RigidBodyInertia inertia) : RigidBodyBaseline(std::move(inertia)) {}
  void step(double h, const WrenchField& f) override;
  const char* name() const override { return "rk2i"; }
  int newtonIterations() const override { return newtonIterations_; }

 private:
  int newtonIterations_ = 0;
};

}  // namespace varsim
