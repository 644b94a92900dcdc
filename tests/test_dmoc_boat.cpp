// tests/test_dmoc_boat.cpp — the boat's DMOC transcription (engine/control/boat_dmoc.h): its rows vanish on a trajectory
// the LGVI stepper flies with the boat's own wrenches (waves, wind, current), its Jacobian and gradient match central
// differences on random iterates, and Ipopt docks a boat against a head wind and current (the wind drag's rounded face
// exposure, boat.h) whose open-loop replay through the
// stepper reproduces the plan.
#include <doctest/doctest.h>

#include <cstdlib>
#include <random>

#include "engine/control/banded_hessian.h"
#include "engine/control/boat_dmoc.h"
#include "engine/lie/so3.h"
#include "plan/ipopt_solver.h"
#include "tests/nlp_fd_check.h"

using namespace varsim;

namespace {

// Calm water, a head wind and a head current along -x: the dock (heading 0, into both) is a station the stern
// thrusters hold against them, and they brake the boat. With the hard face exposure max(0, -n . w) of the wind drag
// (BoatSettings::windExposureBand = 0) the side faces are tangent to the wind at every node of the straight run and
// Ipopt stalls there: dual infeasibility 0.034, all of it in the nodes' yaw, for 100 iterations (FD Hessian).
BoatDmocSpec dockSpec(int N, double h) {
  BoatDmocSpec s;
  s.boat.patchSize = 0.5;
  s.boat.wind = Vector3d(-8.0, 0.0, 0.0);
  s.water.amplitude = 0.0;
  s.water.current = Vector3d(-0.5, 0.0, 0.0);
  s.lgvi.group = LgviGroup::SO3xR3;
  s.h = h;
  s.N = N;
  const Boat boat(s.boat);
  s.start = {Matrix3d::Identity(), Vector3d(0.0, 0.0, boat.equilibriumHeight())};
  s.dock = {5.0, 0.0};
  return s;
}

// Flies the stepper from the spec's start with the given thrust per node (the boat scene's step: thrust at the node,
// Boat::endOfStepWrench with node data frozen at node k) and writes poses, twists and thrusts into an iterate.
Eigen::VectorXd fly(const BoatDmoc& dmoc, const std::vector<Eigen::Vector2d>& u, Eigen::VectorXd x) {
  const BoatDmocSpec& s = dmoc.spec();
  LgviSe3 lgvi(principalInertia(s.boat.mass, dmoc.boat().principalInertia()), s.lgvi);
  const auto thrust = [&](const se3::Pose& g, double t, const Eigen::Vector2d& uk) {
    return dmoc.boat().thrustWrench(g, t, dmoc.water(), Eigen::Vector2d(uk.y(), uk.x()));
  };
  Vector6d fk = thrust(s.start, 0.0, u[0]);
  lgvi.initialize(s.start, s.xi0, 0.0, s.h, [&](const se3::Pose&, const Vector6d&, double) { return fk; });
  HydrostaticState scratch;
  for (int k = 0; k < s.N; ++k) {
    const se3::Pose g = lgvi.pose();
    const BoatNodeData nd = dmoc.nodeData(g, k * s.h);
    x.segment<3>(14 * k) = so3::log(dmoc.chartCentre(k).transpose() * g.R);
    x.segment<3>(14 * k + 3) = g.x;
    dmoc.setThrust(x, k, u[k]);
    const ImplicitWrench fEnd = [&](const se3::Pose& ge, const Vector6d& xi, double t, ImplicitWrenchJacobian* jac) {
      BoatWrench w;
      return dmoc.boat().endOfStepWrench(ge, xi, nd.hydro, nd.eta, dmoc.water(), t, scratch, w,
                                         jac ? &jac->dPose : nullptr, jac ? &jac->dXi : nullptr);
    };
    lgvi.step(s.h, [&](const se3::Pose&, const Vector6d&, double) { return fk; }, fEnd);
    x.segment<6>(14 * k + 6) = lgvi.xi();
    if (k + 1 < s.N) fk = thrust(lgvi.pose(), (k + 1) * s.h, u[k + 1]);
  }
  x.segment<3>(14 * s.N) = so3::log(dmoc.chartCentre(s.N).transpose() * lgvi.pose().R);
  x.segment<3>(14 * s.N + 3) = lgvi.pose().x;
  return x;
}

// A random iterate around the guess: charts within 0.1 rad, positions within 1 m, twists and thrusts spread.
Eigen::VectorXd randomIterate(const BoatDmoc& dmoc, std::mt19937& rng, double heave) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const int N = dmoc.spec().N;
  Eigen::VectorXd x = dmoc.initialGuess();
  for (int k = 0; k <= N; ++k) {
    x.segment<3>(14 * k) = 0.1 * Vector3d(U(rng), U(rng), U(rng));
    x.segment<3>(14 * k + 3) += Vector3d(U(rng), U(rng), heave * U(rng));
    if (k == N) break;
    for (int i = 0; i < 6; ++i) x[14 * k + 6 + i] = (i < 3 ? 0.3 : 2.0) * U(rng);
    x.segment<2>(14 * k + 12) = Eigen::Vector2d(0.5 + 0.5 * U(rng), 0.5 + 0.5 * U(rng));
  }
  return x;
}

