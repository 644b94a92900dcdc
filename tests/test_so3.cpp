// tests/test_so3.cpp — identities of engine/lie/so3: orthonormality, exp/log and cay/cayInv round trips
// (near 0, random, near pi), agreement with Eigen's AngleAxis, cay-vs-exp order, and the right-
// trivialized tangents dexp, dexp^{-1}, dcay, dcay^{-1} against central finite differences; rotate(w, u)
// (a director turned without the matrix) against exp(w) u.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "engine/lie/so3.h"
#include "engine/lie/so3_rotate.h"
#include "tests/log_log_slope.h"

using varsim::test::logLogSlope;

using namespace varsim;

namespace {

constexpr double kPi = 3.14159265358979323846;

Vector3d randUnit(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  return Vector3d(n(rng), n(rng), n(rng)).normalized();
}

// Rotation vectors: random magnitudes in (0, maxAngle), plus tiny ones and ones near pi.
std::vector<Vector3d> samples(unsigned seed, double maxAngle, bool nearPi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, maxAngle);
  std::vector<Vector3d> out;
  for (int i = 0; i < 200; ++i) out.push_back(u(rng) * randUnit(rng));
  for (double m : {0.0, 1e-12, 1e-8, 1e-6, 1e-4, 1e-2, 1.4999, 1.5, 1.5001})
    for (int i = 0; i < 5; ++i) out.push_back(m * randUnit(rng));
  if (nearPi)
    for (double d : {1e-3, 1e-6, 1e-8, 1e-10, 1e-12})
      for (int i = 0; i < 5; ++i) out.push_back((kPi - d) * randUnit(rng));
  return out;
}

double orthoErr(const Matrix3d& R) { return (R.transpose() * R - Matrix3d::Identity()).norm(); }

// Right-trivialized inverse tangent by central differences:
//   dtau^{-1}_w eta = d/ds tauInv(exp(s eta) tau(w)) at s = 0.
template <class Tau, class TauInv>
Matrix3d fdInvTangent(Tau tau, TauInv tauInv, const Vector3d& w, double h = 1e-6) {
  Matrix3d M;
  for (int j = 0; j < 3; ++j) {
    const Vector3d e = Vector3d::Unit(j);
    M.col(j) = (tauInv(so3::exp(h * e) * tau(w)) - tauInv(so3::exp(-h * e) * tau(w))) / (2 * h);
  }
  return M;
}

// Right-trivialized tangent by central differences: dtau_w delta = vee(D tau(w).delta tau(w)^T).
template <class Tau>
Matrix3d fdTangent(Tau tau, const Vector3d& w, double h = 1e-6) {
  Matrix3d M;
  for (int j = 0; j < 3; ++j) {
    const Vector3d e = Vector3d::Unit(j);
    M.col(j) = so3::vee((tau(w + h * e) - tau(w - h * e)) / (2 * h) * tau(w).transpose());
  }
  return M;
}

}  // namespace

TEST_CASE("so3: hat(a) b == a x b and vee(hat(w)) == w") {
  std::mt19937 rng(1);
  for (int i = 0; i < 50; ++i) {
    const Vector3d a = 3 * randUnit(rng), b = randUnit(rng);
    CHECK((so3::hat(a) * b - a.cross(b)).norm() < 1e-15);
    CHECK((so3::vee(so3::hat(a)) - a).norm() == 0.0);
  }
}

TEST_CASE("so3: exp(w) and cay(w) are orthonormal with det 1") {
  double eo = 0, ed = 0;
  for (const Vector3d& w : samples(2, 3 * kPi, true)) {
    for (const Matrix3d& R : {so3::exp(w), so3::cay(w)}) {
      eo = std::max(eo, orthoErr(R));
      ed = std::max(ed, std::abs(R.determinant() - 1));
    }
  }
  MESSAGE("max |R^T R - I| = " << eo << ", max |det R - 1| = " << ed);
  CHECK(eo < 1e-14);
  CHECK(ed < 1e-14);
}

TEST_CASE("so3: exp(w) == Eigen AngleAxis(|w|, w/|w|)") {
  double e = 0;
  for (const Vector3d& w : samples(3, 3 * kPi, true)) {
    if (w.norm() == 0) continue;
    e = std::max(e, (so3::exp(w) - Eigen::AngleAxisd(w.norm(), w.normalized()).toRotationMatrix()).norm());
  }
  MESSAGE("max |exp - AngleAxis| = " << e);
  CHECK(e < 1e-14);
}

