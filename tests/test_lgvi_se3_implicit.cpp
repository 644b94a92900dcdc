// Tests of the LGVI's optional end-of-step (implicit) wrench (lgvi_se3.h ImplicitWrench, issue 15 items 10-11):
// its chain-rule Jacobian against finite differences, unconditional passivity of an implicit spring at
// omega h = 10, the exact discrete momentum balance, and a zero wrench reproducing the plain scheme.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "engine/integrators/lgvi_se3.h"
#include "engine/lie/so3.h"
#include "engine/sim/errors.h"
#include "tests/rigid_body_fixtures.h"
#include "tests/wrench_partials.h"

using namespace varsim;
using namespace varsim::test;

namespace {

double rotationAngle(const Matrix3d& A, const Matrix3d& B) { return so3::log(A.transpose() * B).norm(); }


// Body wrench of a world spring K (p - anchor) on the body point r plus a damper c on its velocity: the partial
// derivatives are taken by central differences of this very function (pose perturbed as R exp(theta^), x + R y), so
// the test below checks only the LGVI's chain rule and transport.
Vector6d pointSpring(const se3::Pose& g, const Vector6d& xi, double K, double c, const Vector3d& r) {
  const Vector3d p = g.act(r), u = g.R * (xi.tail<3>() + xi.head<3>().cross(r));
  const Vector3d fb = g.R.transpose() * (-K * (p - Vector3d(0.3, -0.2, 0.1)) - c * u);
  Vector6d f;
  f << r.cross(fb), fb;
  return f;
}

LgviOptions matched(LgviGroup group, Retraction tau) {  // (cay, C_cay) or (exp, dexp^-1)
  LgviOptions o;
  o.group = group;
  o.retraction = tau;
  o.tangent = tau == Retraction::Cay ? Tangent::Cay : Tangent::Exp;
  return o;
}

ImplicitWrench springWithNumericPartials(double K, double c, const Vector3d& r) {
  return [=](const se3::Pose& g, const Vector6d& xi, double, ImplicitWrenchJacobian* jac) {
    if (jac)
      numericWrenchPartials([&](const se3::Pose& q, const Vector6d& x) { return pointSpring(q, x, K, c, r); }, g, xi,
                            1e-6, jac->dPose, jac->dXi);
    return pointSpring(g, xi, K, c, r);
  };
}

}  // namespace

TEST_CASE("ImplicitWrenchJacobianMatchesFiniteDifferences") {
  // d/dxi [Tr(xi) f^+(g_k tau(h xi), xi^+)] (chain rule through the end pose, the end-frame twist and the transport)
  // against central differences, both groups and retractions, generic pose and twist.
  const ImplicitWrench f = springWithNumericPartials(500.0, 20.0, Vector3d(0.4, -0.3, 0.7));
  for (LgviGroup group : {LgviGroup::SE3, LgviGroup::SO3xR3})
    for (Retraction tau : {Retraction::Cay, Retraction::Exp}) {
      LgviSe3 lg(referenceBody(), matched(group, tau));
      se3::Pose g0;
      g0.R = so3::exp(Vector3d(0.3, -0.5, 0.8));
      g0.x = Vector3d(1.0, 2.0, -0.5);
      lg.initialize(g0, referenceXi(), 0.0, 0.1, {});
      double worst = 0.0;
      for (int trial = 0; trial < 5; ++trial) {
        const Vector6d xi = (Vector6d() << 1.1, -0.7, 2.0, 0.5, -1.5, 0.8).finished() * (0.5 + trial);
        Matrix6d J;
        lg.endOfStepWrench(0.1, xi, f, &J);
        Matrix6d Jfd;
        const double e = 1e-5;
        for (int j = 0; j < 6; ++j) {
          Vector6d d = Vector6d::Zero();
          d[j] = e;
          Jfd.col(j) =
              (lg.endOfStepWrench(0.1, xi + d, f, nullptr) - lg.endOfStepWrench(0.1, xi - d, f, nullptr)) / (2 * e);
        }
        worst = std::max(worst, (J - Jfd).norm() / J.norm());
      }
      MESSAGE("group " << int(group) << " tau " << int(tau) << ": |J - J_fd| / |J| = " << worst);
      CHECK(worst < 1e-6);
    }
}

