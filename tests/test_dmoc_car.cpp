// tests/test_dmoc_car.cpp — the car's DMOC transcription (engine/control/car_dmoc.h): its dynamics rows are the
// stepper's own update (zero on a trajectory carStep produced), and every exact first derivative (the update's
// Jacobian, the clearance rows, the cost gradient) agrees with central finite differences to relative 1e-6, and so
// does the exact Hessian of the Lagrangian (against differences of the exact gradient and Jacobian).
#include <doctest/doctest.h>

#include <random>

#include "engine/control/car_dmoc.h"
#include "scenes/vehicle_scenery.h"
#include "tests/nlp_fd_check.h"

using namespace varsim;
using namespace varsim::test;

namespace {

CarDmocSpec smallSpec(int N) {
  CarDmocSpec s;
  s.h = 0.05;
  s.N = N;
  s.start = carStart(s.car, {0.3, 1.0, -0.5}, 0.0, 0.2, 3.0);
  s.target = {1.0, 4.0, 2.0};
  s.weightSmooth = 0.3;
  s.footprint = carFootprint(s.car.l, s.car.rho);
  s.obstacles = carParkingLot(s.car.l, s.car.rho).obstacles;
  return s;
}

}  // namespace

TEST_CASE("CarNextJacobianMatchesFiniteDifferences") {
  const CarParams p;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    CarState s;
    s.g = {3.0 * U(rng), 5.0 * U(rng), 5.0 * U(rng)};
    s.sigma = 0.6 * U(rng);
    s.pMinus = 2.0 * U(rng);
    const double w = U(rng), f = U(rng), h = trial % 2 ? 0.05 : 1.0 / 60.0;
    // Also near a = h omega = 0 (the series branch of S, C).
    if (trial % 5 == 0) s.sigma = 0.0, s.pMinus = 1e-9 * U(rng);
    const Eigen::Matrix<double, 5, 7> J = carNextJacobian(p, 0.5, h, s, w, f);
    auto eval = [&](const Eigen::Matrix<double, 7, 1>& z) {
      CarState t;
      t.g = {z[0], z[1], z[2]};
      t.sigma = z[3];
      t.pMinus = z[4];
      const CarState n = carNext(p, 0.5, h, t, z[5], z[6]);
      return Eigen::Matrix<double, 5, 1>(n.g.theta, n.g.x, n.g.y, n.sigma, n.pMinus);
    };
    Eigen::Matrix<double, 7, 1> z;
    z << s.g.theta, s.g.x, s.g.y, s.sigma, s.pMinus, w, f;
    for (int j = 0; j < 7; ++j) {
      const double e = 1e-6;
      Eigen::Matrix<double, 7, 1> zp = z, zm = z;
      zp[j] += e, zm[j] -= e;
      const Eigen::Matrix<double, 5, 1> fd = (eval(zp) - eval(zm)) / (2.0 * e);
      for (int i = 0; i < 5; ++i) CHECK(relErr(J(i, j), fd[i]) < 1e-6);
    }
  }
}

TEST_CASE("CarNextHessianMatchesFiniteDifferencesOfTheJacobian") {
  const CarParams p;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  double worst = 0.0;
  for (int trial = 0; trial < 50; ++trial) {
    CarState s;
    s.g = {3.0 * U(rng), 5.0 * U(rng), 5.0 * U(rng)};
    s.sigma = 0.6 * U(rng);
    s.pMinus = 2.0 * U(rng);
    double w = U(rng), f = U(rng);
    const double h = trial % 2 ? 0.05 : 1.0 / 60.0;
    if (trial % 5 == 0) s.sigma = 0.0, w = 1e-7 * U(rng);  // a = h omega near 0: the series branch
    const auto H = carNextHessian(p, 0.5, h, s, w, f);
    for (int j = 0; j < 7; ++j) {
      const double e = 1e-6;
      CarState sp = s, sm = s;
      double wp = w, wm = w, fp = f, fm = f;
      double* vp[7] = {&sp.g.theta, &sp.g.x, &sp.g.y, &sp.sigma, &sp.pMinus, &wp, &fp};
      double* vm[7] = {&sm.g.theta, &sm.g.x, &sm.g.y, &sm.sigma, &sm.pMinus, &wm, &fm};
      *vp[j] += e, *vm[j] -= e;
      const Eigen::Matrix<double, 5, 7> fd =
          (carNextJacobian(p, 0.5, h, sp, wp, fp) - carNextJacobian(p, 0.5, h, sm, wm, fm)) / (2.0 * e);
      for (int i = 0; i < 5; ++i)
        for (int l = 0; l < 7; ++l) worst = std::max(worst, relErr(H[size_t(i)](l, j), fd(i, l)));
    }
  }
  CHECK(worst < 1e-6);
}