TEST_CASE("so3: log(exp(w)) == w for |w| < pi (near 0 and near pi)") {
  double e = 0;
  for (const Vector3d& w : samples(4, kPi, true)) e = std::max(e, (so3::log(so3::exp(w)) - w).norm());
  MESSAGE("max |log(exp(w)) - w| = " << e);
  CHECK(e < 1e-14);
}

TEST_CASE("so3: exp(log(R)) == R near pi") {
  double e = 0;
  std::mt19937 rng(5);
  std::vector<Matrix3d> Rs = {Vector3d(1, -1, -1).asDiagonal(), Vector3d(-1, 1, -1).asDiagonal(),
                              Vector3d(-1, -1, 1).asDiagonal()};
  for (int i = 0; i < 50; ++i) Rs.push_back(Eigen::AngleAxisd(kPi, randUnit(rng)).toRotationMatrix());
  for (double d : {1e-4, 1e-8, 1e-12, 1e-15})
    for (int i = 0; i < 20; ++i) Rs.push_back(so3::exp((kPi + (i % 2 ? d : -d)) * randUnit(rng)));
  for (int i = 0; i < 200; ++i) Rs.push_back(so3::exp(2 * kPi * std::uniform_real_distribution<>(0, 1)(rng) * randUnit(rng)));
  for (const Matrix3d& R : Rs) {
    const Vector3d w = so3::log(R);
    CHECK(w.norm() <= kPi + 1e-15);
    e = std::max(e, (so3::exp(w) - R).norm());
  }
  MESSAGE("max |exp(log(R)) - R| = " << e);
  CHECK(e < 1e-14);
}

TEST_CASE("so3: cayInv(cay(w)) == w") {
  double e = 0;
  for (const Vector3d& w : samples(6, 20.0, false)) e = std::max(e, (so3::cayInv(so3::cay(w)) - w).norm() / std::max(1.0, w.squaredNorm()));
  MESSAGE("max |cayInv(cay(w)) - w| / max(1,|w|^2) = " << e);
  CHECK(e < 1e-14);
}

TEST_CASE("so3: cay(w) == (I - w^/2)^{-1} (I + w^/2)  (seed 000 eq. (12))") {
  std::mt19937 rng(7);
  for (int i = 0; i < 50; ++i) {
    const Vector3d w = 4 * std::uniform_real_distribution<>(0, 1)(rng) * randUnit(rng);
    const Matrix3d W = so3::hat(w), I = Matrix3d::Identity();
    CHECK((so3::cay(w) - (I - 0.5 * W).inverse() * (I + 0.5 * W)).norm() < 1e-14);
  }
}

TEST_CASE("so3: cay(w) - exp(w) = O(|w|^3) (fitted slope 3)") {
  std::mt19937 rng(8);
  const Vector3d u = randUnit(rng);
  std::vector<double> m, e;
  for (double k = 1; k <= 3.0001; k += 0.25) {
    m.push_back(std::pow(10.0, -k));
    e.push_back((so3::cay(m.back() * u) - so3::exp(m.back() * u)).norm());
  }
  const double p = logLogSlope(m, e);
  MESSAGE("fitted slope |cay - exp| vs |w|: " << p);
  CHECK(std::abs(p - 3.0) < 0.1);
}

TEST_CASE("so3: dexpInv and dcayInv are right-trivialized inverse tangents (finite differences)") {
  auto expf = [](const Vector3d& w) { return so3::exp(w); };
  auto logf = [](const Matrix3d& R) { return so3::log(R); };
  auto cayf = [](const Vector3d& w) { return so3::cay(w); };
  auto cinvf = [](const Matrix3d& R) { return so3::cayInv(R); };
  double ee = 0, ec = 0;
  for (const Vector3d& w : samples(9, 2.8, false)) {
    ee = std::max(ee, (fdInvTangent(expf, logf, w) - so3::dexpInv(w)).norm());
    ec = std::max(ec, (fdInvTangent(cayf, cinvf, w) - so3::dcayInv(w)).norm());
  }
  MESSAGE("max FD error: dexpInv " << ee << ", dcayInv " << ec);
  CHECK(ee < 1e-8);
  CHECK(ec < 1e-8);
}

