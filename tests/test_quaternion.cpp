// tests/test_quaternion.cpp — identities of engine/lie/quaternion: Hamilton product (vs Eigen), rotation
// matrix formula of reference/README.md, fromRotation round trips (incl. w ~ 0), exp/log, agreement with
// so3::exp/log, and the sign-invariant angleBetween (q and -q are the same rotation).
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <random>
#include <vector>

#include "engine/lie/quaternion.h"
#include "engine/lie/so3.h"

using namespace varsim;
using quat::Quat;

namespace {

constexpr double kPi = 3.14159265358979323846;

Quat randQuat(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  return Quat(n(rng), n(rng), n(rng), n(rng)).normalized();
}

Vector3d randUnit(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  return Vector3d(n(rng), n(rng), n(rng)).normalized();
}

// Unit quaternions: random, near identity, and rotations near pi (w ~ 0), both signs.
std::vector<Quat> samples(unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Quat> out;
  for (int i = 0; i < 200; ++i) out.push_back(randQuat(rng));
  for (double a : {0.0, 1e-12, 1e-8, 1e-4, kPi - 1e-4, kPi - 1e-8, kPi - 1e-12, kPi})
    for (int i = 0; i < 5; ++i) {
      const Quat q = quat::fromRotationVector(a * randUnit(rng));
      out.push_back(i % 2 ? Quat(-q) : q);
    }
  return out;
}

Eigen::Quaterniond eig(const Quat& q) { return Eigen::Quaterniond(q[0], q[1], q[2], q[3]); }

}  // namespace

TEST_CASE("quat: multiply is the Hamilton product (== Eigen::Quaterniond) and R(q p) == R(q) R(p)") {
  std::mt19937 rng(1);
  for (int i = 0; i < 100; ++i) {
    const Quat q = randQuat(rng), p = randQuat(rng);
    const Eigen::Quaterniond r = eig(q) * eig(p);
    CHECK((quat::multiply(q, p) - Quat(r.w(), r.x(), r.y(), r.z())).norm() < 1e-15);
    CHECK((quat::toRotation(quat::multiply(q, p)) - quat::toRotation(q) * quat::toRotation(p)).norm() < 1e-14);
    CHECK((quat::leftMatrix(q) * p - quat::multiply(q, p)).norm() < 1e-15);
    CHECK((quat::rightMatrix(p) * q - quat::multiply(q, p)).norm() < 1e-15);
    CHECK((quat::multiply(q, quat::conjugate(q)) - quat::identity()).norm() < 1e-15);
    CHECK((quat::multiply(quat::inverse(3.0 * q), 3.0 * q) - quat::identity()).norm() < 1e-15);
  }
}

TEST_CASE("quat: toRotation == (2w^2-1)I + 2 qv qv^T + 2w[qv]x, orthonormal, == Eigen") {
  double eo = 0, ed = 0, ef = 0;
  for (const Quat& q : samples(2)) {
    const Matrix3d R = quat::toRotation(q);
    const Vector3d v = q.tail<3>();
    const Matrix3d F = (2 * q[0] * q[0] - 1) * Matrix3d::Identity() + 2 * v * v.transpose() + 2 * q[0] * so3::hat(v);
    ef = std::max(ef, (R - F).norm() + (R - eig(q).toRotationMatrix()).norm());
    eo = std::max(eo, (R.transpose() * R - Matrix3d::Identity()).norm());
    ed = std::max(ed, std::abs(R.determinant() - 1));
  }
  MESSAGE("max |R - formula| + |R - Eigen| = " << ef << ", |R^T R - I| = " << eo << ", |det R - 1| = " << ed);
  CHECK(ef < 1e-14);
  CHECK(eo < 1e-14);
  CHECK(ed < 1e-14);
}

