// Tests of the floating-base multibody integrator (seed 002 Sec. 5, ERRATA): the chain's locked mass matrix
// M(r) and grad M against the seed 003 tree, finite differences and kinetic energy from pose differences;
// the analytic Newton Jacobian; the momentum map (65) with Ad_{g^-1}^T conserved to round-off (Euler/RK4
// drift), kept by joint torques and changed by exactly the discrete impulse of a base wrench; reduction to
// seed 000's single-body LGVI; order 2; bounded energy; gravity's trivialized gradient.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "engine/floating/chain_builders.h"
#include "engine/integrators/floating_base.h"
#include "engine/integrators/lgvi_se3.h"
#include "engine/sim/errors.h"
#include "engine/tree/tree_lagrangian.h"
#include "tests/log_log_slope.h"

using namespace varsim;
using namespace varsim::floating;

namespace {

FloatingChain paperChain() {
  return threeBodyChain({1.0, 2.0, 1.5}, {Vector3d(0.8, 0.3, 0.2), Vector3d(1.0, 0.5, 0.4), Vector3d(0.6, 0.2, 0.3)},
                        {Vector3d::UnitZ(), Vector3d(0, 1, 1).normalized()});
}
// Copied from arrays: GCC 12 at -O1 (the tests' level) flags the comma initialiser's temporary as maybe uninitialised.
VectorXd r0() {
  static const double r[] = {0.3, -0.5};
  return Eigen::Map<const VectorXd>(r, 2);
}
VectorXd v0() {
  static const double v[] = {0.2, 0.5, -0.3, 0.1, 0.0, 0.2, 1.0, -0.7};
  return Eigen::Map<const VectorXd>(v, 8);
}

FloatingStepper run(const FloatingChain& c, FloatingScheme s, double h, int steps, const FloatingForces& f = {}) {
  FloatingOptions o;
  o.scheme = s;
  FloatingStepper st(c, o);
  st.initialize(se3::Pose(), r0(), v0(), h, f);
  for (int i = 0; i < steps; ++i) st.step(f);
  return st;
}

double rel(const Vector6d& a, const Vector6d& b) { return (a - b).norm() / b.norm(); }

}  // namespace

TEST_CASE("MassMatrixMatchesTreeAndFiniteDifferences") {
  const FloatingChain c = paperChain();
  const VectorXd r = r0();
  MatrixXd M;
  std::vector<MatrixXd> dM;
  c.massMatrixAndGradient(r, M, dM);
  CHECK((M - c.massMatrix(r)).norm() == doctest::Approx(0).epsilon(1e-14));
  CHECK((M - M.transpose()).norm() < 1e-14);
  CHECK(Eigen::LLT<MatrixXd>(M).info() == Eigen::Success);
  // The joint block is the tree's own M(q) with the base held fixed (seed 003 eq. 18) and so is its gradient.
  const MatrixXd Mt = tree::massMatrix(c.tree());
  const std::vector<MatrixXd> dMt = tree::massMatrixGradient(c.tree());
  CHECK((M.bottomRightCorner(2, 2) - Mt).norm() < 1e-14 * Mt.norm());
  for (int k = 0; k < 2; ++k) CHECK((dM[k].bottomRightCorner(2, 2) - dMt[k]).norm() < 1e-13 * (1 + dMt[k].norm()));
  // Total mass and the base block: translation block is M_tot I.
  CHECK((M.block<3, 3>(3, 3) - c.totalMass() * Matrix3d::Identity()).norm() < 1e-13);
  // grad M against central differences.
  for (int k = 0; k < 2; ++k) {
    const double e = 1e-6;
    VectorXd rp = r, rm = r;
    rp(k) += e, rm(k) -= e;
    const MatrixXd fd = (c.massMatrix(rp) - c.massMatrix(rm)) / (2 * e);
    CHECK((fd - dM[k]).norm() < 1e-8 * (1 + dM[k].norm()));
  }
  // v^T M v = sum_i V_i^T II_i V_i with V_i from pose differences only (g_i(t) = exp(t xi) g_0i(r + t rdot)).
  const VectorXd v = v0();
  double twoT = 0;
  const double e = 1e-6;
  for (int i = 0; i < c.bodies(); ++i) {
    auto pose = [&](double t) { return se3::exp(t * v.head<6>()) * c.bodyPose(r + t * v.tail(2), i); };
    const Vector6d V = (se3::log(pose(-e).inverse() * pose(e))) / (2 * e);
    const BodySpec& b = c.body(i);
    twoT += V.head<3>().dot(b.inertia * V.head<3>()) + b.mass * V.tail<3>().squaredNorm();
  }
  CHECK(v.dot(M * v) == doctest::Approx(twoT).epsilon(1e-8));
}

