// tests/test_dmoc_heli.cpp — the helicopter's DMOC transcription (engine/control/heli_dmoc.h): its dynamics rows are
// the LGVI stepper's own equations (near zero on a trajectory LgviSe3 produced with the scene's wrenches), the pure
// step functions it shares with the stepper have exact derivatives, and every first derivative of the NLP (Jacobian,
// cost gradient) agrees with central finite differences to relative 1e-6 on random iterates.
#include <doctest/doctest.h>

#include <random>

#include "engine/control/heli_dmoc.h"
#include "engine/control/lgvi_hessian.h"
#include "engine/lie/so3.h"
#include "tests/nlp_fd_check.h"

using namespace varsim;

namespace {

HeliDmocSpec smallSpec(int N) {
  HeliDmocSpec s;
  s.lgvi.group = LgviGroup::SO3xR3;
  s.h = 0.1;
  s.N = N;
  const Helicopter heli(s.heli);
  s.start = restingPose(heli, {0.0, 0.0}, 0.0);
  s.target = restingPose(heli, {40.0, 10.0}, 0.4);
  s.u0.collective = heli.hoverCollective();
  s.world = HelicopterWorld::standard();
  s.contact = ContactSettings::implicitFor(s.heli.mass, 4);
  s.spheres = defaultSpheres(heli);
  s.via = {{20.0, 0.0, 10.0}};
  return s;
}

// A helicopter-like end-of-step wrench that depends on the pose (a spring to a point and a level-keeping torque) and on
// the twist, with its exact partials: exercises the pose chain rule of lgviEndOfStepWrench on both groups.
Vector6d poseWrench(const se3::Pose& g, const Vector6d& xi, ImplicitWrenchJacobian* jac) {
  const Vector3d a(1.0, -2.0, 0.5), e3 = g.R.transpose() * Vector3d::UnitZ();
  Vector6d f;
  f << 30.0 * Vector3d::UnitZ().cross(e3) - 4.0 * xi.head<3>(),
      -50.0 * g.R.transpose() * (g.x - a) - 7.0 * xi.tail<3>();
  if (jac) {
    jac->dPose.setZero();
    jac->dXi.setZero();
    // e3 = R^T z -> d = e3^ theta; force -50 R^T (x - a): d/dtheta = -50 (R^T (x - a))^ ... sign: R^T -> (I - th^) R^T
    jac->dPose.topLeftCorner<3, 3>() = 30.0 * so3::hat(Vector3d::UnitZ()) * so3::hat(e3);
    jac->dPose.bottomLeftCorner<3, 3>() = -50.0 * so3::hat(Vector3d(g.R.transpose() * (g.x - a)));
    jac->dPose.bottomRightCorner<3, 3>() = -50.0 * Matrix3d::Identity();  // x + R y: R^T R y
    jac->dXi.diagonal() << -4.0, -4.0, -4.0, -7.0, -7.0, -7.0;
  }
  return f;
}

// The FD checks' iterate: the guess with random charts (0.3 rad), positions centre +- spread (near the first canyon
// wall), twists and actuators around hover at every node of the plan (node N: pose only).
Eigen::VectorXd randomIterate(const HeliDmoc& dmoc, std::mt19937& rng, const Vector3d& centre, const Vector3d& spread) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const int N = dmoc.spec().N;
  Eigen::VectorXd x = dmoc.initialGuess();
  for (int k = 0; k <= N; ++k) {
    x.segment<3>(16 * k) = 0.3 * Vector3d(U(rng), U(rng), U(rng));
    x.segment<3>(16 * k + 3) =
        Vector3d(centre.x() + spread.x() * U(rng), centre.y() + spread.y() * U(rng), centre.z() + spread.z() * U(rng));
    if (k == N) break;
    for (int i = 0; i < 6; ++i) x[16 * k + 6 + i] = (i < 3 ? 0.5 : 5.0) * U(rng);
    dmoc.setControl(x, k, {6000.0 + 2000.0 * U(rng), 500.0 * U(rng), 0.2 * U(rng), 0.2 * U(rng)});
  }
  return x;
}

se3::Pose perturbed(const se3::Pose& g, const Vector6d& d) {
  return {g.R * so3::exp(d.head<3>()), g.x + g.R * d.tail<3>()};
}

}  // namespace

