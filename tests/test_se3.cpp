// tests/test_se3.cpp — identities of engine/lie/se3: poses, exp/log, cay/cayInv (ERRATA B_cay), Ad/ad,
// the C maps of seed 000 eq. (14) (exact dexp^{-1}, truncation, dcay^{-1}, TLN) against finite
// differences and independent series, and the analytic Jacobian dCTmu.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <unsupported/Eigen/MatrixFunctions>
#include <vector>

#include "engine/lie/se3.h"
#include "engine/lie/so3.h"
#include "tests/log_log_slope.h"

using varsim::test::logLogSlope;

using namespace varsim;
using se3::Pose;

namespace {

constexpr double kPi = 3.14159265358979323846;

Vector3d randUnit(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  return Vector3d(n(rng), n(rng), n(rng)).normalized();
}

// Twists with |w| random in (0, maxAngle) and |v| in (0, 3); plus tiny and near-pi rotations.
std::vector<Vector6d> samples(unsigned seed, double maxAngle, bool nearPi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Vector6d> out;
  auto add = [&](double m) {
    Vector6d xi;
    xi << m * randUnit(rng), 3 * u(rng) * randUnit(rng);
    out.push_back(xi);
  };
  for (int i = 0; i < 200; ++i) add(maxAngle * u(rng));
  for (double m : {0.0, 1e-12, 1e-8, 1e-6, 1e-4, 1e-2, 1.4999, 1.5, 1.5001})
    for (int i = 0; i < 5; ++i) add(m);
  if (nearPi)
    for (double d : {1e-3, 1e-6, 1e-8, 1e-10})
      for (int i = 0; i < 5; ++i) add(kPi - d);
  return out;
}

Pose randPose(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return Pose{so3::exp(3 * u(rng) * randUnit(rng)), 5 * Vector3d(u(rng), u(rng), u(rng))};
}

double orthoErr(const Matrix3d& R) { return (R.transpose() * R - Matrix3d::Identity()).norm(); }

// dtau^{-1}_xi eta = d/ds tauInv(exp(s eta) tau(xi)) (right-trivialized, seed 000 Sec. 3.1), central FD.
template <class Tau, class TauInv>
Matrix6d fdInvTangent(Tau tau, TauInv tauInv, const Vector6d& xi, bool leftPerturb = true, double h = 1e-6) {
  Matrix6d M;
  for (int j = 0; j < 6; ++j) {
    const Vector6d e = Vector6d::Unit(j);
    const Pose gp = leftPerturb ? se3::exp(h * e) * tau(xi) : tau(xi) * se3::exp(h * e);
    const Pose gm = leftPerturb ? se3::exp(-h * e) * tau(xi) : tau(xi) * se3::exp(-h * e);
    M.col(j) = (tauInv(gp) - tauInv(gm)) / (2 * h);
  }
  return M;
}

// dtau_xi delta = vee(D tau(xi).delta tau(xi)^{-1}), central FD.
template <class Tau>
Matrix6d fdTangent(Tau tau, const Vector6d& xi, double h = 1e-6) {
  Matrix6d M;
  for (int j = 0; j < 6; ++j) {
    const Vector6d e = Vector6d::Unit(j);
    M.col(j) = se3::vee((tau(xi + h * e).matrix() - tau(xi - h * e).matrix()) / (2 * h) * tau(xi).inverse().matrix());
  }
  return M;
}

// Independent reference: dexp^{-1} = sum_n B_n/n! ad^n (Bernoulli numbers, B_1 = -1/2), |w| < ~2.
Matrix6d dexpInvSeries(const Vector6d& xi) {
  const double b[] = {1.0, -0.5, 1.0 / 6, 0, -1.0 / 30, 0, 1.0 / 42, 0, -1.0 / 30, 0, 5.0 / 66, 0, -691.0 / 2730, 0,
                      7.0 / 6, 0, -3617.0 / 510, 0, 43867.0 / 798, 0, -174611.0 / 330, 0, 854513.0 / 138, 0,
                      -236364091.0 / 2730, 0, 8553103.0 / 6, 0, -23749461029.0 / 870, 0, 8615841276005.0 / 14322};
  const Matrix6d A = se3::ad(xi);
  Matrix6d P = Matrix6d::Identity(), S = Matrix6d::Zero();
  double fact = 1;
  for (int n = 0; n < int(sizeof(b) / sizeof(b[0])); ++n) {
    if (n > 0) P = P * A, fact *= n;
    S += (b[n] / fact) * P;
  }
  return S;
}

}  // namespace

