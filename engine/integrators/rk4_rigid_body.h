// engine/integrators/rk4_rigid_body.h — the paper's baseline (seed 000
// Sec. 3.3): classical RK4 on (x, q, omega, v) for one rigid body,
// renormalising the quaternion in every stage state before the right-hand side
// is evaluated and again after the step (as reference/README.md's RK4 file).
// Same WrenchField as the LGVI, so both can be driven by the same forces side
// by side. Equations (seed 000 eqs. (7)-(8)): q' = q (0, w)/2, x' = R v, J w' =
// J w x w + tau, m v' = m v x w + F.
#pragma once

#include "engine/integrators/rigid_body_baseline.h"

namespace varsim {

class Rk4RigidBody : public RigidBodyBaseline {
 public:
  explicit Rk4RigidBody(RigidBodyInertia inertia) : RigidBodyBaseline(std::move(inertia)) {}

  // One RK4 step; f is evaluated at each stage state and stage time. Throws
  // SimulationDiverged (state unchanged) if anything becomes non-finite or
  // overflows, BadInput on h <= 0 or before initialize.
  void step(double h, const WrenchField& f) override;
  const char* name() const override { return "rk4"; }
};

// The stage derivative every explicit RK baseline evaluates at a (renormalised)
// stage state.
struct RigidStageRate {
  Vector4d qdot;
  Vector3d xdot;
  Vector6d xidot;
};
RigidStageRate rigidStageRate(const RigidBodyBaseline& body, const quat::Quat& q, const Vector3d& x, const Vector6d& xi,
                              double t, const WrenchField& f);
// The rate at the stage state y_k + dt k (the body's current state moved along
// k, q renormalised), time t.
RigidStageRate rigidStageFrom(const RigidBodyBaseline& body, double dt, const RigidStageRate& k, double t,
                              const WrenchField& f);

}  // namespace varsim
