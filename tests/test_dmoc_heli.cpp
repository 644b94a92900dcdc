// tests/test_dmoc_heli.cpp — the helicopter's DMOC transcription (engine/control/heli_dmoc.h): its dynamics rows are
// the LGVI stepper's own equations (near zero on a trajectory LgviSe3 produced with the scene's wrenches), the pure
// step functions it shares with the stepper have exact derivatives, and every first derivative of the NLP (Jacobian,
// cost gradient) agrees with central finite differences to relative 1e-6 on random iterates.
#include <doctest/doctest.h>

#include <random>

#include "engine/control/banded_hessian.h"
#include "engine/control/heli_dmoc.h"
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
  s.weightSmooth = 0.2;
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
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  for (int trial = 0; trial < 4; ++trial) {
    Eigen::VectorXd x = dmoc.initialGuess();
    for (int k = 0; k <= 4; ++k) {
      x.segment<3>(16 * k) = 0.3 * Vector3d(U(rng), U(rng), U(rng));
      x.segment<3>(16 * k + 3) = Vector3d(130.0 + 10.0 * U(rng), 8.0 + 4.0 * U(rng), 1.0 + 0.5 * U(rng));
      if (k == 4) break;
      for (int i = 0; i < 6; ++i) x[16 * k + 6 + i] = (i < 3 ? 0.5 : 5.0) * U(rng);
      dmoc.setControl(x, k, {6000.0 + 2000.0 * U(rng), 500.0 * U(rng), 0.2 * U(rng), 0.2 * U(rng)});
    }
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

TEST_CASE("BandedHessianMatchesDenseDifferencesOfTheLagrangianGradient") {
  // The colouring assumes every row couples adjacent blocks only: a dense column-by-column difference (no colouring)
  // finds every coupling, so it would expose a missed one; both use the same steps.
  const HeliDmoc dmoc(smallSpec(5));
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Eigen::VectorXd x = dmoc.initialGuess(), lambda(dmoc.numConstraints());
  for (int i = 0; i < x.size(); ++i) x[i] += 0.2 * U(rng);
  for (int k = 0; k <= 5; ++k) x[16 * k + 5] = 10.0 + U(rng);  // in the air, clear of the walls
  for (int i = 0; i < lambda.size(); ++i) lambda[i] = U(rng);
  std::vector<Eigen::Triplet<double>> t;
  bandedFdHessian(dmoc, HeliDmoc::kBlock, x, 0.7, lambda, t);
  const int n = dmoc.numVariables();
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(n, n);
  for (const auto& e : t) {
    CHECK(e.row() >= e.col());
    H(e.row(), e.col()) += e.value();
  }
  const auto lagGrad = [&](const Eigen::VectorXd& z) {
    Eigen::VectorXd g = 0.7 * dmoc.gradient(z);
    std::vector<Eigen::Triplet<double>> J;
    dmoc.jacobian(z, J);
    for (const auto& e : J) g[e.col()] += e.value() * lambda[e.row()];
    return g;
  };
  Eigen::MatrixXd D(n, n);
  for (int j = 0; j < n; ++j) {
    const double e = 1e-5 * std::max(1.0, std::abs(x[j]));
    Eigen::VectorXd xp = x, xm = x;
    xp[j] += e, xm[j] -= e;
    D.col(j) = (lagGrad(xp) - lagGrad(xm)) / (2.0 * e);
  }
  double worst = 0.0;
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) worst = std::max(worst, test::relErr(H(i, j), 0.5 * (D(i, j) + D(j, i))));
  CHECK(worst < 1e-6);
}
