// engine/models/helicopter_world.cpp — the standard terrain, box signed distances and the penalty contact.
#include "engine/models/helicopter_world.h"

#include <algorithm>
#include <cmath>

#include "engine/lie/so3.h"

namespace varsim {

HelicopterWorld HelicopterWorld::standard() {
  HelicopterWorld w;
  w.addPad({"start", {0.0, 0.0}, 4.0});
  w.addPad({"east", {60.0, 40.0}, 4.0});
  w.addPad({"canyon", {330.0, 68.0}, 4.0});
  // Canyon: a straight leg along +x from x = 120 to 250, then a leg rising to the north-east towards
  // (380, 110); each leg has two walls 10 m thick, 40 m high, 36 m apart (centre to inner face 18 m).
  const double half = 18.0, thick = 5.0, height = 20.0;
  const Eigen::Vector2d legs[2][2] = {{{120.0, 0.0}, {250.0, 0.0}}, {{250.0, 0.0}, {380.0, 110.0}}};
  w.corridor_ = {legs[0][0], legs[0][1], legs[1][1]};
  for (const auto& leg : legs) {
    const Eigen::Vector2d d = leg[1] - leg[0];
    const double yaw = std::atan2(d.y(), d.x());
    const Eigen::Vector2d mid = 0.5 * (leg[0] + leg[1]);
    const Eigen::Vector2d side(-std::sin(yaw), std::cos(yaw));
    for (double s : {1.0, -1.0}) {
      const Eigen::Vector2d c = mid + s * (half + thick) * side;
      w.addRock({Vector3d(c.x(), c.y(), height), Vector3d(0.5 * d.norm(), thick, height), yaw});
    }
  }
  return w;
}

double rockDistance(const RockBox& b, const Vector3d& p, Vector3d& normal) {
  const double c = std::cos(b.yaw), s = std::sin(b.yaw);
  const Vector3d d = p - b.center;
  const Vector3d local(c * d.x() + s * d.y(), -s * d.x() + c * d.y(), d.z());
  const Vector3d q = local.cwiseAbs() - b.halfExtents;
  Vector3d nLocal;
  double dist;
  if (q.maxCoeff() > 0.0) {
    const Vector3d out = q.cwiseMax(0.0);
    dist = out.norm();
    nLocal = out.cwiseProduct(local.cwiseSign()) / dist;
  } else {
    int axis;
    dist = q.maxCoeff(&axis);
    nLocal = Vector3d::Zero();
    nLocal[axis] = local[axis] >= 0.0 ? 1.0 : -1.0;
  }
  normal = Vector3d(c * nLocal.x() - s * nLocal.y(), s * nLocal.x() + c * nLocal.y(), nLocal.z());
  return dist;
}

double HelicopterWorld::signedDistance(const Vector3d& p, Vector3d* normal) const {
  double best = p.z();
  Vector3d bestNormal = Vector3d::UnitZ();
  for (const RockBox& b : rocks_) {
    Vector3d n;
    const double d = rockDistance(b, p, n);
    if (d < best) {
      best = d;
      bestNormal = n;
    }
  }
  if (normal) *normal = bestNormal;
  return best;
}

ContactSettings ContactSettings::implicitFor(double mass, int support) {
  const double share = mass / support, w = kStiffFrequency;
  ContactSettings c;
  c.stiffness = share * w * w;
  c.damping = 2.0 * share * w;
  c.slipDamping = c.damping;
  c.dampingDepth = 1e-4;
  return c;
}

Vector3d HelicopterWorld::contactForce(const Vector3d& p, const Vector3d& vel, const ContactSettings& c, Matrix3d* dFdp,
                                       Matrix3d* dFdvel) const {
  if (dFdp) dFdp->setZero();
  if (dFdvel) dFdvel->setZero();
  Vector3d n;
  const double dist = signedDistance(p, &n);
  if (dist >= 0.0) return Vector3d::Zero();
  const double vn = vel.dot(n);
  const bool ramp = c.dampingDepth > 0.0 && -dist < c.dampingDepth;
  const double rho = ramp ? -dist / c.dampingDepth : 1.0;  // damping ramp (continuity at first touch)
  const double fnRaw = -c.stiffness * dist - c.damping * rho * vn;
  const double fn = std::max(0.0, fnRaw);
  const Vector3d vt = vel - vn * n;
  const double speed = vt.norm();
  const bool sliding = speed > 0.0 && c.friction * fn < c.slipDamping * speed;
  Vector3d ft = Vector3d::Zero();
  if (speed > 0.0) ft = -std::min(c.friction * fn, c.slipDamping * speed) / speed * vt;
  if (dFdp || dFdvel) {
    // d dist/dp = n (n constant inside the solid); d vt/dvel = P = I - n n^T.
    const Matrix3d P = Matrix3d::Identity() - n * n.transpose();
    const double dRho = ramp ? -1.0 / c.dampingDepth : 0.0;  // d rho / d dist
    const Vector3d dfnDp = fnRaw > 0.0 ? Vector3d(-(c.stiffness + c.damping * vn * dRho) * n) : Vector3d::Zero();
    const Vector3d dfnDv = fnRaw > 0.0 ? Vector3d(-c.damping * rho * n) : Vector3d::Zero();
    Matrix3d dp = n * dfnDp.transpose(), dv = n * dfnDv.transpose();
    if (sliding) {  // ft = -mu fn t, t = vt/|vt|: dt/dvel = (I - t t^T) P / |vt|
      const Vector3d t = vt / speed;
      dp -= c.friction * t * dfnDp.transpose();
      dv -= c.friction * t * dfnDv.transpose() +
            (c.friction * fn / speed) * (Matrix3d::Identity() - t * t.transpose()) * P;
    } else if (speed > 0.0) {  // viscous: ft = -c_t vt
      dv -= c.slipDamping * P;
    }
    if (dFdp) *dFdp = dp;
    if (dFdvel) *dFdvel = dv;
  }
  return fn * n + ft;
}

Vector6d HelicopterWorld::contactWrench(const se3::Pose& g, const Vector6d& xi, const std::vector<Vector3d>& points,
                                        const ContactSettings& c, Matrix6d* dPose, Matrix6d* dXi) const {
  Vector6d f = Vector6d::Zero();
  if (dPose) dPose->setZero();
  if (dXi) dXi->setZero();
  const bool jac = dPose || dXi;
  const Vector3d omega = xi.head<3>(), v = xi.tail<3>();
  for (const Vector3d& r : points) {
    const Vector3d ub = v + omega.cross(r);  // body-frame point velocity
    Matrix3d Fp, Fv;
    const Vector3d force = contactForce(g.act(r), g.R * ub, c, jac ? &Fp : nullptr, jac ? &Fv : nullptr);
    if (force.isZero()) continue;
    const Vector3d fb = g.R.transpose() * force;
    f.head<3>() += r.cross(fb);
    f.tail<3>() += fb;
    if (!jac) continue;
    // p = R r + x, u = R ub, fb = R^T F. Pose (theta, y): dp = R(-r^ theta + y), du = -R ub^ theta,
    // d(R^T) F = fb^ theta. Twist: du = R (dv - r^ domega).
    const Matrix3d RtFpR = g.R.transpose() * Fp * g.R, RtFvR = g.R.transpose() * Fv * g.R;
    const Matrix3d rh = so3::hat(r);
    Eigen::Matrix<double, 3, 6> dfbPose, dfbXi;
    dfbPose << so3::hat(fb) - RtFpR * rh - RtFvR * so3::hat(ub), RtFpR;
    dfbXi << -RtFvR * rh, RtFvR;
    if (dPose) {
      dPose->topRows<3>() += rh * dfbPose;
      dPose->bottomRows<3>() += dfbPose;
    }
    if (dXi) {
      dXi->topRows<3>() += rh * dfbXi;
      dXi->bottomRows<3>() += dfbXi;
    }
  }
  return f;
}

double HelicopterWorld::contactPotential(const se3::Pose& g, const std::vector<Vector3d>& points,
                                         const ContactSettings& c) const {
  double e = 0.0;
  for (const Vector3d& r : points) {
    const double d = signedDistance(g.act(r));
    if (d < 0.0) e += 0.5 * c.stiffness * d * d;
  }
  return e;
}

Vector6d helicopterDissipativeWrench(const Helicopter& heli, const HelicopterWorld* world, const ContactSettings& c,
                                     const se3::Pose& g, const Vector6d& xi, Matrix6d* dPose, Matrix6d* dXi) {
  Vector6d f = heli.dragWrench(xi);
  const bool jac = dPose && dXi;
  if (jac) {
    dPose->setZero();
    dXi->setZero();
    dXi->diagonal() << Vector3d::Constant(-heli.settings().dragAngular), Vector3d::Constant(-heli.settings().dragLinear);
  }
  if (!world) return f;
  Matrix6d contactPose, contactXi;
  f += world->contactWrench(g, xi, heli.contactPoints(), c, jac ? &contactPose : nullptr, jac ? &contactXi : nullptr);
  if (jac) {
    *dPose += contactPose;
    *dXi += contactXi;
  }
  return f;
}

const LandingPad* HelicopterWorld::padAt(const Vector3d& p) const {
  for (const auto& pad : pads_)
    if (pad.contains(p)) return &pad;
  return nullptr;
}

}  // namespace varsim