TEST_CASE("PotentialGradientIsLeftTrivialized") {
  const FloatingChain c = paperChain();
  const Vector3d gamma(0.3, -0.2, -9.81);
  se3::Pose g = se3::exp((Vector6d() << 0.4, -0.3, 0.9, 1.0, 2.0, -0.5).finished());
  const VectorXd r = r0();
  const VectorXd grad = c.potentialGradient(g, r, gamma);
  const double e = 1e-6;
  for (int j = 0; j < 8; ++j) {
    Vector6d xi = Vector6d::Zero();
    VectorXd rp = r, rm = r;
    double fd;
    if (j < 6) {
      xi(j) = e;
      fd = (c.potential(g * se3::exp(xi), r, gamma) - c.potential(g * se3::exp(-xi), r, gamma)) / (2 * e);
    } else {
      rp(j - 6) += e, rm(j - 6) -= e;
      fd = (c.potential(g, rp, gamma) - c.potential(g, rm, gamma)) / (2 * e);
    }
    CHECK(grad(j) == doctest::Approx(fd).epsilon(1e-7));
  }
}

TEST_CASE("NewtonJacobianMatchesFiniteDifferences") {
  const FloatingChain c = paperChain();
  FloatingForces f;
  f.baseWrench << 0.1, -0.2, 0.3, 1.0, 0.5, -0.4;
  f.jointTorque = (VectorXd(2) << 0.7, -0.3).finished();
  f.gravity = Vector3d(0, 0, -9.81);
  FloatingStepper st = run(c, FloatingScheme::Lgvi, 0.1, 3, f);
  VectorXd v = v0() * 1.3;
  MatrixXd J;
  st.residual(v, f, &J);
  for (int j = 0; j < 8; ++j) {
    const double e = 1e-6;
    VectorXd vp = v, vm = v;
    vp(j) += e, vm(j) -= e;
    const VectorXd fd = (st.residual(vp, f, nullptr) - st.residual(vm, f, nullptr)) / (2 * e);
    CHECK((fd - J.col(j)).norm() < 1e-7 * (1 + J.col(j).norm()));
  }
}

TEST_CASE("MomentumMapConservedToRoundOffEulerAndRk4Drift") {
  const FloatingChain c = paperChain();
  const Vector6d J0 = run(c, FloatingScheme::Lgvi, 0.1, 0).momentumMap();
  FloatingOptions o;
  FloatingStepper st(c, o);
  st.initialize(se3::Pose(), r0(), v0(), 0.1, {});
  double worst = 0, emin = 1e300, emax = -1e300;
  for (int i = 0; i < 1000; ++i) {
    st.step({});
    worst = std::max(worst, rel(st.momentumMap(), J0));
    const double E = st.energy(Vector3d::Zero());
    emin = std::min(emin, E), emax = std::max(emax, E);
    CHECK(st.newtonIterations() <= 8);
  }
  CHECK(worst < 1e-12);
  const double E0 = run(c, FloatingScheme::Lgvi, 0.1, 0).energy(Vector3d::Zero());
  CHECK((emax - emin) / E0 < 0.05);  // energy bounded (no drift) at h = 0.1
  // Forward Euler at h = 0.1 gains energy until it overflows (t = 78 s here): its drift is taken just before.
  double euler = 0;
  FloatingOptions oe;
  oe.scheme = FloatingScheme::Euler;
  FloatingStepper eu(c, oe);
  eu.initialize(se3::Pose(), r0(), v0(), 0.1, {});
  int eulerSteps = 0;
  try {
    for (; eulerSteps < 1000; ++eulerSteps) {
      eu.step({});
      const double d = rel(eu.momentumMap(), J0);
      if (std::isfinite(d)) euler = d;
      if (eulerSteps == 99) std::printf("euler momentum map rel. change after 100 steps: %.2e\n", d);
    }
  } catch (const SimulationDiverged&) {
  }
  std::printf("euler ran %d of 1000 steps\n", eulerSteps);
  const double rk4 = rel(run(c, FloatingScheme::Rk4, 0.1, 1000).momentumMap(), J0);
  std::printf("momentum map rel. change after 1e3 steps, h = 0.1: lgvi %.2e  euler %.2e  rk4 %.2e; energy band %.2e\n",
              worst, euler, rk4, (emax - emin) / E0);
  CHECK(euler > 1e-3);
  CHECK(rk4 > 1e-9);
}

