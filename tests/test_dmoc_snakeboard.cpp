// tests/test_dmoc_snakeboard.cpp — the snakeboard's DMOC transcription (engine/control/snakeboard_dmoc.h): its
// dynamics rows are the stepper's own update (zero on a trajectory snakeboardStep produced), its command rows invert
// the scene's shape lag, and every exact first derivative (the update's Jacobian, the cost gradient) agrees with
// central finite differences to relative 1e-6 on random iterates. Smoothness and terminal penalty come from
// DmocCosts over the transcription's layout (node shapes as controls): checked with them on.
#include <doctest/doctest.h>

#include <random>

#include "engine/control/dmoc_costs.h"
#include "engine/control/snakeboard_dmoc.h"
#include "engine/sim/errors.h"
#include "scenes/vehicles/vehicle_scenery.h"
#include "tests/nlp_fd_check.h"

using namespace varsim;
using namespace varsim::test;

namespace {

SnakeboardDmocSpec smallSpec(int N) {
  SnakeboardDmocSpec s;
  s.h = 0.05;
  s.N = N;
  s.start = snakeboardStart({0.3, 1.0, -0.5}, 0.2, -0.1, 0.05);
  s.target = {1.0, -2.0, 0.5};
  s.lag = std::exp(-0.05 / 0.15);
  s.weightPhi = 2.0;
  // Two boxes beside the straight path: the clearance rows and their second derivatives enter every check.
  s.footprint = snakeboardFootprint(s.board.l);
  s.obstacles = {{0.0, 1.0, 0.3, 0.5, 0.3}, {-1.0, -1.3, 0.0, 0.4, 0.4}};
  s.margin = 0.05;
  return s;
}

constexpr double kSmooth = 0.3;

Eigen::Matrix<double, 4, 1> nextRows(const SnakeboardParams& p, double h, const Eigen::Matrix<double, 8, 1>& z) {
  const SnakeboardState n =
      snakeboardNext(p, 0.5, h, snakeboardStart({z[0], z[1], z[2]}, z[3], z[4], z[5]), z[6], z[7]);
  return Eigen::Matrix<double, 4, 1>(n.g.theta, n.g.x, n.g.y, n.p);
}

// Random inputs z = (theta, x, y, psi, phi, p, psi_{k+1}, phi_{k+1}) of snakeboardNext; every fifth at rest with
// the shape held (h omega = 0 exactly: the series branch of the pose line).
Eigen::Matrix<double, 8, 1> randomInputs(std::mt19937& rng, int trial) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Eigen::Matrix<double, 8, 1> z;
  z << 3.0 * U(rng), 5.0 * U(rng), 5.0 * U(rng), U(rng), 0.6 * U(rng), 0.5 * U(rng), 0.0, 0.0;
  z[6] = z[3] + 0.1 * U(rng);
  z[7] = z[4] + 0.05 * U(rng);
  if (trial % 5 == 0) z[5] = 0.0, z[6] = z[3], z[7] = z[4];
  return z;
}

}  // namespace

TEST_CASE("SnakeboardNextJacobianMatchesFiniteDifferences") {
  const SnakeboardParams p;
  std::mt19937 rng(7);
  double worst = 0.0;
  for (int trial = 0; trial < 50; ++trial) {
    const double h = trial % 2 ? 0.05 : 1.0 / 60.0;
    const Eigen::Matrix<double, 8, 1> z = randomInputs(rng, trial);
    const SnakeboardState s = snakeboardStart({z[0], z[1], z[2]}, z[3], z[4], z[5]);
    const Eigen::Matrix<double, 4, 8> J = snakeboardNextJacobian(p, 0.5, h, s, z[6], z[7]);
    for (int j = 0; j < 8; ++j) {
      const double e = 1e-6;
      Eigen::Matrix<double, 8, 1> zp = z, zm = z;
      zp[j] += e, zm[j] -= e;
      const Eigen::Matrix<double, 4, 1> fd = (nextRows(p, h, zp) - nextRows(p, h, zm)) / (2.0 * e);
      for (int i = 0; i < 4; ++i) worst = std::max(worst, relErr(J(i, j), fd[i]));
    }
  }
  CHECK(worst < 1e-6);
}

