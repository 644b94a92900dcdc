// engine/models/helicopter_world.cpp — the standard terrain, box signed distances and the penalty contact.
#include "engine/models/helicopter_world.h"

#include <algorithm>
#include <cmath>

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

namespace {
// Signed distance to an oriented box and its outward normal (world).
double boxDistance(const RockBox& b, const Vector3d& p, Vector3d& normal) {
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
}  // namespace

double HelicopterWorld::signedDistance(const Vector3d& p, Vector3d* normal) const {
  double best = p.z();
  Vector3d bestNormal = Vector3d::UnitZ();
  for (const RockBox& b : rocks_) {
    Vector3d n;
    const double d = boxDistance(b, p, n);
    if (d < best) {
      best = d;
      bestNormal = n;
    }
  }
  if (normal) *normal = bestNormal;
  return best;
}

Vector3d HelicopterWorld::contactForce(const Vector3d& p, const Vector3d& vel, const ContactSettings& c) const {
  Vector3d n;
  const double dist = signedDistance(p, &n);
  if (dist >= 0.0) return Vector3d::Zero();
  const double vn = vel.dot(n);
  const double fn = std::max(0.0, -c.stiffness * dist - c.damping * vn);
  const Vector3d vt = vel - vn * n;
  const double speed = vt.norm();
  Vector3d ft = Vector3d::Zero();
  if (speed > 0.0) ft = -std::min(c.friction * fn, c.slipDamping * speed) / speed * vt;
  return fn * n + ft;
}

const LandingPad* HelicopterWorld::padAt(const Vector3d& p) const {
  for (const auto& pad : pads_)
    if (pad.contains(p)) return &pad;
  return nullptr;
}

}  // namespace varsim
