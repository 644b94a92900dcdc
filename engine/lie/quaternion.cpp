// engine/lie/quaternion.cpp — Hamilton unit quaternions (scalar first), conversions to/from rotation
// matrices, exp/log (seed 004 convention: exp(v) rotates by 2|v|), and a sign-invariant angle metric.
#include "engine/lie/quaternion.h"

#include <algorithm>
#include <cmath>

#include "engine/lie/so3.h"

namespace varsim::quat {

Quat multiply(const Quat& q, const Quat& p) {
  const double w = q[0] * p[0] - q[1] * p[1] - q[2] * p[2] - q[3] * p[3];
  const Vector3d qv = q.tail<3>(), pv = p.tail<3>();
  Quat r;
  r << w, q[0] * pv + p[0] * qv + qv.cross(pv);
  return r;
}

Quat conjugate(const Quat& q) { return Quat(q[0], -q[1], -q[2], -q[3]); }

Quat inverse(const Quat& q) { return conjugate(q) / q.squaredNorm(); }

Quat normalize(const Quat& q) { return q / q.norm(); }

Matrix3d toRotation(const Quat& q) {
  const double w = q[0];
  const Vector3d v = q.tail<3>();
  const Matrix3d R = (w * w - v.squaredNorm()) * Matrix3d::Identity() + 2.0 * v * v.transpose() + 2.0 * w * so3::hat(v);
  return R / q.squaredNorm();
}

Quat fromRotation(const Matrix3d& R) {
  // Shepperd: pick the largest of 4w^2, 4x^2, 4y^2, 4z^2 to divide by.
  const double t = R.trace();
  Quat q;
  if (t >= R(0, 0) && t >= R(1, 1) && t >= R(2, 2)) {
    const double r = std::sqrt(1.0 + t);
    const double f = 0.5 / r;
    q << 0.5 * r, (R(2, 1) - R(1, 2)) * f, (R(0, 2) - R(2, 0)) * f, (R(1, 0) - R(0, 1)) * f;
  } else {
    int i = 0;
    R.diagonal().maxCoeff(&i);
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const double r = std::sqrt(std::max(0.0, 1.0 + R(i, i) - R(j, j) - R(k, k)));
    const double f = 0.5 / r;
    q[0] = (R(k, j) - R(j, k)) * f;
    q[1 + i] = 0.5 * r;
    q[1 + j] = (R(j, i) + R(i, j)) * f;
    q[1 + k] = (R(k, i) + R(i, k)) * f;
  }
  q.normalize();
  return q[0] < 0.0 ? Quat(-q) : q;
}

Vector3d rotate(const Quat& q, const Vector3d& p) { return toRotation(q) * p; }

Quat exp(const Vector3d& v) {
  const double s = v.squaredNorm();
  Quat q;
  q << std::cos(std::sqrt(s)), so3::coeff::sinc(s) * v;
  return q;
}

Vector3d log(const Quat& q) {
  const Vector3d v = q.tail<3>();
  const double n = v.norm();
  const double phi = std::atan2(n, q[0]);  // in [0, pi]
  if (n > 0.0) return (phi / n) * v;
  return q[0] >= 0.0 ? Vector3d::Zero() : Vector3d(phi, 0.0, 0.0);  // q = (-1, 0): any axis
}

Quat fromRotationVector(const Vector3d& w) { return exp(0.5 * w); }

Vector3d toRotationVector(const Quat& q) { return 2.0 * log(q[0] < 0.0 ? Quat(-q) : q); }

Matrix4d leftMatrix(const Quat& q) {
  Matrix4d L;
  L << q[0], -q[1], -q[2], -q[3],  //
      q[1], q[0], -q[3], q[2],     //
      q[2], q[3], q[0], -q[1],     //
      q[3], -q[2], q[1], q[0];
  return L;
}

Matrix4d rightMatrix(const Quat& p) {
  Matrix4d M;
  M << p[0], -p[1], -p[2], -p[3],  //
      p[1], p[0], p[3], -p[2],     //
      p[2], -p[3], p[0], p[1],     //
      p[3], p[2], -p[1], p[0];
  return M;
}

double angleBetween(const Quat& q1, const Quat& q2) {
  const Quat d = multiply(conjugate(q1), q2);
  return 2.0 * std::atan2(d.tail<3>().norm(), std::abs(d[0]));
}

}  // namespace varsim::quat
