// tests/test_se2.cpp — identities of engine/lie/se2: poses, exp/log, the ERRATA Cayley map, Ad/ad,
// C maps (seed 000 App. B eqs. (21)-(22), exact dexp^{-1}) against finite differences, dCTmu, and
// agreement with the SE(3) maps restricted to the plane (twist (0,0,w, vx,vy,0)).
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <unsupported/Eigen/MatrixFunctions>
#include <vector>

#include "engine/lie/se2.h"
#include "engine/lie/se3.h"
#include "tests/log_log_slope.h"

using varsim::test::logLogSlope;

using namespace varsim;
using se2::Pose2;

namespace {

constexpr double kPi = 3.14159265358979323846;

// Twists (w, vx, vy): random |w| < maxAngle, |v| < 3; plus tiny and near-pi headings.
std::vector<Vector3d> samples(unsigned seed, double maxAngle, bool nearPi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Vector3d> out;
  auto add = [&](double w) { out.emplace_back(w, 3 * u(rng), 3 * u(rng)); };
  for (int i = 0; i < 200; ++i) add(maxAngle * u(rng));
  for (double m : {0.0, 1e-12, 1e-8, -1e-6, 1e-4, -1e-2, 1.4999, 1.5, -1.5001}) add(m);
  if (nearPi)
    for (double d : {1e-3, 1e-6, 1e-8, 1e-10, 1e-12}) add(kPi - d), add(-kPi + d);
  return out;
}

Pose2 randPose(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return Pose2{3 * u(rng), 5 * u(rng), 5 * u(rng)};
}

// Right-trivialized inverse tangent: d/ds tauInv(exp(s eta) tau(v)), central FD.
template <class Tau, class TauInv>
Matrix3d fdInvTangent(Tau tau, TauInv tauInv, const Vector3d& v, double h = 1e-6) {
  Matrix3d M;
  for (int j = 0; j < 3; ++j) {
    const Vector3d e = Vector3d::Unit(j);
    M.col(j) = (tauInv(se2::exp(h * e) * tau(v)) - tauInv(se2::exp(-h * e) * tau(v))) / (2 * h);
  }
  return M;
}

template <class Tau>
Matrix3d fdTangent(Tau tau, const Vector3d& v, double h = 1e-6) {
  Matrix3d M;
  for (int j = 0; j < 3; ++j) {
    const Vector3d e = Vector3d::Unit(j);
    M.col(j) = se2::vee((tau(v + h * e).matrix() - tau(v - h * e).matrix()) / (2 * h) * tau(v).inverse().matrix());
  }
  return M;
}

Vector6d embed(const Vector3d& v) {  // planar twist -> spatial twist about z
  Vector6d xi;
  xi << 0, 0, v[0], v[1], v[2], 0;
  return xi;
}

}  // namespace

TEST_CASE("se2: Pose2 product, inverse and act agree with 3x3 matrices") {
  std::mt19937 rng(1);
  for (int i = 0; i < 50; ++i) {
    const Pose2 a = randPose(rng), b = randPose(rng);
    const Eigen::Vector2d p(0.3, -0.7);
    CHECK(((a * b).matrix() - a.matrix() * b.matrix()).norm() < 1e-14);
    CHECK(((a * a.inverse()).matrix() - Matrix3d::Identity()).norm() < 1e-14);
    CHECK((a.act(p) - (a.matrix() * p.homogeneous()).head<2>()).norm() < 1e-14);
    CHECK((Pose2::fromMatrix(a.matrix()).matrix() - a.matrix()).norm() < 1e-15);
  }
}

TEST_CASE("se2: exp(v) == matrix exponential of hat(v) == reference/README planar formula") {
  double e = 0, er = 0, eo = 0;
  for (const Vector3d& v : samples(2, 3 * kPi, true)) {
    const Pose2 g = se2::exp(v);
    e = std::max(e, (g.matrix() - Matrix3d(se2::hat(v).exp())).norm() / (1 + v.norm()));
    const double w = v[0], S = w == 0 ? 1 : std::sin(w) / w, C = w == 0 ? 0 : 2 * std::sin(w / 2) * std::sin(w / 2) / w;  // (1-cos w)/w
    er = std::max(er, std::abs(g.x - (S * v[1] - C * v[2])) + std::abs(g.y - (C * v[1] + S * v[2])) + std::abs(g.theta - w));
    for (const Pose2& h : {g, se2::cay(v)}) {
      const Eigen::Matrix2d R = h.rotation();
      eo = std::max(eo, (R.transpose() * R - Eigen::Matrix2d::Identity()).norm() + std::abs(R.determinant() - 1));
    }
  }
  MESSAGE("max |exp - expm| = " << e << ", vs README formula " << er << ", orthonormality " << eo);
  CHECK(e < 1e-13);
  CHECK(er < 1e-14);
  CHECK(eo < 1e-14);
}

