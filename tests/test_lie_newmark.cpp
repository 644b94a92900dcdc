// Tests of the Lie-Newmark baseline (Krysl & Endres 2005 on SE(3), seed 000
// Sec. 3.3 "Newmark") against its published properties: second order (free and
// falling body against DOP853), exact for constant body velocity (g_k = g_0
// exp(k h xi) to round-off, where RK4 is not), Newton iterations counted.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "engine/integrators/lie_newmark.h"
#include "engine/integrators/rk4_rigid_body.h"
#include "engine/lie/so3.h"
#include "tests/rigid_body_fixtures.h"

using namespace varsim;
using namespace varsim::test;

TEST_CASE("ObservedOrderTwo") {
  const auto free = readCsv(VARSIM_TEST_DATA "/reference/rigid_body_free.csv");
  const auto falling = readCsv(VARSIM_TEST_DATA "/reference/rigid_body_falling.csv");
  const std::vector<double> hs = {0.1, 0.05, 0.025, 0.0125};
  const WrenchField gravity = gravityField(2.0, Vector3d(0, 0, -9.81));
  std::vector<double> eFree, eFall;
  for (double h : hs) {
    LieNewmark a(referenceBody()), b(referenceBody());
    a.initialize(se3::Pose{}, referenceXi(), 0.0);
    b.initialize(se3::Pose{}, referenceXi(), 0.0);
    for (long k = 0; k < std::lround(3.0 / h); ++k) a.step(h, {}), b.step(h, gravity);
    eFree.push_back(quat::angleBetween(a.quaternion(), quatColumns(free, 60, "gt_")) +
                    (a.pose().x - posColumns(free, 60, "gt_")).norm());
    eFall.push_back(quat::angleBetween(b.quaternion(), quatColumns(falling, 300, "gt_")) +
                    (b.pose().x - posColumns(falling, 300, "gt_")).norm());
  }
  const double sFree = logLogSlope(hs, eFree), sFall = logLogSlope(hs, eFall);
  MESSAGE("Newmark pose error at 3 s, free: " << eFree[0] << " ... " << eFree[3] << " slope " << sFree << "; falling: "
                                              << eFall[0] << " ... " << eFall[3] << " slope " << sFall);
  CHECK(sFree == doctest::Approx(2.0).epsilon(0.05));
  CHECK(sFall == doctest::Approx(2.0).epsilon(0.05));
}

TEST_CASE("ExactForConstantVelocity") {
  // Torque-free screw motion about a principal axis (w parallel to v) and pure
  // translation: the body velocity is constant, the exact motion is g(t) = g0
  // exp(t xi). Newmark reproduces it to round-off; RK4 does not.
  const RigidBodyInertia body = principalInertia(2.0, Vector3d(2.0, 4.0, 7.0));
  se3::Pose g0;
  g0.R = so3::exp(Vector3d(0.3, -0.2, 0.5));
  g0.x = Vector3d(1.0, -2.0, 0.5);
  for (const Vector6d& xi :
       {(Vector6d() << 0, 0, 2.5, 0, 0, 1.5).finished(), (Vector6d() << 0, 0, 0, 1, -2, 3).finished()}) {
    LieNewmark nm(body);
    Rk4RigidBody rk(body);
    nm.initialize(g0, xi, 0.0);
    rk.initialize(g0, xi, 0.0);
    const double h = 0.1;
    for (int k = 0; k < 1000; ++k) nm.step(h, {}), rk.step(h, {});
    const se3::Pose exact = g0 * se3::exp(100.0 * xi);
    const double nmErr = (nm.pose().R - exact.R).norm() + (nm.pose().x - exact.x).norm();
    const double rkErr = (rk.pose().R - exact.R).norm() + (rk.pose().x - exact.x).norm();
    MESSAGE("constant velocity, 1000 steps of 0.1 s: Newmark error " << nmErr << ", RK4 " << rkErr);
    CHECK(nmErr < 1e-11);
    CHECK((nm.xi() - xi).norm() < 1e-14);
    if (xi.head<3>().norm() > 0) CHECK(rkErr > 1e3 * nmErr);
  }
}

TEST_CASE("NewtonIterationsAndEnergyBounded") {
  // The free body at h = 0.1 for 600 s: Newton converges in a few iterations;
  // the energy error stays bounded (Newmark with gamma = 1/2 is not symplectic
  // on the rotation group, so this is measured, not promised).
  LieNewmark nm(referenceBody());
  nm.initialize(se3::Pose{}, referenceXi(), 0.0);
  const double E0 = nm.energy();
  double worst = 0.0;
  int maxIt = 0;
  for (int k = 0; k < 6000; ++k) {
    nm.step(0.1, {});
    worst = std::max(worst, std::abs(nm.energy() - E0) / E0);
    maxIt = std::max(maxIt, nm.newtonIterations());
  }
  MESSAGE("Newmark h = 0.1, 600 s: max |dE/E| " << worst << ", max Newton iterations " << maxIt);
  CHECK(maxIt >= 2);
  CHECK(maxIt <= 8);
  CHECK(worst < 0.05);
}

