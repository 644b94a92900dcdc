// Tests of the quaternion Lie group variational integrator of seed 004 (engine/integrators/quat_lgvi.h) on the Sec. 5
// orbit (tests/orbit_fixtures.h): eq. (23) and the DEL equations (19), (22) hold literally at every step, F(q) dV/dq
// against finite differences of V(x, q exp(eta)), angular momentum and |q| = 1 to round-off over 10^5 steps, bounded
// energy (maxima over [0, T] and [0, 10T]), order 2, agreement with the SO(3)xR^3 LGVI as h -> 0, q and -q give the
// same motion bit for bit, the continuous model (15) conserves energy only with the ERRATA sign, and the usual
// failure/state handling.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "engine/integrators/lgvi_se3.h"
#include "engine/integrators/quat_lgvi.h"
#include "engine/integrators/quat_rk4.h"
#include "engine/lie/so3.h"
#include "engine/sim/errors.h"
#include "tests/log_log_slope.h"
#include "tests/orbit_fixtures.h"

using namespace varsim;
using varsim::test::logLogSlope;
using varsim::test::OrbitSetup;

namespace {

const bool kSanitized = std::getenv("VARSIM_SANITIZED") != nullptr;

QuatLgvi makeLgvi(const OrbitSetup& o, const quat::Quat& q0) {
  QuatLgvi lg(o.inertia, o.potential);
  lg.initialize(o.x0, q0, o.xdot0, o.omega0, 0.0);
  return lg;
}

// The paper's maps written out again here (independent of quat_lgvi.cpp): G(q) = q_s I - q_v^ and Im(q).
Matrix3d paperG(const quat::Quat& q) {
  Matrix3d G = q[0] * Matrix3d::Identity();
  G(0, 1) += q[3], G(0, 2) -= q[2], G(1, 0) -= q[3], G(1, 2) += q[1], G(2, 0) += q[2], G(2, 1) -= q[1];
  return G;
}
Vector3d Im(const quat::Quat& q) { return q.tail<3>(); }
quat::Quat conjMul(const quat::Quat& a, const quat::Quat& b) { return quat::multiply(quat::conjugate(a), b); }

double relErr(const Vector3d& a, const Vector3d& b) { return (a - b).norm() / std::max(a.norm(), b.norm()); }

}  // namespace

TEST_CASE("QuatGAndFAreTheImaginaryPartAndTheProductWithAPureQuaternion") {
  std::mt19937 rng(4);
  std::normal_distribution<double> n;
  for (int i = 0; i < 20; ++i) {
    const quat::Quat q(n(rng), n(rng), n(rng), n(rng));
    const Vector3d v(n(rng), n(rng), n(rng));
    const quat::Quat qv = quat::multiply(q, quat::Quat(0.0, v.x(), v.y(), v.z()));
    CHECK((quatG(q).transpose() * v - qv.tail<3>()).norm() <= 1e-14 * q.norm() * v.norm());
    CHECK((quatF(q).transpose() * v - qv).norm() <= 1e-14 * q.norm() * v.norm());
    CHECK((quatG(q) - paperG(q)).norm() == 0.0);
  }
}

