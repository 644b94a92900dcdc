// engine/integrators/rk4_rigid_body.cpp — RK4 baseline on (x, q, omega, v) with
// quaternion renormalisation per stage (seed 000 Sec. 3.3; the stage convention
// of reference/README.md's rigid_body_free_rk4.csv).
#include "engine/integrators/rk4_rigid_body.h"

namespace varsim {

RigidStageRate rigidStageRate(const RigidBodyBaseline& body, const quat::Quat& q, const Vector3d& x, const Vector6d& xi,
                              double t, const WrenchField& f) {
  const se3::Pose g{quat::toRotation(q), x};
  return {quaternionRate(q, xi.head<3>()), g.R * xi.tail<3>(), body.acceleration(g, xi, t, f)};
}

RigidStageRate rigidStageFrom(const RigidBodyBaseline& body, double dt, const RigidStageRate& k, double t,
                              const WrenchField& f) {
  return rigidStageRate(body, quat::normalize(body.quaternion() + dt * k.qdot), body.pose().x + dt * k.xdot,
                        body.xi() + dt * k.xidot, t, f);
}

void Rk4RigidBody::step(double h, const WrenchField& f) {
  requireStep(h);
  const double t = time();
  const RigidStageRate k1 = rigidStageRate(*this, q_, x_, xi_, t, f);
  const RigidStageRate k2 = rigidStageFrom(*this, 0.5 * h, k1, t + 0.5 * h, f);
  const RigidStageRate k3 = rigidStageFrom(*this, 0.5 * h, k2, t + 0.5 * h, f);
  const RigidStageRate k4 = rigidStageFrom(*this, h, k3, t + h, f);
  const double h6 = h / 6.0;
  commit(h, q_ + h6 * (k1.qdot + 2.0 * k2.qdot + 2.0 * k3.qdot + k4.qdot),
         x_ + h6 * (k1.xdot + 2.0 * k2.xdot + 2.0 * k3.xdot + k4.xdot),
         xi_ + h6 * (k1.xidot + 2.0 * k2.xidot + 2.0 * k3.xidot + k4.xidot));
}

}  // namespace varsim