TEST_CASE("DirectProductNewmarkIsSecondOrderAndConservesLinearMomentum") {
  // newmark_so3xr3: the same Newmark pair with the translation on R^3 (world frame). Second order free and falling
  // against DOP853; with no force the world velocity R v is constant to round-off (linear momentum exact), which
  // the SE(3) form only approximates; under gravity the centre of mass follows the parabola exactly (Newmark with
  // gamma = 1/2 integrates a constant acceleration exactly) while the SE(3) form couples it to the attitude.
  const auto free = readCsv(VARSIM_TEST_DATA "/reference/rigid_body_free.csv");
  const auto falling = readCsv(VARSIM_TEST_DATA "/reference/rigid_body_falling.csv");
  const std::vector<double> hs = {0.1, 0.05, 0.025, 0.0125};
  const Vector3d gvec(0, 0, -9.81);
  const WrenchField gravity = gravityField(2.0, gvec);
  std::vector<double> eFree, eFall;
  double pDriftP = 0, pDriftS = 0, parabola = 0;
  for (double h : hs) {
    LieNewmark a(referenceBody(), LieNewmark::Group::SO3xR3), b(referenceBody(), LieNewmark::Group::SO3xR3);
    LieNewmark s(referenceBody());
    a.initialize(se3::Pose{}, referenceXi(), 0.0);
    b.initialize(se3::Pose{}, referenceXi(), 0.0);
    s.initialize(se3::Pose{}, referenceXi(), 0.0);
    const Vector3d p0 = a.spatialMomentum().tail<3>();
    const Vector3d u0 = referenceXi().tail<3>();  // R(0) = I: world velocity = body velocity
    const long n = std::lround(3.0 / h);
    for (long k = 0; k < n; ++k) {
      a.step(h, {}), b.step(h, gravity), s.step(h, {});
      pDriftP = std::max(pDriftP, (a.spatialMomentum().tail<3>() - p0).norm() / p0.norm());
      pDriftS = std::max(pDriftS, (s.spatialMomentum().tail<3>() - p0).norm() / p0.norm());
    }
    const double t = double(n) * h;
    parabola = std::max(parabola, (b.pose().x - (t * u0 + 0.5 * t * t * gvec)).norm());
    eFree.push_back(quat::angleBetween(a.quaternion(), quatColumns(free, 60, "gt_")) +
                    (a.pose().x - posColumns(free, 60, "gt_")).norm());
    eFall.push_back(quat::angleBetween(b.quaternion(), quatColumns(falling, 300, "gt_")) +
                    (b.pose().x - posColumns(falling, 300, "gt_")).norm());
  }
  const double sFree = logLogSlope(hs, eFree), sFall = logLogSlope(hs, eFall);
  MESSAGE("Newmark SO(3)xR3 pose error at 3 s, free: " << eFree[0] << " ... " << eFree[3] << " slope " << sFree
                                                       << "; falling: slope " << sFall << "; linear momentum drift "
                                                       << pDriftP << " (SE(3) form " << pDriftS << "); parabola "
                                                       << parabola << " m");
  CHECK(sFree == doctest::Approx(2.0).epsilon(0.05));
  CHECK(sFall == doctest::Approx(2.0).epsilon(0.05));
  CHECK(pDriftP < 1e-14);
  CHECK(pDriftS > 1e6 * pDriftP + 1e-9);
  CHECK(parabola < 1e-11);
}

TEST_CASE("DirectProductNewmarkIsExactForASpinWithAnyTranslation") {
  // Torque-free spin about a principal axis with a world velocity in any direction: w constant, x linear in t.
  const RigidBodyInertia body = principalInertia(2.0, Vector3d(2.0, 4.0, 7.0));
  se3::Pose g0;
  g0.R = so3::exp(Vector3d(0.3, -0.2, 0.5));
  g0.x = Vector3d(1.0, -2.0, 0.5);
  const Vector3d w(0, 0, 2.5), uWorld(1.0, -2.0, 3.0);
  Vector6d xi;
  xi << w, g0.R.transpose() * uWorld;
  LieNewmark nm(body, LieNewmark::Group::SO3xR3);
  nm.initialize(g0, xi, 0.0);
  for (int k = 0; k < 1000; ++k) nm.step(0.1, {});
  const Matrix3d R = g0.R * so3::exp(100.0 * w);
  const double err = (nm.pose().R - R).norm() + (nm.pose().x - (g0.x + 100.0 * uWorld)).norm();
  MESSAGE("SO(3)xR3 Newmark, spin + oblique translation, 1000 steps: error " << err);
  CHECK(err < 1e-13 * (1.0 + (g0.x + 100.0 * uWorld).norm()));  // round-off of a 370 m path
  CHECK(std::string(nm.name()) == "newmark_so3xr3");
  CHECK(std::string(makeRigidBodyBaseline("newmark_so3xr3", body)->name()) == "newmark_so3xr3");
}