TEST_CASE("se2: cay(v) == (I - v^/2)^{-1}(I + v^/2)  (ERRATA Appendix B form)") {
  double e = 0;
  for (const Vector3d& v : samples(3, 10.0, false)) {
    const Matrix3d X = se2::hat(v), I = Matrix3d::Identity();
    e = std::max(e, (se2::cay(v).matrix() - (I - 0.5 * X).inverse() * (I + 0.5 * X)).norm() / (1 + v.norm()));
    const double a = v[0], b = v[1], c = v[2];
    Matrix3d errata;
    errata << 4 - a * a, -4 * a, 4 * b - 2 * a * c, 4 * a, 4 - a * a, 2 * a * b + 4 * c, 0, 0, 4 + a * a;
    CHECK((se2::cay(v).matrix() - errata / (4 + a * a)).norm() < 1e-14 * (1 + v.norm()));
  }
  MESSAGE("max |cay - matrix Cayley| = " << e);
  CHECK(e < 1e-14);
}

TEST_CASE("se2: log(exp(v)) == v for |w| < pi; exp(log(g)) == g; cayInv(cay(v)) == v") {
  double e1 = 0, e2 = 0, e3 = 0;
  for (const Vector3d& v : samples(4, kPi, true)) e1 = std::max(e1, (se2::log(se2::exp(v)) - v).norm() / (1 + v.norm()));
  for (const Vector3d& v : samples(5, 10.0, false)) e3 = std::max(e3, (se2::cayInv(se2::cay(v)) - v).norm() / (1 + v.squaredNorm()));
  std::mt19937 rng(6);
  for (int i = 0; i < 200; ++i) {
    Pose2 g = randPose(rng);
    g.theta *= 4;  // unwrapped headings
    e2 = std::max(e2, (se2::exp(se2::log(g)).matrix() - g.matrix()).norm());
  }
  MESSAGE("log(exp): " << e1 << ", exp(log): " << e2 << ", cayInv(cay): " << e3);
  CHECK(e1 < 1e-13);
  CHECK(e2 < 1e-13);
  CHECK(e3 < 1e-14);
}

TEST_CASE("se2: cay(v) - exp(v) = O(|v|^3) (fitted slope 3)") {
  const Vector3d u = Vector3d(0.6, -0.3, 0.74).normalized();
  std::vector<double> m, e;
  for (double k = 1; k <= 3.0001; k += 0.25) {
    m.push_back(std::pow(10.0, -k));
    e.push_back((se2::cay(m.back() * u).matrix() - se2::exp(m.back() * u).matrix()).norm());
  }
  const double p = logLogSlope(m, e);
  MESSAGE("fitted slope |cay - exp|: " << p);
  CHECK(std::abs(p - 3.0) < 0.1);
}

TEST_CASE("se2: Ad_g ad_v Ad_g^{-1} == ad_{Ad_g v}; Ad homomorphism; ad_v eta == [v, eta]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 100; ++i) {
    const Pose2 g = randPose(rng), k = randPose(rng);
    const Vector3d v(u(rng), u(rng), u(rng)), eta(u(rng), u(rng), u(rng)), mu(u(rng), u(rng), u(rng));
    CHECK((se2::Ad(g) * se2::ad(v) * se2::AdInv(g) - se2::ad(se2::Ad(g) * v)).norm() < 1e-12);
    CHECK((se2::Ad(g * k) - se2::Ad(g) * se2::Ad(k)).norm() < 1e-12);
    CHECK((se2::Ad(g) * v - se2::vee(g.matrix() * se2::hat(v) * g.inverse().matrix())).norm() < 1e-12);
    const Matrix3d X = se2::hat(v), E = se2::hat(eta);
    CHECK((se2::ad(v) * eta - se2::vee(X * E - E * X)).norm() < 1e-15);
    CHECK((se2::adStar(v) * mu - se2::adStarJacobian(mu) * v).norm() < 1e-15);
    CHECK((se2::AdInvStar(g) - se2::AdInv(g).transpose()).norm() == 0.0);
  }
}