TEST_CASE("se3: Pose product, inverse and act agree with 4x4 matrices") {
  std::mt19937 rng(1);
  for (int i = 0; i < 50; ++i) {
    const Pose a = randPose(rng), b = randPose(rng);
    const Vector3d p = randUnit(rng);
    CHECK(((a * b).matrix() - a.matrix() * b.matrix()).norm() < 1e-13);
    CHECK(((a * a.inverse()).matrix() - Matrix4d::Identity()).norm() < 1e-14);
    CHECK((a.act(p) - (a.matrix() * p.homogeneous()).head<3>()).norm() < 1e-14);
    CHECK((Pose::fromMatrix(a.matrix()).matrix() - a.matrix()).norm() == 0.0);
  }
}

TEST_CASE("se3: exp(xi) == matrix exponential of hat(xi); exp and cay are orthonormal") {
  double e = 0, eo = 0, ed = 0;
  for (const Vector6d& xi : samples(2, 3 * kPi, true)) {
    e = std::max(e, (se3::exp(xi).matrix() - Matrix4d(se3::hat(xi).exp())).norm() / (1 + xi.tail<3>().norm()));
    for (const Pose& g : {se3::exp(xi), se3::cay(xi)}) {
      eo = std::max(eo, orthoErr(g.R));
      ed = std::max(ed, std::abs(g.R.determinant() - 1));
    }
  }
  MESSAGE("max |exp - expm| = " << e << ", |R^T R - I| = " << eo << ", |det R - 1| = " << ed);
  CHECK(e < 1e-13);
  CHECK(eo < 1e-14);
  CHECK(ed < 1e-14);
}

TEST_CASE("se3: cay(xi) == (I - xi^/2)^{-1}(I + xi^/2), i.e. B_cay = (I - w^/2)^{-1} (ERRATA)") {
  double e = 0;
  for (const Vector6d& xi : samples(3, 6.0, false)) {
    const Matrix4d X = se3::hat(xi), I = Matrix4d::Identity();
    e = std::max(e, (se3::cay(xi).matrix() - (I - 0.5 * X).inverse() * (I + 0.5 * X)).norm() / (1 + xi.norm()));
  }
  MESSAGE("max |cay - matrix Cayley| = " << e);
  CHECK(e < 1e-14);
}

TEST_CASE("se3: cay of the screw xi = (0,0,1, 0,0,1) translates by (0,0,1) (ERRATA)") {
  Vector6d xi;
  xi << 0, 0, 1, 0, 0, 1;
  CHECK((se3::cay(xi).x - Vector3d(0, 0, 1)).norm() < 1e-15);
  const Vector3d w = xi.head<3>();
  const Vector3d printed = 2.0 / (4.0 + w.squaredNorm()) * (2 * Matrix3d::Identity() + so3::hat(w)) * xi.tail<3>();
  CHECK((printed - Vector3d(0, 0, 0.8)).norm() < 1e-15);  // the printed eq. (13) B_cay is wrong
}

TEST_CASE("se3: log(exp(xi)) == xi for |w| < pi and exp(log(g)) == g") {
  double e1 = 0, e2 = 0;
  for (const Vector6d& xi : samples(4, kPi, true)) {
    e1 = std::max(e1, (se3::log(se3::exp(xi)) - xi).norm() / (1 + xi.norm()));
  }
  std::mt19937 rng(5);
  for (int i = 0; i < 200; ++i) {
    Pose g = randPose(rng);
    if (i % 4 == 0) g.R = so3::exp((kPi - std::pow(10.0, -2 - i % 12)) * randUnit(rng));
    e2 = std::max(e2, (se3::exp(se3::log(g)).matrix() - g.matrix()).norm());
  }
  MESSAGE("max |log(exp(xi)) - xi|/(1+|xi|) = " << e1 << ", |exp(log(g)) - g| = " << e2);
  CHECK(e1 < 1e-14);
  CHECK(e2 < 1e-13);
}

TEST_CASE("se3: cayInv(cay(xi)) == xi") {
  double e = 0;
  for (const Vector6d& xi : samples(6, 10.0, false)) e = std::max(e, (se3::cayInv(se3::cay(xi)) - xi).norm() / (1 + xi.squaredNorm()));
  MESSAGE("max |cayInv(cay(xi)) - xi|/(1+|xi|^2) = " << e);
  CHECK(e < 1e-14);
}

TEST_CASE("se3: cay(xi) - exp(xi) = O(|xi|^3) (fitted slope 3)") {
  std::mt19937 rng(7);
  Vector6d u;
  u << randUnit(rng), randUnit(rng);
  std::vector<double> m, e;
  for (double k = 1; k <= 3.0001; k += 0.25) {
    m.push_back(std::pow(10.0, -k));
    e.push_back((se3::cay(m.back() * u).matrix() - se3::exp(m.back() * u).matrix()).norm());
  }
  const double p = logLogSlope(m, e);
  MESSAGE("fitted slope |cay - exp| vs |xi|: " << p);
  CHECK(std::abs(p - 3.0) < 0.1);
}

