// engine/integrators/rk2_rigid_body.h — explicit midpoint RK2 baseline of seed
// 000 Sec. 3.3 (Fig. 4 "RK2") on (x, q, omega, v): k1 = F(y_k), y_mid = y_k +
// (h/2) k1 (q renormalised), y_{k+1} = y_k + h F(y_mid) (q renormalised), with
// the body equations of seed 000 eqs. (7)-(8)
// (RigidBodyBaseline::acceleration).
#pragma once

#include "engine/integrators/rk4_rigid_body.h"

namespace varsim {

class Rk2RigidBody : public RigidBodyBaseline {
 public:
  explicit Rk2RigidBody(RigidBodyInertia inertia) : RigidBodyBaseline(std::move(inertia)) {}
  void step(double h, const WrenchField& f) override;
  const char* name() const override { return "rk2"; }
};

}  // namespace varsim