TEST_CASE("CentralFieldGradientsMatchFiniteDifferencesOfVAlongQExpEta") {
  // eta . F(q) dV/dq = d/de V(x, q exp(e eta)) and dV/dx against five-point differences (step 1e-3, error ~1e-11
  // relative), at random poses near and far from the centre; q exp(e eta) rotates by 2 e |eta|.
  const OrbitSetup o;
  std::mt19937 rng(7);
  std::normal_distribution<double> n;
  double worst = 0.0;
  for (int i = 0; i < 50; ++i) {
    const quat::Quat q = quat::normalize(quat::Quat(n(rng), n(rng), n(rng), n(rng)));
    const Vector3d x = (i % 2 ? 2.0 : 9.0) * Vector3d(n(rng), n(rng), n(rng)).normalized();
    const Vector3d eta = Vector3d(n(rng), n(rng), n(rng)).normalized();
    const PotentialGradient g = o.potential->gradient(x, quat::toRotation(q));
    const double e = 1e-3;
    auto Vq = [&](double s) { return o.potential->value(x, quat::toRotation(quat::multiply(q, quat::exp(s * eta)))); };
    auto Vx = [&](double s) { return o.potential->value(x + s * eta, quat::toRotation(q)); };
    // Five-point stencil: truncation ~e^4 V''''' ~ 1e-12, round-off ~1e-16 |V| / e.
    const double fdq = (8 * (Vq(e) - Vq(-e)) - (Vq(2 * e) - Vq(-2 * e))) / (12 * e),
                 fdx = (8 * (Vx(e) - Vx(-e)) - (Vx(2 * e) - Vx(-2 * e))) / (12 * e);
    const double scaleQ = std::max(g.FdVdq.norm(), 1e-6), scaleX = g.dVdx.norm();
    worst = std::max({worst, std::abs(eta.dot(g.FdVdq) - fdq) / scaleQ, std::abs(eta.dot(g.dVdx) - fdx) / scaleX});
    // The same torque through the wrench field the SO(3)xR^3 LGVI uses: (-FdVdq/2; -R^T dV/dx).
    const Vector6d f = potentialWrenchField(o.potential)(se3::Pose{quat::toRotation(q), x}, Vector6d::Zero(), 0.0);
    CHECK((f.head<3>() + 0.5 * g.FdVdq).norm() == 0.0);
  }
  std::printf("central field: worst |FD - analytic| / |gradient| = %.2e\n", worst);
  CHECK(worst < 1e-9);
}

TEST_CASE("EveryStepSatisfiesEquations23And22Literally") {
  // For 2000 steps of the Sec. 5 orbit at h = 0.01, the four lines of eq. (23) evaluated from the stored nodes with the
  // paper's G, Im and quaternion products, and the DEL equations (19), (22) across two steps.
  const OrbitSetup o;
  const double h = 0.01, m = o.inertia.mass;
  const Matrix3d& J = o.inertia.J;
  QuatLgvi lg = makeLgvi(o, o.q0);
  double worst23 = 0.0, worst22 = 0.0, worst19 = 0.0;
  QuatRigidState prev;
  for (int k = 0; k < 2000; ++k) {
    const QuatRigidState a = lg.state();
    const PotentialGradient ga = lg.gradient();
    lg.step(h);
    const QuatRigidState b = lg.state();
    const PotentialGradient gb = o.potential->gradient(b.x, quat::toRotation(b.q));
    const Vector3d vel = m * (b.x - a.x) / h;
    const quat::Quat ba = conjMul(b.q, a.q), ab = conjMul(a.q, b.q);
    worst23 = std::max({worst23, relErr(a.p, vel + 0.5 * h * ga.dVdx),
                        relErr(a.w, -(4.0 / h) * paperG(ba) * J * Im(ba) + 0.5 * h * ga.FdVdq),
                        relErr(b.p, vel - 0.5 * h * gb.dVdx),
                        relErr(b.w, (4.0 / h) * paperG(ab) * J * Im(ab) - 0.5 * h * gb.FdVdq)});
    if (k > 0) {  // nodes prev, a, b = 0, 1, 2 of eqs. (19), (22)
      const quat::Quat q01 = conjMul(prev.q, a.q), q21 = conjMul(b.q, a.q);
      const Vector3d lhs = paperG(q01) * J * Im(q01) + paperG(q21) * J * Im(q21), rhs = 0.25 * h * h * ga.FdVdq;
      worst22 = std::max(worst22, (lhs - rhs).norm() / (paperG(q01) * J * Im(q01)).norm());
      const Vector3d acc = m * (b.x - 2.0 * a.x + prev.x) / (h * h);
      worst19 = std::max(worst19, (acc + ga.dVdx).norm() / ga.dVdx.norm());
    }
    prev = a;
  }
  std::printf("eq. (23) worst relative residual %.2e, eq. (22) %.2e, eq. (19) %.2e\n", worst23, worst22, worst19);
  CHECK(worst23 <= 1e-12);
  CHECK(worst22 <= 1e-12);
  // (19) divides a second difference of |x| ~ 8 by h^2: round-off ~1e-15 * 8 / 1e-4 / |dV/dx| ~ 1e-9.
  CHECK(worst19 <= 1e-6);
}