TEST_CASE("SnakeboardNextHessianMatchesFiniteDifferencesOfTheJacobian") {
  const SnakeboardParams p;
  std::mt19937 rng(9);
  double worst = 0.0;
  for (int trial = 0; trial < 50; ++trial) {
    const double h = trial % 2 ? 0.05 : 1.0 / 60.0;
    const Eigen::Matrix<double, 8, 1> z = randomInputs(rng, trial);
    auto jac = [&](const Eigen::Matrix<double, 8, 1>& y) {
      return snakeboardNextJacobian(p, 0.5, h, snakeboardStart({y[0], y[1], y[2]}, y[3], y[4], y[5]), y[6], y[7]);
    };
    const auto H = snakeboardNextHessian(p, 0.5, h, snakeboardStart({z[0], z[1], z[2]}, z[3], z[4], z[5]), z[6], z[7]);
    for (int b = 0; b < 6; ++b) {
      const double e = 1e-6;
      Eigen::Matrix<double, 8, 1> zp = z, zm = z;
      zp[kNonlinearInputs[b]] += e, zm[kNonlinearInputs[b]] -= e;
      const Eigen::Matrix<double, 4, 8> fd = (jac(zp) - jac(zm)) / (2.0 * e);
      for (int i = 0; i < 4; ++i) {
        for (int a = 0; a < 6; ++a) worst = std::max(worst, relErr(H[size_t(i)](a, b), fd(i, kNonlinearInputs[a])));
        for (int c : {1, 2}) CHECK(std::abs(fd(i, c)) < 1e-6);  // x, y enter linearly: nothing is left out
      }
    }
  }
  CHECK(worst < 1e-6);
}

TEST_CASE("SnakeboardDynamicsRowsVanishOnAStepperTrajectory") {
  const SnakeboardDmoc dmoc(smallSpec(40));
  const SnakeboardDmocSpec& sp = dmoc.spec();
  Eigen::VectorXd x = dmoc.initialGuess();
  SnakeboardState s = sp.start;
  for (int k = 0; k < sp.N; ++k) {
    const double t = (k + 1) * sp.h;
    snakeboardStep(sp.board, sp.alpha, sp.h, s, std::sin(3.0 * t), 0.4 * std::sin(3.0 * t + 0.5));
    x.segment<6>(6 * (k + 1)) << s.g.theta, s.g.x, s.g.y, s.psi, s.phi, s.p;
  }
  CHECK(s.g.x != sp.start.g.x);  // the gait moved the board
  const Eigen::VectorXd g = dmoc.constraints(x);
  CHECK(g.head(dmoc.numDynamics()).lpNorm<Eigen::Infinity>() == 0.0);  // the same code path, bit for bit
  for (int k = 0; k < sp.N; ++k) CHECK(dmoc.dynResidual(x, k) == 0.0);
  // The command rows invert the scene's lag r_{k+1} = c_k + lag (r_k - c_k).
  for (int k = 0; k < sp.N; ++k) {
    const Eigen::Vector2d c = dmoc.command(x, k), r = x.segment<2>(6 * k + 3), rNext = x.segment<2>(6 * (k + 1) + 3);
    CHECK((c + sp.lag * (r - c) - rNext).norm() < 1e-14);
    CHECK((g.segment<2>(dmoc.numDynamics() + 2 * k) - c).norm() == 0.0);
  }
}

TEST_CASE("SnakeboardSmoothnessThroughDmocCostsIsTheShapeAccelerationSum") {
  const SnakeboardDmoc dmoc(smallSpec(6));
  const DmocCosts costs(dmoc, dmoc.layout(), {kSmooth, 0.0, 0.0});
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Eigen::VectorXd x = dmoc.initialGuess();
  for (int i = 0; i < x.size(); ++i) x[i] += 0.2 * U(rng);
  // weight_smooth sum_{k<N-1} |u_{k+1} - u_k|_W^2 / h with u_k = (r_{k+1} - r_k)/h, W = diag(1, 2).
  double S = 0.0;
  for (int k = 0; k + 1 < dmoc.spec().N; ++k) {
    const Eigen::Vector2d du = dmoc.shapeRate(x, k + 1) - dmoc.shapeRate(x, k);
    S += du[0] * du[0] + 2.0 * du[1] * du[1];
  }
  CHECK(costs.objective(x) - dmoc.objective(x) == doctest::Approx(kSmooth * S / dmoc.spec().h).epsilon(1e-12));
  const DmocLayout l = dmoc.layout();
  REQUIRE(l.controls.size() == size_t(dmoc.spec().N + 1));  // node shapes r_0..r_N
  CHECK(l.controlsAreNodes);
  CHECK_THROWS_AS(DmocCosts(dmoc, l, {std::nan(""), 0.0, 0.0}), BadInput);  // weight_smooth named
}

TEST_CASE("SnakeboardTranscriptionJacobianAndGradientMatchFiniteDifferences") {
  const SnakeboardDmoc base(smallSpec(6));
  const DmocCosts dmoc(base, base.layout(), {kSmooth, 0.0, 0.0});
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    Eigen::VectorXd x = dmoc.initialGuess();
    for (int k = 0; k <= base.spec().N; ++k) {
      x.segment<3>(6 * k) += 0.3 * Eigen::Vector3d(U(rng), U(rng), U(rng));
      x.segment<3>(6 * k + 3) += Eigen::Vector3d(0.5 * U(rng), 0.2 * U(rng), 0.3 * U(rng));
    }
    const NlpFdErrors e = nlpFdErrors(dmoc, x);
    CHECK(e.jacobian < 1e-6);
    CHECK(e.gradient < 1e-6);
    CHECK(sameJacobianPattern(dmoc, x, dmoc.initialGuess()));
  }
}

