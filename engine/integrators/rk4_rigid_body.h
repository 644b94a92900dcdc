// engine/integrators/rk4_rigid_body.h — the paper's baseline (seed 000 Sec. 3.3): classical RK4 on
// (x, q, omega, v) for one rigid body, renormalising the quaternion in every stage state before the
// right-hand side is evaluated and again after the step (as reference/README.md's RK4 file). Same
// WrenchField as the LGVI, so both can be driven by the same forces side by side.
// Equations (seed 000 eqs. (7)-(8)): q' = q (0, w)/2, x' = R v, J w' = J w x w + tau, m v' = m v x w + F.
#pragma once

#include <vector>

#include "engine/integrators/step_time.h"
#include "engine/lie/quaternion.h"
#include "engine/models/rigid_body.h"

namespace varsim {

class Rk4RigidBody {
 public:
  explicit Rk4RigidBody(RigidBodyInertia inertia);  // throws BadInput (validateInertia)

  // xi0 = (omega, v): continuous body velocity at t0.
  void initialize(const se3::Pose& g0, const Vector6d& xi0, double t0);
  // One RK4 step; f is evaluated at each stage state and stage time. Throws SimulationDiverged (state
  // unchanged) if anything becomes non-finite, BadInput on h <= 0 or before initialize.
  void step(double h, const WrenchField& f);

  const RigidBodyInertia& inertia() const { return inertia_; }
  const se3::Pose& pose() const { return g_; }  // R from the unit quaternion
  const quat::Quat& quaternion() const { return q_; }  // as integrated (either sign)
  const Vector6d& xi() const { return xi_; }           // body velocity (omega, v)
  Vector6d momentumBody() const;                       // II xi = (J omega, m v)
  Vector6d spatialMomentum() const;                    // (R J w + x x R m v; R m v)
  double energy() const;                               // 1/2 xi^T II xi, J
  double time() const { return clock_.now(); }

  // Layout (16 numbers): q (4), x (3), xi (6), t_anchor, steps since anchor, h.
  std::vector<double> saveState() const;
  void loadState(const std::vector<double>& state);

 private:
  struct Derivative {
    Vector4d qdot;
    Vector3d xdot;
    Vector6d xidot;
  };
  Derivative rate(const quat::Quat& q, const Vector3d& x, const Vector6d& xi, double t, const WrenchField& f) const;

  RigidBodyInertia inertia_;
  Matrix3d Jinv_;
  quat::Quat q_ = quat::identity();
  Vector3d x_ = Vector3d::Zero();
  Vector6d xi_ = Vector6d::Zero();
  se3::Pose g_;
  StepTime clock_;
  bool initialized_ = false;
};

}  // namespace varsim