TEST_CASE("MomentumAndUnitNormToRoundOffAndEnergyBoundedOverTenToTheFiveSteps") {
  // Sec. 5 at h = 0.01: T = 125 s (about one orbit: a = 7.2, period 121 s) and 10 T = 1250 s (125 000 steps).
  const OrbitSetup o;
  const double h = 0.01;
  const long nT = kSanitized ? 2500 : 12500, n10 = 10 * nT;
  QuatLgvi lg = makeLgvi(o, o.q0);
  const Vector3d L0 = lg.angularMomentum();
  const double E0 = lg.energy();
  double dL = 0.0, dq = 0.0, eT = 0.0, e10 = 0.0;
  int maxIter = 0;
  for (long k = 1; k <= n10; ++k) {
    lg.step(h);
    maxIter = std::max(maxIter, lg.newtonIterations());
    dL = std::max(dL, (lg.angularMomentum() - L0).norm() / L0.norm());
    dq = std::max(dq, std::abs(lg.state().q.norm() - 1.0));
    const double e = std::abs(lg.energy() - E0);
    if (k <= nT) eT = std::max(eT, e);
    e10 = std::max(e10, e);
  }
  std::printf(
      "quat_lgvi %ld steps: max |L - L0|/|L0| %.2e, max ||q| - 1| "
      "%.2e, max |E - E0| over [0,T] %.3e, "
      "over [0,10T] %.3e (E0 = %.6f J), Newton <= %d\n",
      n10, dL, dq, eT, e10, E0, maxIter);
  CHECK(dL <= 1e-12);
  CHECK(dq <= 1e-14);
  CHECK(e10 <= 1.5 * eT);  // no drift: ten times longer, (almost) the same band
  CHECK(eT < 1e-3 * std::abs(E0));
  CHECK(maxIter <= 4);
}

TEST_CASE("QuatLgviIsSecondOrderAgainstAFineRk4Reference") {
  // Position and attitude at t = 10 s for h = 0.04 .. 0.005 against RK4 of eq. (15) at h = 1e-3 (error ~1e-12).
  const OrbitSetup o;
  const double T = 10.0;
  QuatRk4 ref(o.inertia, o.potential);
  ref.initialize(o.state0(), 0.0);
  for (long k = 0; k < long(std::llround(T / 1e-3)); ++k) ref.step(1e-3);
  std::vector<double> hs, errs;
  for (double h : {0.04, 0.02, 0.01, 0.005}) {
    QuatLgvi lg = makeLgvi(o, o.q0);
    for (long k = 0; k < long(std::llround(T / h)); ++k) lg.step(h);
    const double e = (lg.state().x - ref.state().x).norm() + quat::angleBetween(lg.state().q, ref.state().q) +
                     (lg.state().w - ref.state().w).norm();
    std::printf("quat_lgvi h = %.3f: error at t = 10 s %.3e\n", h, e);
    hs.push_back(h), errs.push_back(e);
  }
  const double order = logLogSlope(hs, errs);
  std::printf("quat_lgvi observed order %.3f\n", order);
  CHECK(order > 1.9);
  CHECK(order < 2.1);
}

TEST_CASE("QuatLgviAndSo3xR3LgviConvergeToTheSameTrajectory") {
  // Both variational integrators on the same orbit (SO(3)xR^3 LGVI with the field as a body wrench, cay/C_cay): their
  // difference at t = 10 s shrinks as h^2.
  const OrbitSetup o;
  const double T = 10.0;
  std::vector<double> hs, diffs;
  for (double h : {0.04, 0.02, 0.01, 0.005, 0.0025}) {
    QuatLgvi a = makeLgvi(o, o.q0);
    LgviOptions opt;
    opt.group = LgviGroup::SO3xR3;
    LgviSe3 b(o.inertia, opt);
    const WrenchField f = potentialWrenchField(o.potential);
    b.initialize(se3::Pose{quat::toRotation(o.q0), o.x0}, (Vector6d() << o.omega0, o.xdot0).finished(), 0.0, h, f);
    for (long k = 0; k < long(std::llround(T / h)); ++k) a.step(h), b.step(h, f);
    const double d = (a.state().x - b.pose().x).norm() + so3::log(a.rotation().transpose() * b.pose().R).norm();
    std::printf("h = %.4f: |quat_lgvi - so3xr3_lgvi| at t = 10 s = %.3e\n", h, d);
    hs.push_back(h), diffs.push_back(d);
  }
  CHECK(logLogSlope(hs, diffs) > 1.9);
  CHECK(diffs.back() < 1e-3);
}