TEST_CASE("quat: fromRotation(toRotation(q)) == +-q with w >= 0 (incl. rotations near pi)") {
  double e = 0;
  for (const Quat& q : samples(3)) {
    const Quat r = quat::fromRotation(quat::toRotation(q));
    CHECK(r[0] >= 0.0);
    CHECK(std::abs(r.norm() - 1) < 1e-15);
    e = std::max(e, std::min((r - q).norm(), (r + q).norm()));
  }
  MESSAGE("max min(|r - q|, |r + q|) = " << e);
  CHECK(e < 1e-15 * 4);
}

TEST_CASE("quat: log(exp(v)) == v for |v| < pi and exp(log(q)) == q") {
  std::mt19937 rng(4);
  double e1 = 0, e2 = 0;
  for (double m : {0.0, 1e-12, 1e-8, 1e-4, 0.5, 1.0, 1.5, kPi / 2 - 1e-9, 2.0, 3.0})
    for (int i = 0; i < 10; ++i) {
      const Vector3d v = m * randUnit(rng);
      e1 = std::max(e1, (quat::log(quat::exp(v)) - v).norm());
    }
  for (const Quat& q : samples(5)) e2 = std::max(e2, (quat::exp(quat::log(q)) - q).norm());
  MESSAGE("max |log(exp(v)) - v| = " << e1 << ", |exp(log(q)) - q| = " << e2);
  CHECK(e1 < 1e-14);
  CHECK(e2 < 1e-15 * 4);
}

TEST_CASE("quat: toRotation(fromRotationVector(w)) == so3::exp(w); toRotationVector == so3::log") {
  std::mt19937 rng(6);
  double e1 = 0, e2 = 0;
  for (int i = 0; i < 200; ++i) {
    const Vector3d w = (i % 10 == 0 ? kPi - 1e-7 : 3.1 * std::uniform_real_distribution<>(0, 1)(rng)) * randUnit(rng);
    const Quat q = quat::fromRotationVector(w);
    e1 = std::max(e1, (quat::toRotation(q) - so3::exp(w)).norm());
    e2 = std::max(e2, (quat::toRotationVector(i % 2 ? Quat(-q) : q) - so3::log(so3::exp(w))).norm());
  }
  MESSAGE("max |R(q(w)) - exp(w)| = " << e1 << ", |rotvec(+-q) - log R| = " << e2);
  CHECK(e1 < 1e-14);
  CHECK(e2 < 1e-13);
}

TEST_CASE("quat: angleBetween(q1, q2) == |so3::log(R1^T R2)|, sign-invariant, accurate for tiny angles") {
  std::mt19937 rng(7);
  double e = 0;
  for (int i = 0; i < 200; ++i) {
    const Quat a = randQuat(rng), b = randQuat(rng);
    const double ref = so3::log(quat::toRotation(a).transpose() * quat::toRotation(b)).norm();
    e = std::max(e, std::abs(quat::angleBetween(a, b) - ref) + std::abs(quat::angleBetween(a, Quat(-b)) - ref));
    CHECK(quat::angleBetween(a, Quat(-a)) < 1e-15);
  }
  MESSAGE("max |angleBetween - |log(R1^T R2)|| = " << e);
  CHECK(e < 1e-14);
  // 2 acos|q1.q2| would return 0 or ~2e-8 here; the atan2 form resolves a 1e-9 rad angle.
  const Quat q = randQuat(rng);
  const Quat p = quat::multiply(q, quat::fromRotationVector(1e-9 * randUnit(rng)));
  CHECK(std::abs(quat::angleBetween(q, p) - 1e-9) < 1e-15);
}

TEST_CASE("quat: normalize gives |q| == 1 and the same rotation") {
  std::mt19937 rng(8);
  for (int i = 0; i < 50; ++i) {
    const Quat q = 2.5 * randQuat(rng);
    const Quat n = quat::normalize(q);
    CHECK(std::abs(n.norm() - 1) < 1e-15);
    CHECK((quat::toRotation(q) - quat::toRotation(n)).norm() < 1e-14);
    CHECK((quat::rotate(n, Vector3d(1, 2, 3)) - quat::toRotation(n) * Vector3d(1, 2, 3)).norm() == 0.0);
  }
}
