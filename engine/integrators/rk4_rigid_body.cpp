// engine/integrators/rk4_rigid_body.cpp — RK4 baseline on (x, q, omega, v) with quaternion renormalisation
// per stage (seed 000 Sec. 3.3; the stage convention of reference/README.md's rigid_body_free_rk4.csv).
#include "engine/integrators/rk4_rigid_body.h"

#include <cmath>
#include <string>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {

Rk4RigidBody::Rk4RigidBody(RigidBodyInertia inertia) : inertia_(std::move(inertia)) {
  validateInertia(inertia_);
  Jinv_ = inertia_.J.inverse();
}

void Rk4RigidBody::initialize(const se3::Pose& g0, const Vector6d& xi0, double t0) {
  if (!xi0.allFinite() || !g0.x.allFinite() || !g0.R.allFinite() || !std::isfinite(t0))
    throw BadInput("RK4 initial state is not finite");
  q_ = quat::fromRotation(g0.R);
  x_ = g0.x;
  xi_ = xi0;
  g_ = se3::Pose{quat::toRotation(q_), x_};
  clock_.reset(t0, 0.0);  // h is set by the first step
  initialized_ = true;
}

Rk4RigidBody::Derivative Rk4RigidBody::rate(const quat::Quat& q, const Vector3d& x, const Vector6d& xi, double t,
                                            const WrenchField& f) const {
  const se3::Pose g{quat::toRotation(q), x};
  const Vector6d wrench = f ? f(g, xi, t) : Vector6d::Zero();
  const Vector3d w = xi.head<3>(), v = xi.tail<3>();
  Derivative d;
  d.qdot = 0.5 * quat::multiply(q, Vector4d(0.0, w.x(), w.y(), w.z()));
  d.xdot = g.R * v;
  d.xidot << Jinv_ * ((inertia_.J * w).cross(w) + wrench.head<3>()), v.cross(w) + wrench.tail<3>() / inertia_.mass;
  return d;
}

void Rk4RigidBody::step(double h, const WrenchField& f) {
  if (!initialized_) throw BadInput("Rk4RigidBody::step called before initialize");
  if (!(h > 0.0 && std::isfinite(h))) throw BadInput("RK4 step size h = " + formatNumber(h) + ": allowed (0, inf) s");
  const double t = time();
  const Derivative k1 = rate(q_, x_, xi_, t, f);
  const Derivative k2 = rate(quat::normalize(q_ + 0.5 * h * k1.qdot), x_ + 0.5 * h * k1.xdot, xi_ + 0.5 * h * k1.xidot,
                             t + 0.5 * h, f);
  const Derivative k3 = rate(quat::normalize(q_ + 0.5 * h * k2.qdot), x_ + 0.5 * h * k2.xdot, xi_ + 0.5 * h * k2.xidot,
                             t + 0.5 * h, f);
  const Derivative k4 =
      rate(quat::normalize(q_ + h * k3.qdot), x_ + h * k3.xdot, xi_ + h * k3.xidot, t + h, f);
  const double h6 = h / 6.0;
  const quat::Quat q = quat::normalize(q_ + h6 * (k1.qdot + 2.0 * k2.qdot + 2.0 * k3.qdot + k4.qdot));
  const Vector3d x = x_ + h6 * (k1.xdot + 2.0 * k2.xdot + 2.0 * k3.xdot + k4.xdot);
  const Vector6d xi = xi_ + h6 * (k1.xidot + 2.0 * k2.xidot + 2.0 * k3.xidot + k4.xidot);
  if (!q.allFinite() || !x.allFinite() || !xi.allFinite())
    throw SimulationDiverged("RK4 state became non-finite at t=" + formatNumber(t + h) +
                             " (|omega| = " + formatNumber(xi_.head<3>().norm()) + " rad/s before the step)");
  clock_.advance(h);
  q_ = q;
  x_ = x;
  xi_ = xi;
  g_ = se3::Pose{quat::toRotation(q_), x_};
}

Vector6d Rk4RigidBody::momentumBody() const {
  Vector6d mu;
  mu << inertia_.J * xi_.head<3>(), inertia_.mass * xi_.tail<3>();
  return mu;
}

Vector6d Rk4RigidBody::spatialMomentum() const { return se3::spatialMomentum(g_, momentumBody()); }

double Rk4RigidBody::energy() const { return kineticEnergyOfTwist(inertia_, xi_); }

std::vector<double> Rk4RigidBody::saveState() const {
  std::vector<double> s(q_.data(), q_.data() + 4);
  s.insert(s.end(), x_.data(), x_.data() + 3);
  s.insert(s.end(), xi_.data(), xi_.data() + 6);
  clock_.save(s);
  return s;
}

void Rk4RigidBody::loadState(const std::vector<double>& s) {
  checkSavedState(s, 16, "RK4 state");
  q_ = Eigen::Map<const Vector4d>(s.data());  // not renormalised: a reload must be bit-identical
  if (std::abs(q_.norm() - 1.0) > 1e-9) throw BadInput("RK4 state: quaternion is not unit");
  x_ = Eigen::Map<const Vector3d>(s.data() + 4);
  xi_ = Eigen::Map<const Vector6d>(s.data() + 7);
  clock_.load(s.data() + 13);
  g_ = se3::Pose{quat::toRotation(q_), x_};
  initialized_ = true;
}

}  // namespace varsim
