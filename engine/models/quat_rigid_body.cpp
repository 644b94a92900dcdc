// engine/models/quat_rigid_body.cpp — state helpers and the continuous equations (15) of seed 004 (ERRATA sign).
#include "engine/models/quat_rigid_body.h"

#include <cmath>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {

QuatRigidState quatRigidStateFrom(const RigidBodyInertia& inertia, const Vector3d& x, const quat::Quat& q,
                                  const Vector3d& xdot, const Vector3d& omega) {
  const double n = q.norm();
  if (!(n > 0.0 && std::isfinite(n)) || !x.allFinite() || !xdot.allFinite() || !omega.allFinite())
    throw BadInput("rigid body state not finite or zero quaternion (|q| = " + formatNumber(n) + ")");
  QuatRigidState s;
  s.x = x;
  s.q = q / n;
  s.p = inertia.mass * xdot;
  s.w = 2.0 * (inertia.J * omega);
  return s;
}

Vector3d quatRigidOmega(const RigidBodyInertia& inertia, const QuatRigidState& s) {
  return 0.5 * inertia.J.ldlt().solve(s.w);
}

double quatRigidKineticEnergy(const RigidBodyInertia& inertia, const QuatRigidState& s) {
  return s.p.squaredNorm() / (2.0 * inertia.mass) + 0.25 * s.w.dot(quatRigidOmega(inertia, s));
}

Vector3d quatRigidAngularMomentum(const QuatRigidState& s) {
  return s.x.cross(s.p) + 0.5 * (quat::toRotation(s.q) * s.w);
}

void appendQuatRigidState(const QuatRigidState& s, std::vector<double>& out) {
  out.insert(out.end(), s.x.data(), s.x.data() + 3);
  out.insert(out.end(), s.q.data(), s.q.data() + 4);
  out.insert(out.end(), s.p.data(), s.p.data() + 3);
  out.insert(out.end(), s.w.data(), s.w.data() + 3);
}

QuatRigidState quatRigidStateFromNumbers(const double* d) {
  QuatRigidState s;
  s.x = Vector3d(d[0], d[1], d[2]);
  s.q = quat::Quat(d[3], d[4], d[5], d[6]);
  s.p = Vector3d(d[7], d[8], d[9]);
  s.w = Vector3d(d[10], d[11], d[12]);
  return s;
}

QuatRigidState quatRigidRates(const RigidBodyInertia& inertia, const RigidPotential& V, const QuatRigidState& s) {
  const PotentialGradient g = V.gradient(s.x, quat::toRotation(s.q));
  const Vector3d xi = 0.5 * quatRigidOmega(inertia, s);  // xi = J^-1 w / 4
  QuatRigidState d;
  d.x = s.p / inertia.mass;
  d.q = quat::multiply(s.q, quat::Quat(0.0, xi.x(), xi.y(), xi.z()));
  d.p = -g.dVdx;
  d.w = -2.0 * xi.cross(s.w) - g.FdVdq;
  return d;
}

}  // namespace varsim
