// engine/integrators/rigid_body_baseline.cpp — shared state, body equations,
// blow-up checks and saved-state layout of the rigid-body baselines (see the
// header).
#include "engine/integrators/rigid_body_baseline.h"

#include <cmath>

#include "engine/integrators/lie_newmark.h"
#include "engine/integrators/rk2_rigid_body.h"
#include "engine/integrators/rk2i_rigid_body.h"
#include "engine/integrators/rk4_rigid_body.h"
#include "engine/lie/so3.h"
#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {

RigidBodyBaseline::RigidBodyBaseline(RigidBodyInertia inertia) : inertia_(std::move(inertia)) {
  validateInertia(inertia_);
  Jinv_ = inertia_.J.inverse();
}

void RigidBodyBaseline::initialize(const se3::Pose& g0, const Vector6d& xi0, double t0) {
  if (!xi0.allFinite() || !g0.x.allFinite() || !g0.R.allFinite() || !std::isfinite(t0))
    throw BadInput(std::string(name()) + " initial state is not finite");
  q_ = quat::fromRotation(g0.R);
  x_ = g0.x;
  xi_ = xi0;
  g_ = se3::Pose{quat::toRotation(q_), x_};
  clock_.reset(t0, 0.0);  // h is set by the first step
  initialized_ = true;
}

void RigidBodyBaseline::requireStep(double h) const {
  if (!initialized_) throw BadInput(std::string(name()) + " step called before initialize");
  if (!(h > 0.0 && std::isfinite(h)))
    throw BadInput(std::string(name()) + " step size h = " + formatNumber(h) + ": allowed (0, inf) s");
}

void RigidBodyBaseline::diverged(const std::string& what, double t) const {
  throw SimulationDiverged(std::string(name()) + ": " + what + " at t=" + formatNumber(t) +
                           " (|omega| = " + formatNumber(xi_.head<3>().norm()) + " rad/s before the step)");
}

void RigidBodyBaseline::commit(double h, const quat::Quat& q, const Vector3d& x, const Vector6d& xi) {
  const quat::Quat qn = quat::normalize(q);
  if (!qn.allFinite() || !x.allFinite() || !xi.allFinite()) diverged("state became non-finite", time() + h);
  if (xi.lpNorm<Eigen::Infinity>() > kRigidBaselineOverflow)
    diverged("velocity overflow |xi| = " + formatNumber(xi.norm()), time() + h);
  clock_.advance(h);
  q_ = qn;
  x_ = x;
  xi_ = xi;
  g_ = se3::Pose{quat::toRotation(q_), x_};
}

Vector6d RigidBodyBaseline::acceleration(const se3::Pose& g, const Vector6d& xi, double t, const WrenchField& f) const {
  const Vector6d wrench = f ? f(g, xi, t) : Vector6d::Zero();
  const Vector3d w = xi.head<3>(), v = xi.tail<3>();
  Vector6d a;
  a << Jinv_ * ((inertia_.J * w).cross(w) + wrench.head<3>()), v.cross(w) + wrench.tail<3>() / inertia_.mass;
  return a;
}

Matrix6d RigidBodyBaseline::accelerationJacobian(const Vector6d& xi) const {
  const Vector3d w = xi.head<3>(), v = xi.tail<3>();
  Matrix6d D = Matrix6d::Zero();
  // d/dw [(J w) x w] = -d/dw [w x (J w)] = hat(J w) - hat(w) J;  d/dw [v x w] =
  // hat(v), d/dv = -hat(w).
  D.topLeftCorner<3, 3>() = Jinv_ * (so3::hat(inertia_.J * w) - so3::hat(w) * inertia_.J);
  D.bottomLeftCorner<3, 3>() = so3::hat(v);
  D.bottomRightCorner<3, 3>() = -so3::hat(w);
  return D;
}

std::unique_ptr<RigidBodyBaseline> makeRigidBodyBaseline(const std::string& name, const RigidBodyInertia& inertia) {
  if (name == "rk2") return std::make_unique<Rk2RigidBody>(inertia);
  if (name == "rk2i") return std::make_unique<Rk2iRigidBody>(inertia);
  if (name == "rk4") return std::make_unique<Rk4RigidBody>(inertia);
  if (name == "newmark") return std::make_unique<LieNewmark>(inertia);
  if (name == "newmark_so3xr3") return std::make_unique<LieNewmark>(inertia, LieNewmark::Group::SO3xR3);
  throw BadInput("rigid-body baseline '" + name + "': allowed rk2, rk2i, rk4, newmark, newmark_so3xr3");
}

Vector6d RigidBodyBaseline::momentumBody() const {
  Vector6d mu;
  mu << inertia_.J * xi_.head<3>(), inertia_.mass * xi_.tail<3>();
  return mu;
}

Vector6d RigidBodyBaseline::spatialMomentum() const { return se3::spatialMomentum(g_, momentumBody()); }

double RigidBodyBaseline::energy() const { return kineticEnergyOfTwist(inertia_, xi_); }

std::vector<double> RigidBodyBaseline::saveState() const {
  std::vector<double> s(q_.data(), q_.data() + 4);
  s.insert(s.end(), x_.data(), x_.data() + 3);
  s.insert(s.end(), xi_.data(), xi_.data() + 6);
  clock_.save(s);
  return s;
}

void RigidBodyBaseline::loadState(const std::vector<double>& s) {
  checkSavedState(s, 16, std::string(name()) + " state");
  q_ = Eigen::Map<const Vector4d>(s.data());  // not renormalised: a reload must be bit-identical
  if (std::abs(q_.norm() - 1.0) > 1e-9) throw BadInput(std::string(name()) + " state: quaternion is not unit");
  x_ = Eigen::Map<const Vector3d>(s.data() + 4);
  xi_ = Eigen::Map<const Vector6d>(s.data() + 7);
  clock_.load(s.data() + 13);
  g_ = se3::Pose{quat::toRotation(q_), x_};
  initialized_ = true;
}

}  // namespace varsim