// Multipliers uniform in [-100, 100].
Eigen::VectorXd randomMultipliers(const BoatDmoc& dmoc, std::mt19937& rng) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Eigen::VectorXd lambda(dmoc.numConstraints());
  for (int i = 0; i < lambda.size(); ++i) lambda[i] = 100.0 * U(rng);
  return lambda;
}

// The boat_dock sea in still water: dockSpec with the scene's wind (6, 3, 0) m/s, N segments of 0.2 s.
BoatDmocSpec windySpec(int N) {
  BoatDmocSpec s = dockSpec(N, 0.2);
  s.boat.wind = Vector3d(6.0, 3.0, 0.0);
  return s;
}

}  // namespace

TEST_CASE("RowsVanishOnTheSteppersTrajectoryInWavesWindAndCurrent") {
  BoatDmocSpec s = dockSpec(30, 0.1);
  s.water.amplitude = 0.15;  // the scene's default sea, wind at an angle
  s.boat.wind = Vector3d(6.0, 3.0, 0.0);
  s.water.current = Vector3d(0.3, -0.2, 0.0);
  const BoatDmoc dmoc(s);
  std::vector<Eigen::Vector2d> u;
  for (int k = 0; k < s.N; ++k) u.emplace_back(800.0 + 500.0 * std::sin(0.3 * k), 600.0 + 400.0 * std::cos(0.2 * k));
  u[0] = s.u0;  // node 0's thrust is the scene's held one (fixed in the transcription)
  const Eigen::VectorXd x = fly(dmoc, u, dmoc.initialGuess());
  double worst = 0.0;
  for (int k = 0; k < s.N; ++k) worst = std::max(worst, dmoc.dynResidual(x, k));
  CHECK(worst < 1e-10);
  CHECK(dmoc.pose(x, s.N).x.x() > 1.0);  // it really moved
}

// Under waves the node data's partial comes from the jets of the boat's routines; in still water it is the exact
// waterline transport (patch_exposure_derivative.h), checked here against differences of the whole rows.
TEST_CASE("JacobianAndGradientMatchFiniteDifferences") {
 for (const double amplitude : {0.15, 0.0}) {
  CAPTURE(amplitude);
  BoatDmocSpec s = dockSpec(4, 0.2);
  s.water.amplitude = amplitude;
  s.boat.wind = Vector3d(6.0, 3.0, 0.0);
  const BoatDmoc dmoc(s);
  std::mt19937 rng(7);
  // Sanitizers check memory: one random iterate there (the same code at each), three in Release.
  const int trials = std::getenv("VARSIM_SANITIZED") ? 1 : 3;
  for (int trial = 0; trial < trials; ++trial) {
    const Eigen::VectorXd x = randomIterate(dmoc, rng, 0.1);
    const test::NlpFdErrors err = test::nlpFdErrors(dmoc, x);
    CHECK(err.jacobian < 1e-6);
    CHECK(err.gradient < 1e-6);
    // The shared cost variants over the boat's layout (smoothness of u, terminal penalty on the freed dock values).
    const DmocCosts costs(dmoc, dmoc.layout(), {0.3, 5.0, 0.0});
    CHECK(test::nlpFdErrors(costs, x).gradient < 1e-6);
    Eigen::VectorXd xL, xU, gL, gU;
    costs.bounds(xL, xU, gL, gU);
    for (int i : dmoc.layout().terminal) CHECK((xL[i] == -kNlpInfinity && xU[i] == kNlpInfinity));
    CHECK(test::sameJacobianPattern(dmoc, x, dmoc.initialGuess()));
  }
 }
}

TEST_CASE("IpoptDocksAgainstHeadWindAndCurrentAndTheReplayFollowsThePlan") {
  const int N = 20;
  BoatDmocSpec spec = dockSpec(N, 15.0 / N);
  spec.segmentHessian = false;  // L-BFGS: 36 iterations, 0.3 s
  const BoatDmoc dmoc(spec);
  IpoptSettings opt;
  opt.maxIterations = 200;
  const IpoptResult r = solveWithIpopt(dmoc, opt);
  MESSAGE("boat dock N=" << N << ": " << r.status << ", " << r.iterations << " iterations, cost " << r.objective);
  REQUIRE(r.solved);
  double worst = 0.0;
  for (int k = 0; k < N; ++k) worst = std::max(worst, dmoc.dynResidual(r.x, k));
  CHECK(worst <= 1e-10);
  const se3::Pose end = dmoc.pose(r.x, N);
  CHECK(std::abs(end.x.x() - 5.0) < 1e-9);
  CHECK(dmoc.twist(r.x, N - 1).norm() < 1e-9);
  std::vector<Eigen::Vector2d> u;
  for (int k = 0; k < N; ++k) {
    u.push_back(dmoc.thrust(r.x, k));
    CHECK(u.back().minCoeff() >= -1e-9);
    CHECK(u.back().maxCoeff() <= dmoc.spec().boat.thrustMax + 1e-9);
  }
  const Eigen::VectorXd replay = fly(dmoc, u, r.x);
  const double replayError = (replay - r.x).lpNorm<Eigen::Infinity>();
  MESSAGE("max dyn_residual " << worst << ", replay error " << replayError);
  CHECK(replayError <= 1e-8);
}