TEST_CASE("LgviPureStepFunctionsHaveExactDerivatives") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const RigidBodyInertia I = principalInertia(600.0, Vector3d(300.0, 1200.0, 1000.0));
  const ImplicitWrench f = [](const se3::Pose& g, const Vector6d& xi, double, ImplicitWrenchJacobian* j) {
    return poseWrench(g, xi, j);
  };
  for (int trial = 0; trial < 16; ++trial) {
    LgviOptions o;
    o.group = trial % 2 ? LgviGroup::SO3xR3 : LgviGroup::SE3;
    o.retraction = trial % 4 < 2 ? Retraction::Cay : Retraction::Exp;
    o.tangent = trial % 8 < 4 ? Tangent::Cay : Tangent::Exp;
    const double h = 0.1;
    Vector6d xi, b, e;
    for (int i = 0; i < 6; ++i) xi[i] = (i < 3 ? 2.0 : 10.0) * U(rng), b[i] = 100.0 * U(rng);
    se3::Pose g{so3::exp(Vector3d(U(rng), U(rng), U(rng))), Vector3d(5 * U(rng), 5 * U(rng), 5 * U(rng))};
    Matrix6d dMu;
    lgviNextMomentum(I, o, h, xi, &dMu);
    const LgviResidual res = lgviResidual(I, o, g, 0.0, h, b, xi, f, true, true);
    const double eps = 1e-6;
    for (int j = 0; j < 6; ++j) {
      e.setZero();
      e[j] = eps;
      const Vector6d fdMu = (lgviNextMomentum(I, o, h, xi + e) - lgviNextMomentum(I, o, h, xi - e)) / (2 * eps);
      const Vector6d fdXi = (lgviResidual(I, o, g, 0.0, h, b, xi + e, f, false).r -
                             lgviResidual(I, o, g, 0.0, h, b, xi - e, f, false).r) /
                            (2 * eps);
      const Vector6d fdPose = (lgviResidual(I, o, perturbed(g, e), 0.0, h, b, xi, f, false).r -
                               lgviResidual(I, o, perturbed(g, -e), 0.0, h, b, xi, f, false).r) /
                              (2 * eps);
      for (int i = 0; i < 6; ++i) {
        CHECK(test::relErr(dMu(i, j), fdMu[i]) < 1e-6);
        CHECK(test::relErr(res.dXi(i, j), fdXi[i]) < 1e-6);
        CHECK(test::relErr(res.dPose(i, j), fdPose[i]) < 1e-6);
      }
    }
  }
}

TEST_CASE("DynamicsRowsVanishOnAStepperTrajectory") {
  // Fly the stepper (the scene's wrenches: node gravity + rotor, end-of-step drag + contact) with varying actuators;
  // the transcription evaluated on that trajectory is zero to the Newton tolerance.
  const int N = 40;
  HeliDmocSpec s = smallSpec(N);
  const HeliDmoc dmoc(s);
  const Helicopter& heli = dmoc.helicopter();
  const ImplicitWrench fEnd = [&](const se3::Pose& g, const Vector6d& xi, double, ImplicitWrenchJacobian* jac) {
    return helicopterDissipativeWrench(heli, &s.world, s.contact, g, xi, jac ? &jac->dPose : nullptr,
                                       jac ? &jac->dXi : nullptr);
  };
  LgviSe3 lgvi(principalInertia(s.heli.mass, s.heli.inertia), s.lgvi);
  RotorState u = s.u0;
  const auto nodeWrench = [&](const se3::Pose& g) { return Vector6d(heli.gravityWrench(g.R) + heli.controlWrench(u)); };
  Vector6d fk = nodeWrench(s.start);
  lgvi.initialize(s.start, s.xi0, 0.0, s.h, [&](const se3::Pose&, const Vector6d&, double) { return fk; });
  Eigen::VectorXd x = dmoc.initialGuess();
  const Eigen::VectorXd guess = x;
  for (int k = 0; k < N; ++k) {
    const se3::Pose g = lgvi.pose();
    // theta_k = log(Rbar_k^T R_k): Rbar_k is the transcription's chart centre, recovered from the guess (theta = 0).
    const Matrix3d Rbar = dmoc.pose(guess, k).R;
    x.segment<3>(16 * k) = so3::log(Rbar.transpose() * g.R);
    x.segment<3>(16 * k + 3) = g.x;
    dmoc.setControl(x, k, u);
    lgvi.step(
        s.h, [&](const se3::Pose&, const Vector6d&, double) { return fk; }, fEnd);
    x.segment<6>(16 * k + 6) = lgvi.xi();
    u = {heli.hoverCollective() * (1.1 + 0.1 * std::sin(0.3 * k)), 300.0 * std::cos(0.2 * k), 0.1 * std::sin(0.25 * k),
         0.05 * std::cos(0.4 * k)};
    fk = nodeWrench(lgvi.pose());
  }
  x.segment<3>(16 * N) = so3::log(dmoc.pose(guess, N).R.transpose() * lgvi.pose().R);
  x.segment<3>(16 * N + 3) = lgvi.pose().x;
  double worst = 0.0;
  for (int k = 0; k < N; ++k) worst = std::max(worst, dmoc.dynResidual(x, k));
  CHECK(worst < 1e-10);
  CHECK(lgvi.pose().x.z() > 5.0);  // it really flew
}