TEST_CASE("se2: Cexp == dexp^{-1}, Ccay == dcay^{-1} (right-trivialized FD); dexp, dcay (FD); products == I") {
  auto expf = [](const Vector3d& v) { return se2::exp(v); };
  auto logf = [](const Pose2& g) { return se2::log(g); };
  auto cayf = [](const Vector3d& v) { return se2::cay(v); };
  auto cinvf = [](const Pose2& g) { return se2::cayInv(g); };
  double e[6] = {0, 0, 0, 0, 0, 0};
  for (const Vector3d& v : samples(8, 2.8, false)) {
    const double sc = 1 + v.norm();
    e[0] = std::max(e[0], (fdInvTangent(expf, logf, v) - se2::Cexp(v)).norm() / sc);
    e[1] = std::max(e[1], (fdInvTangent(cayf, cinvf, v) - se2::Ccay(v)).norm() / sc);
    e[2] = std::max(e[2], (fdTangent(expf, v) - se2::dexp(v)).norm() / sc);
    e[3] = std::max(e[3], (fdTangent(cayf, v) - se2::dcay(v)).norm() / sc);
  }
  for (const Vector3d& v : samples(9, 6.0, true)) {
    e[4] = std::max(e[4], (se2::Cexp(v) * se2::dexp(v) - Matrix3d::Identity()).norm() / (1 + v.squaredNorm()));
    e[5] = std::max(e[5], (se2::Ccay(v) * se2::dcay(v) - Matrix3d::Identity()).norm() / (1 + v.squaredNorm()));
  }
  MESSAGE("FD: Cexp " << e[0] << ", Ccay " << e[1] << ", dexp " << e[2] << ", dcay " << e[3]
                      << "; |Cexp dexp - I| " << e[4] << ", |Ccay dcay - I| " << e[5]);
  for (int i = 0; i < 4; ++i) CHECK(e[i] < 1e-8);
  CHECK(e[4] < 1e-13);
  CHECK(e[5] < 1e-14);
}

TEST_CASE("se2: Cexp - CexpTrunc = O(|v|^4) (fitted slope 4)") {
  const Vector3d u = Vector3d(0.5, 0.8, -0.33).normalized();
  std::vector<double> m, e;
  for (double k = 0.5; k <= 2.0001; k += 0.25) {
    m.push_back(std::pow(10.0, -k));
    e.push_back((se2::Cexp(m.back() * u) - se2::CexpTrunc(m.back() * u)).norm());
  }
  const double p = logLogSlope(m, e);
  MESSAGE("fitted slope |Cexp - CexpTrunc|: " << p);
  CHECK(std::abs(p - 4.0) < 0.1);
}

TEST_CASE("se2: maps equal the SE(3) maps of the twist (0,0,w, vx,vy,0)") {
  const int idx[3] = {2, 3, 4};
  double e = 0;
  for (const Vector3d& v : samples(10, 3.0, false)) {
    const Vector6d xi = embed(v);
    for (Retraction r : {Retraction::Cay, Retraction::Exp}) {
      const Pose2 g = se2::retract(r, v);
      const se3::Pose G = se3::retract(r, xi);
      e = std::max(e, (G.R.topLeftCorner<2, 2>() - g.rotation()).norm() + std::abs(G.x[0] - g.x) + std::abs(G.x[1] - g.y));
    }
    for (Tangent c : {Tangent::Cay, Tangent::Exp, Tangent::ExpTrunc, Tangent::Tln}) {
      const Matrix3d C2 = se2::tangentInverse(c, v);
      const Matrix6d C3 = se3::tangentInverse(c, xi);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) e = std::max(e, std::abs(C2(i, j) - C3(idx[i], idx[j])));
    }
  }
  MESSAGE("max difference to embedded SE(3): " << e);
  CHECK(e < 1e-14);
}

TEST_CASE("se2: retract / tangentInverse dispatch") {
  const Vector3d v(0.3, -1.0, 2.0);
  CHECK((se2::retract(Retraction::Cay, v).matrix() - se2::cay(v).matrix()).norm() == 0.0);
  CHECK((se2::retract(Retraction::Exp, v).matrix() - se2::exp(v).matrix()).norm() == 0.0);
  CHECK((se2::retractInv(Retraction::Cay, se2::cay(v)) - v).norm() < 1e-15);
  CHECK((se2::retractInv(Retraction::Exp, se2::exp(v)) - v).norm() < 1e-15);
  CHECK((se2::tangentInverse(Tangent::Tln, v) - (Matrix3d::Identity() - 0.5 * se2::ad(v))).norm() == 0.0);
}

TEST_CASE("se2: dCTmu == d/dv [C(v)^T mu] (finite differences, every Tangent)") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (Tangent c : {Tangent::Cay, Tangent::Exp, Tangent::ExpTrunc, Tangent::Tln}) {
    double e = 0;
    for (const Vector3d& v : samples(12, 4.0, false)) {
      const Vector3d mu(u(rng), u(rng), u(rng));
      Matrix3d fd;
      const double h = 1e-6;
      for (int j = 0; j < 3; ++j) {
        const Vector3d d = h * Vector3d::Unit(j);
        fd.col(j) = (se2::tangentInverse(c, v + d).transpose() * mu - se2::tangentInverse(c, v - d).transpose() * mu) / (2 * h);
      }
      e = std::max(e, (fd - se2::dCTmu(c, v, mu)).norm() / (1 + v.squaredNorm()));
    }
    MESSAGE("Tangent " << int(c) << ": max |dCTmu - FD| = " << e);
    CHECK(e < 1e-8);
  }
}