TEST_CASE("se3: Ad_g ad_xi Ad_g^{-1} == ad_{Ad_g xi}; Ad is a homomorphism; Ad_g xi = vee(g xi^ g^-1)") {
  std::mt19937 rng(8);
  double e1 = 0, e2 = 0, e3 = 0, e4 = 0;
  for (int i = 0; i < 100; ++i) {
    const Pose g = randPose(rng), k = randPose(rng);
    Vector6d xi;
    xi << randUnit(rng), 2 * randUnit(rng);
    e1 = std::max(e1, (se3::Ad(g) * se3::ad(xi) * se3::AdInv(g) - se3::ad(se3::Ad(g) * xi)).norm());
    e2 = std::max(e2, (se3::Ad(g * k) - se3::Ad(g) * se3::Ad(k)).norm());
    e3 = std::max(e3, (se3::Ad(g) * xi - se3::vee(g.matrix() * se3::hat(xi) * g.inverse().matrix())).norm());
    e4 = std::max(e4, (se3::AdInv(g) * se3::Ad(g) - Matrix6d::Identity()).norm() +
                          (se3::AdInvStar(g) - se3::AdInv(g).transpose()).norm());
    CHECK(((g * se3::exp(xi) * g.inverse()).matrix() - se3::exp(se3::Ad(g) * xi).matrix()).norm() < 1e-12);
  }
  MESSAGE("Ad ad Ad^-1: " << e1 << ", homomorphism: " << e2 << ", vs matrices: " << e3 << ", inverse/transpose: " << e4);
  CHECK(e1 < 1e-12);
  CHECK(e2 < 1e-12);
  CHECK(e3 < 1e-12);
  CHECK(e4 < 1e-12);
}

TEST_CASE("se3: ad_xi eta == [xi, eta] and ad_xi^T mu == adStarJacobian(mu) xi") {
  std::mt19937 rng(9);
  for (int i = 0; i < 50; ++i) {
    Vector6d xi, eta, mu;
    xi << randUnit(rng), randUnit(rng);
    eta << randUnit(rng), randUnit(rng);
    mu << randUnit(rng), randUnit(rng);
    const Matrix4d X = se3::hat(xi), E = se3::hat(eta);
    CHECK((se3::ad(xi) * eta - se3::vee(X * E - E * X)).norm() < 1e-14);
    CHECK((se3::adStar(xi) * mu - se3::adStarJacobian(mu) * xi).norm() < 1e-14);
  }
}

TEST_CASE("se3: Cexp == dexp^{-1} and Ccay == dcay^{-1} (right-trivialized, finite differences)") {
  auto expf = [](const Vector6d& x) { return se3::exp(x); };
  auto logf = [](const Pose& g) { return se3::log(g); };
  auto cayf = [](const Vector6d& x) { return se3::cay(x); };
  auto cinvf = [](const Pose& g) { return se3::cayInv(g); };
  double ee = 0, ec = 0, el = 0;
  for (const Vector6d& xi : samples(10, 2.8, false)) {
    const double sc = 1 + xi.norm();
    ee = std::max(ee, (fdInvTangent(expf, logf, xi) - se3::Cexp(xi)).norm() / sc);
    ec = std::max(ec, (fdInvTangent(cayf, cinvf, xi) - se3::Ccay(xi)).norm() / sc);
    // Perturbing on the right, tau(xi) exp(s eta), gives the LEFT-trivialized inverse = C(-xi).
    el = std::max(el, (fdInvTangent(expf, logf, xi, false) - se3::Cexp(-xi)).norm() / sc);
  }
  MESSAGE("max FD error: Cexp " << ee << ", Ccay " << ec << ", left-trivialized == Cexp(-xi): " << el);
  CHECK(ee < 1e-8);
  CHECK(ec < 1e-8);
  CHECK(el < 1e-8);
}

TEST_CASE("se3: dexp and dcay are right-trivialized tangents (finite differences)") {
  auto expf = [](const Vector6d& x) { return se3::exp(x); };
  auto cayf = [](const Vector6d& x) { return se3::cay(x); };
  double ee = 0, ec = 0;
  for (const Vector6d& xi : samples(11, 6.0, false)) {
    const double sc = 1 + xi.norm();
    ee = std::max(ee, (fdTangent(expf, xi) - se3::dexp(xi)).norm() / sc);
    ec = std::max(ec, (fdTangent(cayf, xi) - se3::dcay(xi)).norm() / sc);
  }
  MESSAGE("max FD error: dexp " << ee << ", dcay " << ec);
  CHECK(ee < 1e-8);
  CHECK(ec < 1e-8);
}