TEST_CASE("TranscriptionJacobianAndGradientMatchFiniteDifferences") {
  // Random iterates near the first canyon wall, some skids in the ground (contact on), the rest in the air.
  const HeliDmoc dmoc(smallSpec(4));
  std::mt19937 rng(11);
  for (int trial = 0; trial < 4; ++trial) {
    const Eigen::VectorXd x = randomIterate(dmoc, rng, {130.0, 8.0, 1.0}, {10.0, 4.0, 0.5});
    const test::NlpFdErrors err = test::nlpFdErrors(dmoc, x);
    CHECK(err.jacobian < 1e-6);
    CHECK(err.gradient < 1e-6);
    CHECK(test::sameJacobianPattern(dmoc, x, dmoc.initialGuess()));
  }
}

TEST_CASE("GuessSatisfiesThePoseRowsAndTheSpheresCoverTheAirframe") {
  const HeliDmoc dmoc(smallSpec(30));
  const Eigen::VectorXd x = dmoc.initialGuess();
  for (int k = 0; k + 1 < 30; ++k) CHECK(dmoc.segmentRows(x, k).tail<6>().lpNorm<Eigen::Infinity>() < 1e-9);
  const Helicopter& heli = dmoc.helicopter();
  const auto spheres = defaultSpheres(heli);
  const auto inside = [&](const Vector3d& p) {
    for (const auto& s : spheres)
      if ((p - s.center).norm() <= s.radius) return true;
    return false;
  };
  for (const Vector3d& p : heli.contactPoints()) CHECK(inside(p));
  const double tilt = heli.settings().limits.tiltMax;
  for (int i = 0; i < 32; ++i)  // rotor rim at every corner of the tilt range
    for (double gp : {-tilt, 0.0, tilt})
      for (double gr : {-tilt, 0.0, tilt}) {
        const double a = 2.0 * M_PI * i / 32;
        const Matrix3d T =
            Eigen::AngleAxisd(gp, Vector3d::UnitY()) * Eigen::AngleAxisd(gr, Vector3d::UnitX()).toRotationMatrix();
        CHECK(inside(heli.hubPosition() + heli.rotorRadius() * T * Vector3d(std::cos(a), std::sin(a), 0.0)));
      }
  for (double t = 0.0; t <= 1.0; t += 0.05) CHECK(inside(Vector3d(-t * (heli.settings().tailArm + 0.4), 0.0, 0.3)));
}

TEST_CASE("RotationJetMatchesFiniteDifferencesOfTheMaps") {
  // tau(w) for cay and exp (series branch s < 1 and closed form above), against central differences of so3::cay/exp.
  for (Retraction tau : {Retraction::Cay, Retraction::Exp})
    for (const Vector3d& w : {Vector3d(0.01, -0.02, 0.005), Vector3d(0.3, -0.5, 0.7), Vector3d(1.2, 0.4, -0.9)}) {
      const auto map = [&](const Vector3d& z) { return tau == Retraction::Cay ? so3::cay(z) : so3::exp(z); };
      const RotationJet J = rotationJet(tau, w);
      CHECK((J.R - map(w)).norm() < 1e-14);
      const double e = 1e-5;
      for (int i = 0; i < 3; ++i) {
        const Vector3d d = e * Vector3d::Unit(i);
        CHECK((J.d[size_t(i)] - (map(w + d) - map(w - d)) / (2 * e)).norm() < 1e-9);
        for (int j = 0; j < 3; ++j) {
          const Vector3d f = e * Vector3d::Unit(j);
          const Matrix3d dd = (map(w + d + f) - map(w + d - f) - map(w - d + f) + map(w - d - f)) / (4 * e * e);
          CHECK((J.second(i, j) - dd).norm() < 1e-5);
        }
      }
    }
}