TEST_CASE("AntipodalQuaternionGivesTheSameMotionBitForBit") {
  const OrbitSetup o;
  QuatLgvi a = makeLgvi(o, o.q0), b = makeLgvi(o, -o.q0);
  for (int k = 0; k < 3000; ++k) a.step(0.01), b.step(0.01);
  CHECK(a.state().x == b.state().x);
  CHECK(a.state().p == b.state().p);
  CHECK(a.state().w == b.state().w);
  CHECK(a.state().q == -b.state().q);
  CHECK(a.rotation() == b.rotation());
}

TEST_CASE("ContinuousModelConservesEnergyOnlyWithTheErrataSign") {
  // RK4 of eq. (15) at h = 1e-3 over 30 s: with the ERRATA sign 4 J xi' + 8 xi x J xi = -F dV/dq the energy is
  // conserved to the RK4 error; with the printed +F dV/dq the torque pumps energy. A closer pass (x0 = 3, so the
  // spin-orbit torque is large) makes the difference plain.
  OrbitSetup o;
  o.x0 = Vector3d(3.0, 0.0, 0.0), o.xdot0 = Vector3d(0.0, 0.5, 0.0);
  const double h = 1e-3;
  const long n = long(std::llround(30.0 / h));
  QuatRk4 rk(o.inertia, o.potential);
  rk.initialize(o.state0(), 0.0);
  const double E0 = rk.energy();
  double errata = 0.0;
  for (long k = 0; k < n; ++k) rk.step(h), errata = std::max(errata, std::abs(rk.energy() - E0));
  // Printed sign: the same RK4 on rates with w' = -2 xi x w + F dV/dq.
  auto printed = [&](const QuatRigidState& s) {
    QuatRigidState d = quatRigidRates(o.inertia, *o.potential, s);
    d.w += 2.0 * o.potential->gradient(s.x, quat::toRotation(s.q)).FdVdq;
    return d;
  };
  auto add = [](QuatRigidState a, double c, const QuatRigidState& d) {
    a.x += c * d.x, a.q += c * d.q, a.p += c * d.p, a.w += c * d.w;
    return a;
  };
  QuatRigidState s = o.state0();
  double worstPrinted = 0.0;
  for (long k = 0; k < n; ++k) {
    const QuatRigidState k1 = printed(s), k2 = printed(add(s, h / 2, k1)), k3 = printed(add(s, h / 2, k2)),
                         k4 = printed(add(s, h, k3));
    s = add(add(add(add(s, h / 6, k1), h / 3, k2), h / 3, k3), h / 6, k4);
    const double E = quatRigidKineticEnergy(o.inertia, s) + o.potential->value(s.x, quat::toRotation(s.q));
    worstPrinted = std::max(worstPrinted, std::abs(E - E0));
  }
  std::printf(
      "eq. (15) RK4 h = 1e-3, 30 s: max |E - E0| ERRATA sign %.2e J, "
      "printed sign %.2e J (E0 = %.4f J)\n",
      errata, worstPrinted, E0);
  CHECK(errata < 1e-10 * std::abs(E0));
  CHECK(worstPrinted > 1e-4 * std::abs(E0));
}