TEST_CASE("SnakeboardBoundsFixStartAndRestAtTheTarget") {
  const SnakeboardDmoc dmoc(smallSpec(5));
  Eigen::VectorXd xL, xU, gL, gU;
  dmoc.bounds(xL, xU, gL, gU);
  const int N = dmoc.spec().N;
  for (int i = 0; i < 6; ++i) CHECK(xL[i] == xU[i]);
  for (int i = 0; i < 6; ++i) CHECK(xL[6 * N + i] == xU[6 * N + i]);
  CHECK(xL[6 * N + 5] == 0.0);                    // p_N = 0
  CHECK(xL[6 * N + 3] == dmoc.spec().start.psi);  // the shape back where it started
  CHECK(gL.head(dmoc.numDynamics()).cwiseAbs().maxCoeff() == 0.0);
  CHECK(gL[dmoc.numDynamics() + 1] == -0.6);                // phi command range
  REQUIRE(dmoc.numConstraints() == 4 * N + 2 * N + 2 * N);  // + one clearance row per node 1..N and box
  CHECK(gL.tail(2 * N).minCoeff() == 0.05);
  CHECK(gU.tail(2 * N).minCoeff() >= kNlpInfinity);
  SnakeboardDmocSpec bad = smallSpec(5);
  bad.N = 0;
  CHECK_THROWS_AS(SnakeboardDmoc{bad}, BadInput);
  bad = smallSpec(5);
  bad.lag = 1.0;
  CHECK_THROWS_AS(SnakeboardDmoc{bad}, BadInput);
  bad = smallSpec(5);
  bad.weightPsi = std::nan("");
  CHECK_THROWS_AS(SnakeboardDmoc{bad}, BadInput);
}

TEST_CASE("SnakeboardHessianMatchesFiniteDifferencesOfTheLagrangianGradient") {
  const SnakeboardDmoc base(smallSpec(6));
  // Smoothness and a terminal penalty on (DmocCosts): their Hessian blocks are checked with the dynamics'.
  const DmocCosts dmoc(base, base.layout(), {kSmooth, 5.0, 0.0});
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const int n = dmoc.numVariables(), m = dmoc.numConstraints();
  for (int trial = 0; trial < 5; ++trial) {
    Eigen::VectorXd x = dmoc.initialGuess(), lambda(m);
    for (int k = 0; k <= base.spec().N; ++k) {
      x.segment<3>(6 * k) += 0.3 * Eigen::Vector3d(U(rng), U(rng), U(rng));
      x.segment<3>(6 * k + 3) += Eigen::Vector3d(0.5 * U(rng), 0.2 * U(rng), 0.3 * U(rng));
    }
    for (int i = 0; i < m; ++i) lambda[i] = 2.0 * U(rng);
    const double sigma = 0.7;
    std::vector<Eigen::Triplet<double>> t;
    dmoc.hessian(x, sigma, lambda, t);
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(n, n);
    for (const auto& e : t) {
      CHECK(e.row() >= e.col());  // lower triangle
      H(e.row(), e.col()) += e.value();
    }
    H = H.selfadjointView<Eigen::Lower>();
    auto lagrangianGradient = [&](const Eigen::VectorXd& y) {
      std::vector<Eigen::Triplet<double>> jt;
      dmoc.jacobian(y, jt);
      Eigen::SparseMatrix<double> J(m, n);
      J.setFromTriplets(jt.begin(), jt.end());
      return Eigen::VectorXd(sigma * dmoc.gradient(y) + J.transpose() * lambda);
    };
    double worst = 0.0;
    for (int j = 0; j < n; ++j) {
      const double e = 1e-5;
      Eigen::VectorXd xp = x, xm = x;
      xp[j] += e, xm[j] -= e;
      const Eigen::VectorXd fd = (lagrangianGradient(xp) - lagrangianGradient(xm)) / (2.0 * e);
      for (int i = 0; i < n; ++i) worst = std::max(worst, relErr(H(i, j), fd[i]));
    }
    CHECK(worst < 1e-6);
    std::vector<Eigen::Triplet<double>> t0;
    dmoc.hessian(dmoc.initialGuess(), 1.0, Eigen::VectorXd::Zero(m), t0);
    REQUIRE(t0.size() == t.size());  // the pattern does not depend on x, objFactor or lambda
    for (size_t i = 0; i < t.size(); ++i) CHECK((t0[i].row() == t[i].row() && t0[i].col() == t[i].col()));
  }
}