TEST_CASE("TangentHessianMatchesSecondDifferencesAtLargeAngles") {
  // C(a w)^T J w at |a w| ~ 0.6 (the NLP test's h w is small, where the tangents differ by O(|h w|^2) only).
  Matrix3d J;
  J << 3.0, 0.2, 0.1, 0.2, 5.0, 0.3, 0.1, 0.3, 4.0;
  const Vector3d w(0.3, -0.2, 0.5), lam(0.7, -0.4, 0.9);
  for (double a : {-1.0, 1.0})
    for (Tangent c : {Tangent::Cay, Tangent::Tln, Tangent::Exp, Tangent::ExpTrunc}) {
      const auto f = [&](const Vector3d& z) { return lam.dot(so3CTmu(c, a * z, J * z)); };
      const Matrix3d H = so3CTJwHessian(c, a, J, w, lam);
      const double e = 1e-4;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          const Vector3d di = e * Vector3d::Unit(i), dj = e * Vector3d::Unit(j);
          const double d = (f(w + di + dj) - f(w + di - dj) - f(w - di + dj) + f(w - di - dj)) / (4 * e * e);
          CHECK(std::abs(H(i, j) - d) < 1e-6);
        }
    }
}

// Random iterates of an N = 8 plan with clearance rows (k = 2..5) near the first canyon wall (box edges and faces),
// random multipliers: the exact Hessian against central differences of the exact Lagrangian gradient.
double hessianError(const LgviOptions& lgvi, unsigned seed, bool* samePattern, bool freeEnd = false) {
  HeliDmocSpec spec = smallSpec(8);
  spec.lgvi = lgvi;
  spec.freeEnd = freeEnd;  // clearance rows at nodes 6..8 too
  const HeliDmoc dmoc(spec);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const Eigen::VectorXd x = randomIterate(dmoc, rng, {130.0, 8.0, 4.0}, {12.0, 6.0, 3.0});
  Eigen::VectorXd lambda(dmoc.numConstraints());
  for (int i = 0; i < lambda.size(); ++i) lambda[i] = U(rng);
  return test::nlpHessianFdError(dmoc, x, 0.7, lambda, samePattern, 1e-5);
}

TEST_CASE("ExactHessianMatchesDifferencesOfTheJacobian") {
  for (Retraction tau : {Retraction::Cay, Retraction::Exp})
    for (Tangent c : {Tangent::Cay, Tangent::Tln, Tangent::Exp, Tangent::ExpTrunc}) {
      LgviOptions o;
      o.group = LgviGroup::SO3xR3;
      o.retraction = tau, o.tangent = c;
      for (unsigned seed : {3u, 4u}) {
        bool same = false;
        const int retraction = int(tau), tangent = int(c);
        CAPTURE(retraction);
        CAPTURE(tangent);
        CAPTURE(seed);
        CHECK(hessianError(o, seed, &same) < 1e-6);
        CHECK(same);
      }
    }
  LgviOptions o;
  o.group = LgviGroup::SO3xR3;
  bool same = false;
  CHECK(hessianError(o, 5, &same, true) < 1e-6);
  CHECK(same);
}

TEST_CASE("CostVariantsOverTheHelicopterHaveExactDerivatives") {
  // DmocCosts (smoothness + terminal penalty) over HeliDmoc::layout(): gradient and Hessian against differences.
  const HeliDmoc dmoc(smallSpec(8));
  const DmocCosts costs(dmoc, dmoc.layout(), {0.5, 10.0, 0.0});
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Eigen::VectorXd x = dmoc.initialGuess(), lambda(dmoc.numConstraints());
  for (int i = 0; i < x.size(); ++i) x[i] += 0.05 * U(rng);
  for (int i = 0; i < lambda.size(); ++i) lambda[i] = U(rng);
  const test::NlpFdErrors err = test::nlpFdErrors(costs, x);
  CHECK(err.gradient < 1e-6);
  bool same = false;
  CHECK(test::nlpHessianFdError(costs, x, 0.7, lambda, &same, 1e-5) < 1e-6);
  CHECK(same);
  Eigen::VectorXd xL, xU, gL, gU;
  costs.bounds(xL, xU, gL, gU);  // the penalty frees node N's pose
  CHECK(xL[16 * 8 + 3] < -1e18);
  CHECK(xU[16 * 8 + 3] > 1e18);
}