TEST_CASE("ImplicitSpringAtOmegaHTenNeverGainsEnergy") {
  // Spring K = m (10/h)^2 on the centre of mass (omega h = 10): x_{k+1} = x_k + h v_k, m v_k = m v_{k-1} - h K
  // x_{k+1}. The energy 1/2 |mu^-_k|^2_{II^-1} + 1/2 K |x_k|^2 drops every step (by 1/2 m dv^2 + 1/2 K dx^2) and the
  // amplitude contracts by |lambda| = 1/sqrt(1 + 100) per step; the explicit node force (symplectic Euler) would grow
  // by ~98x per step. Then an off-centre spring with damping, which spins the body: energy never above its start.
  const double h = 0.05, m = referenceBody().mass, K = m * (10.0 / h) * (10.0 / h);
  for (LgviGroup group : {LgviGroup::SE3, LgviGroup::SO3xR3})
    for (Retraction tau : {Retraction::Cay, Retraction::Exp}) {
      LgviSe3 lg(referenceBody(), matched(group, tau));
      se3::Pose g0;
      g0.x = Vector3d(0.3, -0.2, 0.1) + Vector3d(0.02, 0.01, -0.03);
      lg.initialize(g0, (Vector6d() << 0, 0, 0, 1.0, -2.0, 0.5).finished(), 0.0, h, {});
      const ImplicitWrench centre = springWithNumericPartials(K, 0.0, Vector3d::Zero());
      const auto energy = [&] {
        return lg.energy() + 0.5 * K * (lg.pose().x - Vector3d(0.3, -0.2, 0.1)).squaredNorm();
      };
      double E = energy(), worstRise = -1.0;
      const double E0 = E;
      for (int k = 0; k < 40; ++k) {
        lg.step(h, {}, centre);
        const double En = energy();
        worstRise = std::max(worstRise, (En - E) / E0);
        E = En;
      }
      MESSAGE("centre spring, group " << int(group) << " tau " << int(tau) << ": worst relative one-step rise "
                                      << worstRise << ", E/E0 after 40 steps " << E / E0);
      CHECK(worstRise <= 1e-12);
      CHECK(E / E0 < 1e-20);  // 101^-40 = 1e-80 in exact arithmetic; round-off
                              // of x - a ends it near 1e-28

      LgviSe3 spin(referenceBody(), matched(group, tau));
      spin.initialize(g0, referenceXi(), 0.0, h, {});
      const Vector3d r(0.4, -0.3, 0.7);
      const ImplicitWrench offCentre = springWithNumericPartials(K, 50.0, r);
      const auto spinEnergy = [&] {
        return spin.energy() + 0.5 * K * (spin.pose().act(r) - Vector3d(0.3, -0.2, 0.1)).squaredNorm();
      };
      const double S0 = spinEnergy();
      double maxS = S0;
      for (int k = 0; k < 200; ++k) {
        spin.step(h, {}, offCentre);
        maxS = std::max(maxS, spinEnergy());
      }
      MESSAGE("off-centre spring: max E/E0 " << maxS / S0 << ", final " << spinEnergy() / S0);
      CHECK(maxS <= S0 * (1.0 + 1e-12));
      CHECK(spinEnergy() < 0.5 * S0);
    }
}

TEST_CASE("ImplicitWrenchKeepsTheDiscreteMomentumBalanceAndZeroWrenchMatchesThePlainScheme") {
  // M_{k+1} - M_k = lastStepImpulse() = h Ad*_{g_k^-1} (f_k + Tr f^+) for the matched pairs on both groups (the end
  // wrench's share visibly non-zero); a zero end-of-step wrench (full 6x6 Newton path) reproduces the plain scheme to
  // round-off.
  const WrenchField g = gravityField(2.0, Vector3d(0.3, -1.0, -9.81));
  const ImplicitWrench spring = springWithNumericPartials(2000.0, 5.0, Vector3d(0.4, -0.3, 0.7));
  const ImplicitWrench zero = [](const se3::Pose&, const Vector6d&, double, ImplicitWrenchJacobian*) {
    return Vector6d::Zero().eval();
  };
  for (LgviGroup group : {LgviGroup::SE3, LgviGroup::SO3xR3}) {
    LgviOptions o = matched(group, Retraction::Cay);
    o.newtonTolerance = 1e-16;
    LgviSe3 a(referenceBody(), o), plain(referenceBody(), o), zeroed(referenceBody(), o);
    for (LgviSe3* lg : {&a, &plain, &zeroed}) lg->initialize(se3::Pose{}, referenceXi(), 0.0, 0.02, g);
    double balance = 0.0, scale = 0.0, gap = 0.0, pushed = 0.0;
    for (int k = 0; k < 300; ++k) {
      const Vector6d M = a.spatialMomentum(), fk = g(a.pose(), a.xi(), a.time());
      const se3::Pose gk = a.pose();
      a.step(0.02, g, spring);
      const Vector6d J = a.lastStepImpulse();
      balance = std::max(balance, (a.spatialMomentum() - M - J).norm());
      pushed = std::max(pushed, (J - 0.02 * se3::spatialMomentum(gk, fk)).norm());
      scale = std::max(scale, M.norm());
      plain.step(0.02, g);
      zeroed.step(0.02, g, zero);
      gap =
          std::max(gap, (plain.xi() - zeroed.xi()).norm() / plain.xi().norm() +
                            (plain.pose().x - zeroed.pose().x).norm() + rotationAngle(plain.pose().R, zeroed.pose().R));
    }
    MESSAGE("group " << int(group) << ": balance error " << balance / scale << ", zero-wrench gap " << gap);
    CHECK(balance / scale < 1e-13);
    CHECK(gap < 1e-12);
    CHECK(pushed > 1e-3 * scale);
    CHECK(a.lastSubsteps() == 1);
  }
}