TEST_CASE("DynamicsRowsVanishOnAStepperTrajectory") {
  const CarDmoc dmoc(smallSpec(30));
  Eigen::VectorXd x = dmoc.initialGuess();
  CarState s = dmoc.spec().start;
  for (int k = 0; k < 30; ++k) {
    x[7 * k + 5] = 0.5 * std::sin(0.3 * k), x[7 * k + 6] = 0.2 * std::cos(0.2 * k);
    carStep(dmoc.spec().car, dmoc.spec().alpha, dmoc.spec().h, s, x[7 * k + 5], x[7 * k + 6]);
    x.segment<5>(7 * (k + 1)) << s.g.theta, s.g.x, s.g.y, s.sigma, s.pMinus;
  }
  const Eigen::VectorXd g = dmoc.constraints(x);
  CHECK(g.head(dmoc.numDynamics()).lpNorm<Eigen::Infinity>() == 0.0);  // the same code path, bit for bit
  for (int k = 0; k < 30; ++k) CHECK(dmoc.dynResidual(x, k) == 0.0);
}

TEST_CASE("TranscriptionJacobianAndGradientMatchFiniteDifferences") {
  const CarDmoc dmoc(smallSpec(6));
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    Eigen::VectorXd x = dmoc.initialGuess();
    for (int i = 0; i < x.size(); ++i) x[i] += 0.3 * U(rng);
    const NlpFdErrors e = nlpFdErrors(dmoc, x);
    CHECK(e.jacobian < 1e-6);
    CHECK(e.gradient < 1e-6);
    // The pattern is the same at every iterate (Ipopt takes it once).
    CHECK(sameJacobianPattern(dmoc, x, dmoc.initialGuess()));
  }
}

TEST_CASE("CoveringDiscsContainTheFootprint") {
  const Footprint f = carFootprint(1.5, 0.35);
  for (int n : {1, 3, 4, 8}) {
    const auto discs = coverFootprint(f, n);
    for (int i = 0; i <= 40; ++i)
      for (int j = 0; j <= 10; ++j) {
        const double px = f.xMin + (f.xMax - f.xMin) * i / 40.0, py = f.yMin + (f.yMax - f.yMin) * j / 10.0;
        bool inside = false;
        for (const auto& d : discs) inside |= std::hypot(px - d.bx, py - d.by) <= d.r + 1e-12;
        CHECK(inside);
      }
  }
}

TEST_CASE("LagrangianHessianMatchesFiniteDifferencesOfGradientAndJacobian") {
  const CarDmoc dmoc(smallSpec(6));
  const int n = dmoc.numVariables(), m = dmoc.numConstraints();
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  auto lagrangianGradient = [&](const Eigen::VectorXd& x, double sigma, const Eigen::VectorXd& lambda) {
    std::vector<Eigen::Triplet<double>> t;
    dmoc.jacobian(x, t);
    Eigen::SparseMatrix<double> J(m, n);
    J.setFromTriplets(t.begin(), t.end());
    return Eigen::VectorXd(sigma * dmoc.gradient(x) + J.transpose() * lambda);
  };
  std::vector<Eigen::Triplet<double>> t0;
  dmoc.hessian(dmoc.initialGuess(), 1.0, Eigen::VectorXd::Zero(m), t0);
  for (int trial = 0; trial < 5; ++trial) {
    Eigen::VectorXd x = dmoc.initialGuess(), lambda(m);
    for (int i = 0; i < n; ++i) x[i] += 0.3 * U(rng);
    for (int i = 0; i < m; ++i) lambda[i] = U(rng);
    const double sigma = 0.5 + 0.5 * U(rng);
    std::vector<Eigen::Triplet<double>> t;
    dmoc.hessian(x, sigma, lambda, t);
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(n, n);
    for (const auto& e : t) {
      REQUIRE(e.row() >= e.col());  // lower triangle only
      H(e.row(), e.col()) += e.value();
      if (e.row() != e.col()) H(e.col(), e.row()) += e.value();
    }
    double worst = 0.0;
    for (int j = 0; j < n; ++j) {
      const double e = 1e-6;
      Eigen::VectorXd xp = x, xm = x;
      xp[j] += e, xm[j] -= e;
      const Eigen::VectorXd fd = (lagrangianGradient(xp, sigma, lambda) - lagrangianGradient(xm, sigma, lambda)) / (2.0 * e);
      for (int i = 0; i < n; ++i) worst = std::max(worst, relErr(H(i, j), fd[i]));
    }
    CHECK(worst < 1e-6);
    REQUIRE(t.size() == t0.size());  // a fixed pattern, whatever x, sigma and lambda
    for (size_t i = 0; i < t.size(); ++i) CHECK((t0[i].row() == t[i].row() && t0[i].col() == t[i].col()));
  }
}