TEST_CASE("UniformGravityFreeFallIsExactAndTheSpinTorqueFree") {
  // V = -m g . x: the translation is Stoermer-Verlet, exact for a constant force (parabola to round-off), and with no
  // torque the body angular momentum pi(q) w / 2 stays constant.
  const OrbitSetup o;
  const Vector3d g(0.0, 0.0, -9.81), v0(1.0, -2.0, 3.0);
  QuatLgvi lg(o.inertia, std::make_shared<UniformGravityPotential>(o.inertia.mass, g));
  lg.initialize(Vector3d::Zero(), o.q0, v0, o.omega0, 0.0);
  const Vector3d L0 = lg.angularMomentum() - lg.state().x.cross(lg.state().p);
  for (int k = 0; k < 500; ++k) lg.step(0.01);
  const double t = lg.time();
  CHECK(t == doctest::Approx(5.0).epsilon(1e-15));
  CHECK((lg.state().x - (v0 * t + 0.5 * g * t * t)).norm() < 1e-11);
  CHECK((lg.state().p - o.inertia.mass * (v0 + g * t)).norm() < 1e-11);
  CHECK(relErr(lg.angularMomentum() - lg.state().x.cross(lg.state().p), L0) < 1e-13);
}

TEST_CASE("RotationStepIsSolvableExactlyWhileHOmegaIsAtMostOne") {
  // Free spherical body (J = I): (4/h) s |v| = 2 |Omega| with s |v| = sin(phi)/2 <= 1/2, so h |Omega| <= 1. The solved
  // rotation angle per step is phi = asin(h |Omega|) (= h |Omega| + O((h |Omega|)^3), the second-order phase error).
  RigidBodyInertia ball;
  ball.mass = 2.0;
  auto free = std::make_shared<UniformGravityPotential>(2.0, Vector3d::Zero());
  for (double hw : {0.5, 0.99, 1.01}) {
    CAPTURE(hw);
    QuatLgvi lg(ball, free);
    lg.initialize(Vector3d::Zero(), quat::identity(), Vector3d::Zero(), Vector3d(0.0, 0.0, hw / 0.1), 0.0);
    if (hw > 1.0) {
      CHECK_THROWS_AS(lg.step(0.1), SimulationDiverged);
      continue;
    }
    lg.step(0.1);
    CHECK(quat::angleBetween(lg.state().q, quat::identity()) == doctest::Approx(std::asin(hw)).epsilon(1e-12));
  }
}

TEST_CASE("QuatLgviFailuresAndStateRoundTrip") {
  const OrbitSetup o;
  QuatLgvi lg = makeLgvi(o, o.q0);
  CHECK_THROWS_AS(lg.step(0.0), BadInput);
  CHECK_THROWS_AS(lg.initialize(o.x0, quat::Quat::Zero(), o.xdot0, o.omega0, 0.0), BadInput);
  CHECK_THROWS_AS(QuatLgvi(o.inertia, nullptr), BadInput);
  // h |Omega| = 26 rad (> 1: no solution); the state is kept.
  const std::vector<double> before = lg.saveState();
  CHECK_THROWS_AS(lg.step(10.0), SimulationDiverged);
  CHECK(lg.saveState() == before);
  for (int k = 0; k < 100; ++k) lg.step(0.01);
  const std::vector<double> mid = lg.saveState();
  for (int k = 0; k < 100; ++k) lg.step(0.01);
  QuatLgvi other = makeLgvi(o, o.q0);
  other.loadState(mid);
  for (int k = 0; k < 100; ++k) other.step(0.01);
  CHECK(other.saveState() == lg.saveState());
  std::vector<double> bad = mid;
  bad[3] = 2.0;  // |q| far from 1
  CHECK_THROWS_AS(other.loadState(bad), BadInput);
  bad = mid, bad[0] = std::nan("");
  CHECK_THROWS_AS(other.loadState(bad), BadInput);
  CHECK_THROWS_AS(other.loadState({1.0}), BadInput);
  QuatRk4 rk(o.inertia, o.potential);
  rk.initialize(o.state0(), 0.0);
  for (int k = 0; k < 10; ++k) rk.step(0.01);
  QuatRk4 rk2(o.inertia, o.potential);
  rk2.loadState(rk.saveState());
  rk.step(0.01), rk2.step(0.01);
  CHECK(rk.saveState() == rk2.saveState());
}