TEST_CASE("JointTorquesAreInternalBaseWrenchChangesMomentumByTheDiscreteImpulse") {
  const FloatingChain c = paperChain();
  FloatingForces torques;
  torques.jointTorque = (VectorXd(2) << 2.0, -1.5).finished();
  FloatingStepper st(c, {});
  st.initialize(se3::Pose(), r0(), v0(), 0.1, torques);
  const Vector6d J0 = st.momentumMap();
  const VectorXd r00 = st.r();
  for (int i = 0; i < 200; ++i) {
    torques.jointTorque = std::sin(0.2 * i) * (VectorXd(2) << 2.0, -1.5).finished();  // a joint cycle
    st.step(torques);
    CHECK(rel(st.momentumMap(), J0) < 1e-12);
  }
  CHECK((st.r() - r00).norm() > 0.5);  // the torques did move the joints

  FloatingForces push;
  push.baseWrench << 0.3, -0.1, 0.2, 1.0, -2.0, 0.5;
  const double h = 0.1;
  for (int i = 0; i < 50; ++i) {
    const se3::Pose gk = st.pose();
    const Vector6d Jk = st.momentumMap();
    st.step(push);
    const Vector6d hxi = h * st.segmentVelocity().head<6>();
    const Vector6d impulse = 0.5 * h *
                             (se3::AdInvStar(gk) * se3::Ccay(hxi).transpose() * push.baseWrench +
                              se3::AdInvStar(st.pose()) * se3::Ccay(-hxi).transpose() * push.baseWrench);
    CHECK((st.momentumMap() - Jk - impulse).norm() < 1e-12 * (1 + Jk.norm()));
    CHECK(impulse.norm() > 0.1);
  }
}

TEST_CASE("LockedChainReducesToSingleBodyLgvi") {
  // m = 0: the base alone; and a symmetric locked chain (c.o.m. at the base origin, principal axes = base axes).
  const Vector6d xi0 = (Vector6d() << 0.4, 1.2, -0.3, 0.5, 0.1, -0.2).finished();
  for (int locked = 0; locked < 2; ++locked) {
    const FloatingChain c =
        locked ? threeBodyChain({1.0, 2.0, 1.0},
                                {Vector3d(0.6, 0.2, 0.3), Vector3d(1.0, 0.5, 0.4), Vector3d(0.6, 0.2, 0.3)},
                                {Vector3d::UnitZ(), Vector3d::UnitY()})
               : FloatingChain(BodySpec{2.0, Vector3d(1.0, 2.0, 3.5).asDiagonal(), Vector3d::Zero()}, {});
    const int m = c.joints();
    const MatrixXd M = c.massMatrix(VectorXd::Zero(m));
    CHECK(M.block<3, 3>(0, 3).norm() < 1e-15);  // no coupling: c.o.m. at the base origin
    RigidBodyInertia in{M(3, 3), M.topLeftCorner<3, 3>()};
    LgviSe3 single(in, LgviOptions{});
    single.initialize(se3::Pose(), xi0, 0.0, 0.05,
                      [](const se3::Pose&, const Vector6d&, double) { return Vector6d::Zero().eval(); });
    FloatingOptions o;
    o.lockJoints = locked;
    FloatingStepper st(c, o);
    VectorXd v = VectorXd::Zero(6 + m);
    v.head<6>() = xi0;
    st.initialize(se3::Pose(), VectorXd::Zero(m), v, 0.05, {});
    for (int i = 0; i < 400; ++i) {
      single.step(0.05, [](const se3::Pose&, const Vector6d&, double) { return Vector6d::Zero().eval(); });
      st.step({});
    }
    CHECK((st.pose().R - single.pose().R).norm() < 1e-11);
    CHECK((st.pose().x - single.pose().x).norm() < 1e-11);
    CHECK(st.r().norm() == 0.0);
  }
}