TEST_CASE("SegmentHessianMatchesDifferencesOfTheWholeJacobian") {
  // The segment-by-segment Hessian of the Lagrangian (boat_dmoc_hessian.cpp: exact LGVI blocks and, in still water,
  // the exact hull-wrench blocks) against compressed forward differences of the whole Jacobian (banded_hessian.h), in
  // still water with wind, at a random iterate with random multipliers: worst entry relative to the largest (the
  // reference's own forward-difference error).
  const BoatDmoc dmoc(windySpec(4));
  std::mt19937 rng(11);
  const Eigen::VectorXd x = randomIterate(dmoc, rng, 0.05);
  const Eigen::VectorXd lambda = randomMultipliers(dmoc, rng);
  const auto dense = [&](bool segment) {
    std::vector<Eigen::Triplet<double>> t;
    if (segment) dmoc.hessian(x, 0.7, lambda, t);
    else bandedFdHessian(dmoc, BoatDmoc::kBlock, x, 0.7, lambda, t);
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(dmoc.numVariables(), dmoc.numVariables());
    for (const auto& e : t) H(e.row(), e.col()) += e.value();
    return Eigen::MatrixXd(H.selfadjointView<Eigen::Lower>());
  };
  const Eigen::MatrixXd A = dense(true), B = dense(false);
  const double rel = (A - B).lpNorm<Eigen::Infinity>() / B.lpNorm<Eigen::Infinity>();
  MESSAGE("segment Hessian vs differences of the whole Jacobian: worst entry " << rel << " of the largest "
                                                                               << B.lpNorm<Eigen::Infinity>());
  CHECK(rel < 1e-5);
}

TEST_CASE("ExactHessianInStillWaterMatchesCentralDifferencesOfTheExactGradient") {
  // Still water with wind and current (the boat_dock sea): the Hessian of the Lagrangian, hull wrench included
  // (boat_dmoc_hull_jet.h), against central differences of the exact gradient s grad f + J^T lambda at random iterates
  // (heave +-0.1 m, attitudes +-0.1 rad: the waterline across side and end patches, wind on the dry ones; and one with
  // the hull lifted 0.29 m and nearly level, its thrusters inside the immersion ramp) with random multipliers; and the pattern Ipopt
  // takes once is the same at every iterate.
  const BoatDmoc dmoc(windySpec(2));
  std::mt19937 rng(5);
  double worst = 0.0;
  for (int trial = 0; trial < 3; ++trial) {
    Eigen::VectorXd x = randomIterate(dmoc, rng, trial < 2 ? 0.1 : 0.02);
    for (int k = 0; k <= 2 && trial == 2; ++k) x[14 * k + 5] += 0.29, x.segment<3>(14 * k) *= 0.05;
    const Eigen::VectorXd lambda = randomMultipliers(dmoc, rng);
    bool samePattern = false;
    worst = std::max(worst, test::nlpHessianFdError(dmoc, x, 0.7, lambda, &samePattern, 1e-6));
    CHECK(samePattern);
  }
  MESSAGE("exact Hessian vs central differences of the exact gradient: worst relative entry error " << worst);
  CHECK(worst < 1e-6);
}

TEST_CASE("ExactHessianUnderWavesMatchesCentralDifferencesOfTheExactGradient") {
  // Waves (amplitude 0.15 m), wind and current: the momentum rows' Hessian and their Jacobian's pose columns come from
  // the same jets of the boat's wrench routines (clipping against the moving grid, orbital velocity, immersion under
  // the wave); the Hessian against fourth-order central differences of that exact gradient (step 3e-6; the two-point
  // difference's own error is 2.4e-5 at 1e-6, shrinking as the step squared: slivers of the grid's clipping make
  // the third derivatives large), at a random iterate with random multipliers, in the columns of node 1 (its pose,
  // twist and thrust: every term of the momentum rows; the sanitizers' build checks its first column).
  BoatDmocSpec s = windySpec(2);
  s.water.amplitude = 0.15;
  const BoatDmoc dmoc(s);
  std::mt19937 rng(5);
  const Eigen::VectorXd x = randomIterate(dmoc, rng, 0.1);
  const Eigen::VectorXd lambda = randomMultipliers(dmoc, rng);
  bool samePattern = false;
  const int last = std::getenv("VARSIM_SANITIZED") ? 15 : 28;
  const double worst = test::nlpHessianFdError(dmoc, x, 0.7, lambda, &samePattern, 3e-6, true, 14, last);
  MESSAGE("exact Hessian under waves vs central differences of the exact gradient: worst relative entry error "
          << worst);
  CHECK(samePattern);
  CHECK(worst < 1e-6);
  // The Jacobian's pose columns from the jets against central differences of the rows.
  CHECK(test::nlpFdErrors(dmoc, x).jacobian < 1e-6);
}
