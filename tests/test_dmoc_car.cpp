// tests/test_dmoc_car.cpp — the car's DMOC transcription (engine/control/car_dmoc.h): its dynamics rows are the
// stepper's own update (zero on a trajectory carStep produced), and every exact first derivative (the update's
// Jacobian in state, control and h, the clearance rows, the cost gradient) agrees with central finite differences
// to relative 1e-6, and so does the exact Hessian of the Lagrangian (against differences of the exact gradient and
// Jacobian) — with fixed and free final time and the generic cost variants (engine/control/dmoc_costs.h); the update's
// Hessian without h's complex step (a fixed step) is the same to the bit in every other entry.
#include <doctest/doctest.h>

#include <random>

#include "engine/control/car_dmoc.h"
#include "engine/sim/errors.h"
#include "scenes/vehicles/vehicle_scenery.h"
#include "tests/nlp_fd_check.h"

using namespace varsim;
using namespace varsim::test;

namespace {

CarDmocSpec smallSpec(int N, bool freeTime = false) {
  CarDmocSpec s;
  s.h = 0.05;
  s.N = N;
  s.start = carStart(s.car, {0.3, 1.0, -0.5}, 0.0, 0.2, 3.0);
  s.target = {1.0, 4.0, 2.0};
  s.freeTime = freeTime;
  s.hMin = 0.01, s.hMax = 0.2;
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
    const Eigen::Matrix<double, 5, 8> J = carNextJacobian(p, 0.5, h, s, w, f);
    auto eval = [&](const Eigen::Matrix<double, 8, 1>& z) {
      CarState t;
      t.g = {z[0], z[1], z[2]};
      t.sigma = z[3];
      t.pMinus = z[4];
      const CarState n = carNext(p, 0.5, z[7], t, z[5], z[6]);
      return Eigen::Matrix<double, 5, 1>(n.g.theta, n.g.x, n.g.y, n.sigma, n.pMinus);
    };
    Eigen::Matrix<double, 8, 1> z;
    z << s.g.theta, s.g.x, s.g.y, s.sigma, s.pMinus, w, f, h;
    for (int j = 0; j < 8; ++j) {  // the last: d/dh (free final time)
      const double e = 1e-6;
      Eigen::Matrix<double, 8, 1> zp = z, zm = z;
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
    const auto fixedStep = carNextHessian(p, 0.5, h, s, w, f, false);  // without h's complex step
    for (size_t i = 0; i < 5; ++i) {
      CHECK(fixedStep[i].topLeftCorner<7, 7>() == H[i].topLeftCorner<7, 7>());  // to the bit
      CHECK(fixedStep[i].row(7).isZero(0.0));
      CHECK(fixedStep[i].col(7).isZero(0.0));
    }
    for (int j = 0; j < 8; ++j) {
      const double e = 1e-6;
      CarState sp = s, sm = s;
      double wp = w, wm = w, fp = f, fm = f, hp = h, hm = h;
      double* vp[8] = {&sp.g.theta, &sp.g.x, &sp.g.y, &sp.sigma, &sp.pMinus, &wp, &fp, &hp};
      double* vm[8] = {&sm.g.theta, &sm.g.x, &sm.g.y, &sm.sigma, &sm.pMinus, &wm, &fm, &hm};
      *vp[j] += e, *vm[j] -= e;
      const Eigen::Matrix<double, 5, 8> fd =
          (carNextJacobian(p, 0.5, hp, sp, wp, fp) - carNextJacobian(p, 0.5, hm, sm, wm, fm)) / (2.0 * e);
      for (int i = 0; i < 5; ++i)
        for (int l = 0; l < 8; ++l) worst = std::max(worst, relErr(H[size_t(i)](l, j), fd(i, l)));
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

// The transcription alone, and wrapped in every cost variant with h free (the variables and rows the solver sees).
TEST_CASE("TranscriptionDerivativesMatchFiniteDifferences") {
  const CarDmoc fixed(smallSpec(6)), free(smallSpec(6, true));
  const DmocCosts costs(free, free.layout(), {0.3, 2.0, 0.5});  // smoothness, terminal penalty, final time
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  for (const Nlp* nlp : {static_cast<const Nlp*>(&fixed), static_cast<const Nlp*>(&costs)}) {
    for (int trial = 0; trial < 5; ++trial) {
      Eigen::VectorXd x = nlp->initialGuess(), lambda(nlp->numConstraints());
      for (int i = 0; i < x.size(); ++i) x[i] += 0.3 * U(rng);
      if (nlp == &costs) x[x.size() - 1] = 0.05 + 0.02 * U(rng);  // h
      for (int i = 0; i < lambda.size(); ++i) lambda[i] = U(rng);
      const NlpFdErrors e = nlpFdErrors(*nlp, x);
      CHECK(e.jacobian < 1e-6);
      CHECK(e.gradient < 1e-6);
      // The patterns are the same at every iterate (Ipopt takes them once).
      CHECK(sameJacobianPattern(*nlp, x, nlp->initialGuess()));
      bool samePattern = false;
      // Step 1e-5: differencing the Lagrangian gradient (terms up to ~1e3 with the smoothness' 1/h^2 at free h) loses
      // ~1e-16 * 1e3 / e to round-off (measured: 1e-6 at e = 1e-6, 2e-5 at 1e-7), truncation stays < 1e-9.
      CHECK(nlpHessianFdError(*nlp, x, 0.5 + 0.5 * U(rng), lambda, &samePattern, 1e-5) < 1e-6);
      CHECK(samePattern);
    }
  }
}

TEST_CASE("TerminalPenaltyFreesTheTargetAndTimeNeedsAFreeStep") {
  const CarDmoc fixed(smallSpec(6)), free(smallSpec(6, true));
  Eigen::VectorXd xL, xU, gL, gU;
  fixed.bounds(xL, xU, gL, gU);
  CHECK(xL[7 * 6 + 1] == xU[7 * 6 + 1]);  // target x fixed
  const DmocCosts penalty(fixed, fixed.layout(), {0.0, 10.0, 0.0});
  penalty.bounds(xL, xU, gL, gU);
  for (int i : {0, 1, 2, 4}) CHECK(xU[7 * 6 + i] - xL[7 * 6 + i] > 1e18);
  CHECK(free.numVariables() == fixed.numVariables() + 1);
  CHECK_THROWS_AS(DmocCosts(fixed, fixed.layout(), {0.0, 0.0, 1.0}), BadInput);  // weight_time with h fixed
  CHECK_THROWS_AS(DmocCosts(fixed, fixed.layout(), {-1.0, 0.0, 0.0}), BadInput);
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