TEST_CASE("so3: dexp and dcay are right-trivialized tangents (finite differences)") {
  auto expf = [](const Vector3d& w) { return so3::exp(w); };
  auto cayf = [](const Vector3d& w) { return so3::cay(w); };
  double ee = 0, ec = 0;
  for (const Vector3d& w : samples(10, 6.0, false)) {
    ee = std::max(ee, (fdTangent(expf, w) - so3::dexp(w)).norm());
    ec = std::max(ec, (fdTangent(cayf, w) - so3::dcay(w)).norm());
  }
  MESSAGE("max FD error: dexp " << ee << ", dcay " << ec);
  CHECK(ee < 1e-8);
  CHECK(ec < 1e-8);
}

TEST_CASE("so3: dexpInv(w) dexp(w) == I and dcayInv(w) dcay(w) == I") {
  double ee = 0, ec = 0;
  for (const Vector3d& w : samples(11, 6.0, true)) {
    ee = std::max(ee, (so3::dexpInv(w) * so3::dexp(w) - Matrix3d::Identity()).norm());
    ec = std::max(ec, (so3::dcayInv(w) * so3::dcay(w) - Matrix3d::Identity()).norm());
  }
  MESSAGE("max |dexpInv dexp - I| = " << ee << ", |dcayInv dcay - I| = " << ec);
  CHECK(ee < 1e-13);
  CHECK(ec < 1e-14);
}

TEST_CASE("so3: Ad_R ad_w Ad_R^{-1} == ad_{R w}") {
  std::mt19937 rng(12);
  for (int i = 0; i < 50; ++i) {
    const Matrix3d R = so3::exp(3 * randUnit(rng));
    const Vector3d w = 2 * randUnit(rng);
    CHECK((so3::Ad(R) * so3::ad(w) * R.transpose() - so3::ad(R * w)).norm() < 1e-14);
    CHECK((so3::exp(R * w) - R * so3::exp(w) * R.transpose()).norm() < 1e-14);
  }
}

TEST_CASE("so3: coefficient series and closed forms agree across the switch at |w| = 1.5") {
  namespace c = so3::coeff;
  const double s0 = 2.25;
  double e = 0;
  for (auto f : {c::sinc, c::A, c::dA, c::B, c::dB, c::K, c::dK, c::ddK}) {
    const double lo = f(std::nextafter(s0, 0.0)), hi = f(s0);
    e = std::max(e, std::abs(lo - hi) / std::max(1.0, std::abs(hi)));
  }
  MESSAGE("max jump at the series/closed-form switch: " << e);
  CHECK(e < 1e-15);
  // Closed forms in long double at points inside the series range (where cancellation is mild).
  for (double s : {0.8, 1.2, 2.0}) {
    const long double t = std::sqrt((long double)s), sh = std::sin(t / 2), ch = std::cos(t / 2);
    CHECK(std::abs(c::K(s) - double((1 - t / 2 * ch / sh) / s)) < 1e-15);
    CHECK(std::abs(c::B(s) - double((t - std::sin(t)) / (s * t))) < 1e-15);
    CHECK(std::abs(c::dK(s) - double((s / (sh * sh) + 2 * t * ch / sh - 8) / (8 * s * s))) < 1e-14);
  }
}

TEST_CASE("so3: rotate(w, u) == exp(w) u to 1e-15 (tiny, random up to 20 rad, near pi); rotateBothWays == rotate(+-w)") {
  std::mt19937 rng(42);
  std::vector<Vector3d> ws = samples(7, kPi, true), large = samples(8, 20.0, false);
  ws.insert(ws.end(), large.begin(), large.end());
  for (double m : {0.19999, 0.2, 0.20001, 0.59999, 0.6, 0.60001})  // where rotate shortens its series
    for (int i = 0; i < 5; ++i) ws.push_back(m * randUnit(rng));
  double worst = 0;
  for (const Vector3d& w : ws) {
    const Vector3d u = randUnit(rng);
    const Vector3d r = so3::rotate(w, u);
    worst = std::max(worst, (r - so3::exp(w) * u).norm());
    Vector3d forward, backward;
    so3::rotateBothWays(w, u, forward, backward);
    CHECK(forward == r);  // bit for bit: a pose retracted either way is the same pose
    CHECK(backward == so3::rotate(-w, u));
  }
  MESSAGE("max |rotate(w, u) - exp(w) u| = " << worst);
  CHECK(worst <= 1e-15);
}