TEST_CASE("SecondOrderInPoseAndJointAngles") {
  const FloatingChain c = paperChain();
  const double T = 1.0;
  const FloatingStepper ref = run(c, FloatingScheme::Rk4, 1e-3, 1000);
  std::vector<double> hs, ex, er;
  for (double h : {0.04, 0.02, 0.01}) {
    const FloatingStepper s = run(c, FloatingScheme::Lgvi, h, int(std::lround(T / h)));
    hs.push_back(h);
    ex.push_back((s.pose().x - ref.pose().x).norm() + (s.pose().R - ref.pose().R).norm());
    er.push_back((s.r() - ref.r()).norm());
  }
  const double px = test::logLogSlope(hs, ex), pr = test::logLogSlope(hs, er);
  std::printf("observed order: pose %.3f, joint angles %.3f\n", px, pr);
  CHECK(px == doctest::Approx(2.0).epsilon(0.1));
  CHECK(pr == doctest::Approx(2.0).epsilon(0.1));
}

TEST_CASE("BadInputIsRefused") {
  BodySpec b;
  b.mass = -1;
  CHECK_THROWS_AS(FloatingChain(b, {}), BadInput);
  HingeSpec h;
  h.axis = Vector3d(1, 1, 0);
  CHECK_THROWS_AS(FloatingChain(BodySpec{}, {h}), BadInput);
  const FloatingChain c = paperChain();
  FloatingStepper st(c, {});
  CHECK_THROWS_AS(st.initialize(se3::Pose(), r0(), v0(), 0.0, {}), BadInput);
  st.initialize(se3::Pose(), r0(), v0(), 0.1, {});
  FloatingForces f;
  f.jointTorque = VectorXd::Ones(3);
  CHECK_THROWS_AS(st.step(f), BadInput);
  std::vector<double> s = st.saveState();
  st.step({});
  const se3::Pose g1 = st.pose();
  st.loadState(s);
  st.step({});
  CHECK((st.pose().R - g1.R).norm() == 0.0);
  std::vector<double> huge = s;
  huge[huge.size() - 2] = 1e300;  // the step count: refused, not an out-of-range integer conversion
  CHECK_THROWS_AS(st.loadState(huge), BadInput);
  s.pop_back();
  CHECK_THROWS_AS(st.loadState(s), BadInput);
}