TEST_CASE("se3: Cexp(xi) dexp(xi) == I and Ccay(xi) dcay(xi) == I") {
  double ee = 0, ec = 0;
  for (const Vector6d& xi : samples(12, 6.0, true)) {
    const double sc = 1 + xi.squaredNorm();
    ee = std::max(ee, (se3::Cexp(xi) * se3::dexp(xi) - Matrix6d::Identity()).norm() / sc);
    ec = std::max(ec, (se3::Ccay(xi) * se3::dcay(xi) - Matrix6d::Identity()).norm() / sc);
  }
  MESSAGE("max |Cexp dexp - I| = " << ee << ", |Ccay dcay - I| = " << ec);
  CHECK(ee < 1e-13);
  CHECK(ec < 1e-14);
}

TEST_CASE("se3: Cexp (ERRATA closed form) == Bernoulli series sum B_n/n! ad^n") {
  double e = 0;
  for (const Vector6d& xi : samples(13, 2.0, false))
    e = std::max(e, (se3::Cexp(xi) - dexpInvSeries(xi)).norm() / (1 + xi.squaredNorm()));
  MESSAGE("max |Cexp - Bernoulli series| = " << e);
  CHECK(e < 1e-14);
}

TEST_CASE("se3: Cexp - CexpTrunc = O(|xi|^4) (fitted slope 4)") {
  std::mt19937 rng(14);
  Vector6d u;
  u << randUnit(rng), randUnit(rng);
  std::vector<double> m, e;
  for (double k = 0.5; k <= 2.0001; k += 0.25) {
    m.push_back(std::pow(10.0, -k));
    e.push_back((se3::Cexp(m.back() * u) - se3::CexpTrunc(m.back() * u)).norm());
  }
  const double p = logLogSlope(m, e);
  MESSAGE("fitted slope |Cexp - CexpTrunc| vs |xi|: " << p);
  CHECK(std::abs(p - 4.0) < 0.1);
}

TEST_CASE("se3: retract and tangentInverse dispatch") {
  std::mt19937 rng(15);
  Vector6d xi;
  xi << randUnit(rng), randUnit(rng);
  CHECK((se3::retract(Retraction::Cay, xi).matrix() - se3::cay(xi).matrix()).norm() == 0.0);
  CHECK((se3::retract(Retraction::Exp, xi).matrix() - se3::exp(xi).matrix()).norm() == 0.0);
  CHECK((se3::retractInv(Retraction::Cay, se3::cay(xi)) - xi).norm() < 1e-15);
  CHECK((se3::retractInv(Retraction::Exp, se3::exp(xi)) - xi).norm() < 1e-15);
  CHECK((se3::tangentInverse(Tangent::Cay, xi) - se3::Ccay(xi)).norm() == 0.0);
  CHECK((se3::tangentInverse(Tangent::Exp, xi) - se3::Cexp(xi)).norm() == 0.0);
  CHECK((se3::tangentInverse(Tangent::ExpTrunc, xi) - se3::CexpTrunc(xi)).norm() == 0.0);
  CHECK((se3::tangentInverse(Tangent::Tln, xi) - (Matrix6d::Identity() - 0.5 * se3::ad(xi))).norm() == 0.0);
}

TEST_CASE("se3: dCTmu == d/dxi [C(xi)^T mu] (finite differences, every Tangent)") {
  std::mt19937 rng(16);
  for (Tangent c : {Tangent::Cay, Tangent::Exp, Tangent::ExpTrunc, Tangent::Tln}) {
    double e = 0;
    for (const Vector6d& xi : samples(17, 4.0, false)) {
      Vector6d mu;
      mu << 2 * randUnit(rng), 3 * randUnit(rng);
      Matrix6d fd;
      const double h = 1e-6;
      for (int j = 0; j < 6; ++j) {
        const Vector6d d = h * Vector6d::Unit(j);
        fd.col(j) = (se3::tangentInverse(c, xi + d).transpose() * mu - se3::tangentInverse(c, xi - d).transpose() * mu) / (2 * h);
      }
      e = std::max(e, (fd - se3::dCTmu(c, xi, mu)).norm() / (1 + xi.squaredNorm()));
    }
    MESSAGE("Tangent " << int(c) << ": max |dCTmu - FD| = " << e);
    CHECK(e < 1e-8);
  }
}