TEST_CASE("GravityInTheFreeFallingFrameConvergesToRk4AndRunsLong") {
  // Uniform gravity is removed exactly by the free-falling frame (floating_base.h); the explicit RK4 treats it as
  // the potential force of eqs. (48)-(49): an independent route. Order 2 against RK4 at h = 1e-3, then 10^3
  // steps at h = 0.1 (100 s of free fall, |v| ~ 1 km/s: the form with (64)'s potential term failed after 9 s).
  const FloatingChain c = paperChain();
  FloatingForces g;
  g.gravity = Vector3d(0.5, -0.3, -9.81);
  const FloatingStepper ref = run(c, FloatingScheme::Rk4, 1e-3, 1000, g);
  std::vector<double> hs, ex;
  for (double h : {0.04, 0.02, 0.01}) {
    const FloatingStepper s = run(c, FloatingScheme::Lgvi, h, int(std::lround(1.0 / h)), g);
    hs.push_back(h);
    ex.push_back((s.pose().x - ref.pose().x).norm() + (s.pose().R - ref.pose().R).norm() + (s.r() - ref.r()).norm());
    CHECK((s.momentumMap() - ref.momentumMap()).norm() < 0.05);
  }
  const double p = test::logLogSlope(hs, ex);
  std::printf("under gravity: observed order %.3f (errors %.2e %.2e %.2e)\n", p, ex[0], ex[1], ex[2]);
  CHECK(p == doctest::Approx(2.0).epsilon(0.1));

  FloatingStepper st(c, {});
  st.initialize(se3::Pose(), r0(), v0(), 0.1, g);
  const Vector6d J0 = st.momentumMap();
  const double E0 = st.energy(g.gravity);
  double worstP = 0, worstE = 0;
  for (int k = 1; k <= 1000; ++k) {
    st.step(g);
    const Vector3d p = st.momentumMap().tail<3>(), expect = J0.tail<3>() + c.totalMass() * g.gravity * (0.1 * k);
    worstP = std::max(worstP, (p - expect).norm() / expect.norm());
    worstE = std::max(worstE, std::abs(st.energy(g.gravity) - E0));
  }
  std::printf("gravity, 1e3 steps at h = 0.1: linear momentum vs p0 + M g t %.2e, max |E - E0| %.3g J (E0 %.3g J)\n",
              worstP, worstE, E0);
  CHECK(worstP < 1e-13);
  // World energy E = T' - M gamma . (c' - t c'_dot): the gravity-free SE(3) scheme moves its discrete c.o.m. at
  // p/M only up to O(h^2) (3.0 cm off after 100 s at h = 0.1, 1.0 cm at 0.05), so E drifts linearly: -1.04 J
  // after 100 s at h = 0.1 (-0.35 J at 0.05), i.e. the weight times 2.6 cm. Regression bound:
  CHECK(worstE < 1.1);
}

TEST_CASE("StepsNeedingSubstepsKeepTheMomentumMapFlat") {
  // A base with a 10-hinge arm at h = 0.1: the plain Newton fails at step 41 (h |rdot| ~ 1.8); those steps are
  // retried as 2^j equal substeps of the same scheme, each conserving (65), so J stays flat to round-off over 20 s.
  // (Energy is NOT bounded here: h = 0.1 is past this arm's resonance, measured |dE/E0| up to 14; substeps mend
  // Newton, not the discrete flow. No scene accepts this arm at this step.)
  std::vector<ArmLink> links(10);
  for (int i = 0; i < 10; ++i)
    links[i] = ArmLink{0.5, Vector3d(0.4, 0.08, 0.08), i % 2 ? Vector3d::UnitY() : Vector3d::UnitZ()};
  const FloatingChain chain = serialArm(5.0, Vector3d(0.8, 0.8, 0.8), links);
  VectorXd v(16);
  v << 0.3, 0.2, -0.1, 0.1, 0.0, 0.05, VectorXd::LinSpaced(10, 1.0, -1.0);
  FloatingStepper st(chain, {});
  st.initialize(se3::Pose(), VectorXd::Constant(10, 0.2), v, 0.1, {});
  const Vector6d J0 = st.momentumMap();
  const double E0 = st.energy(Vector3d::Zero());
  double drift = 0, dE = 0;
  int substepped = 0, most = 1;
  // Sanitizers check memory: 60 steps there (past step 41, the first to need substeps), all 200 in Release.
  const int steps = std::getenv("VARSIM_SANITIZED") ? 60 : 200;
  for (int k = 0; k < steps; ++k) {
    st.step({});
    if (st.substeps() > 1) ++substepped, most = std::max(most, st.substeps());
    drift = std::max(drift, (st.momentumMap() - J0).norm() / J0.norm());
    dE = std::max(dE, std::abs(st.energy(Vector3d::Zero()) - E0) / E0);
  }
  std::printf("10-hinge arm, h = 0.1, %d steps: %d steps in substeps (at most %d), |J-J0|/|J0| %.2e, |dE/E0| %.2e\n",
              steps, substepped, most, drift, dE);
  CHECK(st.time() == doctest::Approx(0.1 * steps).epsilon(1e-15));
  CHECK(substepped > 0);
  CHECK(drift < 1e-12);
  CHECK(std::isfinite(dE));
  // Deterministic and restartable: a copy loaded from the saved state repeats the next steps bit for bit.
  FloatingStepper copy(chain, {});
  copy.loadState(st.saveState());
  for (int k = 0; k < 20; ++k) st.step({}), copy.step({});
  CHECK(copy.saveState() == st.saveState());
}
