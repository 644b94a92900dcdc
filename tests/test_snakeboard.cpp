// tests/test_snakeboard.cpp — the explicit snakeboard update of seed 000 Sec. 5.2.2 (ERRATA connection and
// momentum): the reference gait file reproduced (engine and scene), constraints on every segment, the
// momentum conserved on a circular arc while phi is held, the gait's direction of travel against the
// paper's averaged momentum equation, convergence of the per-cycle displacement against an independent
// multiplier/RK4 reference, and the `snakeboard` scene (determinism, save/load, inputs, bad parameters, the
// `phi` trim under the gait, solid arena walls, and the energy balance against inputWork()).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "engine/integrators/nonholonomic.h"
#include "engine/sim/errors.h"
#include "tests/constrained_rk4.h"
#include "tests/csv_table.h"
#include "tests/scene_harness.h"
#include "scenes/vehicles/vehicle_scenery.h"
#include "tests/solid_run.h"

using namespace varsim;

namespace {

constexpr double kPi = 3.14159265358979323846;

struct BoardRow {
  double t, x, y, theta, psi, phi, p;
};

// The README scheme: exact gait samples r_k, p_0 from the start.
std::vector<BoardRow> runGait(const SnakeboardParams& p, const SnakeboardGait& gait, double alpha, double h, long steps,
                              double* maxConstraint = nullptr) {
  const Eigen::Vector2d r0 = gait.shape(0.0);
  SnakeboardState s = snakeboardStart(se2::Pose2{}, r0[0], r0[1], 0.0);
  std::vector<BoardRow> rows;
  double cmax = 0;
  for (long k = 0; k <= steps; ++k) {
    rows.push_back({double(k) * h, s.g.x, s.g.y, s.g.theta, s.psi, s.phi, s.p});
    if (k == steps) break;
    const Eigen::Vector2d r1 = gait.shape(gait.omega * (double(k + 1) * h));
    snakeboardStep(p, alpha, h, s, r1[0], r1[1]);
    // The segment twist against both wheel constraints at phi_{k+alpha} (body frame).
    const double phiA = s.phi - (1.0 - alpha) * h * s.uPhi, c = std::cos(phiA), sn = std::sin(phiA);
    cmax = std::max({cmax, std::abs(-p.l * c * s.xi[0] - sn * s.xi[1] + c * s.xi[2]),
                     std::abs(p.l * c * s.xi[0] + sn * s.xi[1] + c * s.xi[2])});
  }
  if (maxConstraint) *maxConstraint = cmax;
  return rows;
}

// Independent reference: q = (theta, x, y), psi(t) and phi(t) prescribed by the gait,
// m l^2 theta'' = -I psi'' + (W^T lambda)_theta, two wheel constraints.
test::ConstrainedLagrangian gaitLagrangian(const SnakeboardParams& p, const SnakeboardGait& g) {
  test::ConstrainedLagrangian L;
  L.mass = [p](double, const Eigen::VectorXd&) {
    return Eigen::MatrixXd(Eigen::Vector3d(p.m * p.l * p.l, p.m, p.m).asDiagonal());
  };
  L.force = [p, g](double t, const Eigen::VectorXd&, const Eigen::VectorXd&) {
    const double psiDdot = -g.psiAmplitude * g.omega * g.omega * std::sin(g.omega * t);
    return Eigen::VectorXd(Eigen::Vector3d(-p.I * psiDdot, 0, 0));
  };
  L.constraint = [p, g](double t, const Eigen::VectorXd& q) {
    const double phi = g.shape(g.omega * t)[1], th = q[0];
    Eigen::MatrixXd W(2, 3);
    W << -p.l * std::cos(phi), -std::sin(th + phi), std::cos(th + phi),  //
        p.l * std::cos(phi), -std::sin(th - phi), std::cos(th - phi);
    return W;
  };
  L.constraintRate = [p, g](double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
    const double phi = g.shape(g.omega * t)[1], dphi = g.shapeRate(g.omega * t)[1], th = q[0], w = qd[0];
    const double a = th + phi, b = th - phi;
    return Eigen::VectorXd(Eigen::Vector2d(
        p.l * std::sin(phi) * dphi * w - (w + dphi) * (std::cos(a) * qd[1] + std::sin(a) * qd[2]),
        -p.l * std::sin(phi) * dphi * w - (w - dphi) * (std::cos(b) * qd[1] + std::sin(b) * qd[2])));
  };
  return L;
}

// Reference from rest (p(0) = 0 at phi(0) = 0 means zero board velocity); rows (theta, x, y, rates).
std::vector<Eigen::VectorXd> runGaitReference(const SnakeboardParams& p, const SnakeboardGait& g, double T, double hRef,
                                              long every) {
  return gaitLagrangian(p, g).run(Eigen::VectorXd::Zero(3), Eigen::VectorXd::Zero(3), hRef, std::lround(T / hRef), every);
}

double momentumOf(const SnakeboardParams& p, const SnakeboardGait& g, double t, const Eigen::VectorXd& row) {
  const double th = row[0], c = std::cos(th), s = std::sin(th);
  const Vector3d xi(row[3], c * row[4] + s * row[5], -s * row[4] + c * row[5]);
  return snakeboard::momentumOfVelocity(p, g.shape(g.omega * t)[1], g.shapeRate(g.omega * t)[0], xi);
}

}  // namespace

TEST_CASE("SnakeboardReferenceFileReproduced") {
  const auto table = test::readCsv(VARSIM_TEST_DATA "/reference/snakeboard_gait.csv");
  REQUIRE(table.rows.size() == 1001);
  const SnakeboardParams p;
  const SnakeboardGait gait;  // A_psi = 1, A_phi = 0.5, w = pi, delta = 0
  double cmax = 0;
  const auto rows = runGait(p, gait, 0.5, 0.01, 1000, &cmax);
  double dPose = 0, dShape = 0, dP = 0, gtPos = 0, gtHeading = 0, gtP = 0;
  for (size_t k = 0; k < rows.size(); ++k) {
    const auto& r = rows[k];
    dPose = std::max({dPose, std::abs(r.x - table.at(k, "x")), std::abs(r.y - table.at(k, "y")),
                      std::abs(r.theta - table.at(k, "theta"))});
    dShape = std::max({dShape, std::abs(r.psi - table.at(k, "psi")), std::abs(r.phi - table.at(k, "phi"))});
    dP = std::max(dP, std::abs(r.p - table.at(k, "p")));
    gtPos = std::max(gtPos, std::hypot(r.x - table.at(k, "gt_x"), r.y - table.at(k, "gt_y")));
    gtHeading = std::max(gtHeading, std::abs(r.theta - table.at(k, "gt_theta")));
    gtP = std::max(gtP, std::abs(r.p - table.at(k, "gt_p")));
  }
  std::printf("snakeboard reference: |pose diff| %.3g, |shape diff| %.3g, |p diff| %.3g; vs gt %.3g m, %.3g rad, p %.3g; "
              "constraints %.2g m/s\n",
              dPose, dShape, dP, gtPos, gtHeading, gtP, cmax);
  CHECK(dPose <= 1e-12);
  CHECK(dShape <= 1e-15);
  CHECK(dP <= 1e-12);
  CHECK(gtPos == doctest::Approx(4.2e-4).epsilon(0.05));
  CHECK(gtHeading == doctest::Approx(1.7e-4).epsilon(0.05));
  CHECK(gtP == doctest::Approx(7.9e-4).epsilon(0.05));
  CHECK(cmax <= 1e-15);  // the segment twist lies in the distribution at phi_{k+1/2}
  // Momentum at the ends of cycles 1..5 (README): a fixed gain per cycle.
  const double expected[] = {1.9127, 3.8254, 5.7382, 7.6509, 9.5636};
  for (int c = 1; c <= 5; ++c) CHECK(rows[size_t(200 * c)].p == doctest::Approx(expected[c - 1]).epsilon(5e-5 / expected[c - 1]));
}

TEST_CASE("SnakeboardSceneReproducesReferenceFile") {
  const auto table = test::readCsv(VARSIM_TEST_DATA "/reference/snakeboard_gait.csv");
  // The paper's pure gait: no cruise limit, no steering (both change the rotor amplitude and the trim).
  auto scene = test::makeScene("snakeboard", {{"dt", "0.01"}, {"gait_cruise_speed", "0"}, {"gait_steer", "false"}});
  const auto rows = test::runScene(*scene, 1000, [](long) { return InputVector{0, 0}; });
  double d = 0;
  for (const char* col : {"x", "y", "theta", "psi", "phi"}) {
    const int c = test::columnOf(*scene, col);
    for (size_t k = 0; k < rows.size(); ++k) d = std::max(d, std::abs(rows[k][size_t(c)] - table.at(k, col)));
  }
  const int cmu = test::columnOf(*scene, "mu");
  for (size_t k = 0; k < rows.size(); ++k) d = std::max(d, std::abs(rows[k][size_t(cmu)] - table.at(k, "p")));
  std::printf("snakeboard scene (dt = 0.01, defaults) vs reference file: %.3g\n", d);
  CHECK(d <= 1e-12);
  const auto cols = scene->columns();
  const std::vector<std::string> head = {"t", "x", "y", "theta", "energy", "psi", "phi", "mu"};
  CHECK(std::vector<std::string>(cols.begin(), cols.begin() + 8) == head);
}

TEST_CASE("SnakeboardMultiplierReferenceMatchesFileGroundTruth") {
  const auto table = test::readCsv(VARSIM_TEST_DATA "/reference/snakeboard_gait.csv");
  const SnakeboardParams p;
  const SnakeboardGait g;
  const auto ref = runGaitReference(p, g, 10.0, 0.01 / 8, 8);
  double d = 0, dp = 0;
  for (size_t k = 0; k < table.rows.size(); ++k) {
    d = std::max({d, std::abs(ref[k][1] - table.at(k, "gt_x")), std::abs(ref[k][2] - table.at(k, "gt_y")),
                  std::abs(ref[k][0] - table.at(k, "gt_theta"))});
    dp = std::max(dp, std::abs(momentumOf(p, g, 0.01 * double(k), ref[k]) - table.at(k, "gt_p")));
  }
  std::printf("snakeboard multiplier RK4 (h = 1.25e-3) vs file gt: pose %.3g, p %.3g\n", d, dp);
  CHECK(d <= 1e-9);
  CHECK(dp <= 1e-9);
}

TEST_CASE("SnakeboardMomentumConservedOnCircularArcWhilePhiHeld") {
  // phi held at 0.3 while the rider twists (psi oscillates): p is conserved exactly by the scheme and
  // the board stays on the circle about the body point (0, -l cot phi), whatever its speed does.
  const SnakeboardParams p;
  const double phi = 0.3, h = 0.01, R = p.l / std::tan(phi);
  SnakeboardState s = snakeboardStart(se2::Pose2{0.4, 1.0, 2.0}, 0.0, phi, 0.8);
  const Eigen::Vector2d centre = s.g.act(Eigen::Vector2d(0.0, -R));
  double dp = 0, dr = 0, vmin = 1e9, vmax = 0;
  for (long k = 0; k < 3000; ++k) {
    snakeboardStep(p, 0.5, h, s, 0.8 * std::sin(2.0 * double(k + 1) * h), phi);
    dp = std::max(dp, std::abs(s.p - 0.8));
    dr = std::max(dr, std::abs((Eigen::Vector2d(s.g.x, s.g.y) - centre).norm() - R));
    vmin = std::min(vmin, -s.xi[1]), vmax = std::max(vmax, -s.xi[1]);
  }
  std::printf("snakeboard arc R = %.4g m: |p - p0| %.3g, |r - R| %.3g m, speed %.3f..%.3f m/s\n", R, dp, dr, vmin, vmax);
  // Exact in exact arithmetic; in floating point ~eps/2 relative per step accumulates (3000 steps).
  CHECK(dp <= 1e-12 * 0.8);
  CHECK(dr <= 1e-12 * R);
  CHECK(vmax - vmin > 0.1);  // the twist does change the speed: the circle is not a constant-speed artefact
  // The scene with the gait off, phi = 0.3 and the rotor stick moving: mu constant to round-off.
  auto scene = test::makeScene("snakeboard", {{"gait", "false"}, {"phi", "0.3"}, {"speed", "1.0"}});
  const auto rows = test::runScene(*scene, 600, [](long k) { return InputVector{std::sin(0.05 * double(k)), 0.0}; });
  const int cmu = test::columnOf(*scene, "mu"), cphi = test::columnOf(*scene, "phi");
  double sceneDp = 0;
  for (const auto& r : rows) {
    sceneDp = std::max(sceneDp, std::abs(r[size_t(cmu)] - rows[0][size_t(cmu)]));
    CHECK(r[size_t(cphi)] == 0.3);
  }
  std::printf("snakeboard scene, phi held: |mu - mu0| %.3g\n", sceneDp);
  CHECK(sceneDp <= 1e-12 * std::abs(rows[0][size_t(cmu)]));
}

TEST_CASE("SnakeboardGaitDirectionFollowsCosDelta") {
  // Averaging p' = 2I cos^2 phi phi' psi' - tan phi phi' p over a cycle from rest gives a gain ~ cos(delta):
  // delta = 0 speeds the board up along body -x (zeta > 0), delta = pi along +x, delta = pi/2 ~ nothing.
  const SnakeboardParams p;
  const double h = 0.01;
  std::vector<double> gains;
  for (double delta : {0.0, kPi / 3, kPi / 2, 2 * kPi / 3, kPi}) {
    SnakeboardGait g;
    g.delta = delta;
    const auto rows = runGait(p, g, 0.5, h, 200);
    // First-order prediction: the integral of 2 I cos^2 phi phi' psi' over the cycle (p ~ 0 early on).
    double predicted = 0;
    for (int i = 0; i < 20000; ++i) {
      const double t = (i + 0.5) * 2.0 / 20000, c = std::cos(g.shape(g.omega * t)[1]);
      const Eigen::Vector2d rate = g.shapeRate(g.omega * t);
      predicted += 2.0 * p.I * c * c * rate[1] * rate[0] * (2.0 / 20000);
    }
    gains.push_back(rows.back().p);
    std::printf("snakeboard gait delta = %.3f: p after one cycle %+.4f (first-order prediction %+.4f)\n", delta,
                rows.back().p, predicted);
    if (std::abs(std::cos(delta)) > 0.1) {
      CHECK(rows.back().p * std::cos(delta) > 0.0);
      CHECK(rows.back().p == doctest::Approx(predicted).epsilon(0.15));
    }
  }
  CHECK(std::abs(gains[2]) < 0.05 * gains[0]);
  // Direction of travel over five cycles for delta = 0: along body -x, i.e. zeta > 0 on the last segment.
  SnakeboardGait g;
  const Eigen::Vector2d r0 = g.shape(0.0);
  SnakeboardState s = snakeboardStart(se2::Pose2{}, r0[0], r0[1], 0.0);
  for (long k = 0; k < 1000; ++k) {
    const Eigen::Vector2d r1 = g.shape(g.omega * double(k + 1) * 0.01);
    snakeboardStep(p, 0.5, 0.01, s, r1[0], r1[1]);
  }
  CHECK(s.zeta > 0.0);
  CHECK(s.xi[1] < 0.0);
  CHECK(s.g.x < -10.0);  // README: final x = -11.73 m
}

TEST_CASE("SnakeboardDisplacementPerCycleConverges") {
  // Displacement and momentum after one gait cycle (Tc = 2 s) against the multiplier/RK4 reference.
  const SnakeboardParams p;
  const SnakeboardGait g;
  const auto ref = runGaitReference(p, g, 2.0, 1e-3, 2000).back();
  const double pRef = momentumOf(p, g, 2.0, ref);
  const std::vector<double> hs = {2.0 / 25, 2.0 / 50, 2.0 / 100, 2.0 / 200};
  for (double alpha : {0.5, 0.0}) {
    std::vector<double> errs, perrs;
    for (double h : hs) {
      const auto last = runGait(p, g, alpha, h, std::lround(2.0 / h)).back();
      errs.push_back(std::hypot(last.x - ref[1], last.y - ref[2]));
      perrs.push_back(std::abs(last.p - pRef));
    }
    const double slope = test::logLogSlope(hs, errs), pslope = test::logLogSlope(hs, perrs);
    std::printf("snakeboard alpha = %.1f, one cycle (displacement %.5f m): error %.3g %.3g %.3g %.3g m -> order %.3f; "
                "p order %.3f\n",
                alpha, std::hypot(ref[1], ref[2]), errs[0], errs[1], errs[2], errs[3], slope, pslope);
    if (alpha == 0.5) {
      CHECK(slope == doctest::Approx(2.0).epsilon(0.05));
      CHECK(pslope == doctest::Approx(2.0).epsilon(0.05));
    } else {
      CHECK(slope == doctest::Approx(1.0).epsilon(0.15));
    }
  }
}

TEST_CASE("SnakeboardSceneDeterministicSaveLoadAndLiveGait") {
  auto inputs = [](long k) { return InputVector{std::sin(0.03 * double(k)), std::cos(0.05 * double(k))}; };
  auto a = test::makeScene("snakeboard", {{"gait", "false"}}), b = test::makeScene("snakeboard", {{"gait", "false"}});
  const auto ra = test::runScene(*a, 600, inputs);
  CHECK(ra == test::runScene(*b, 600, inputs));
  auto c = test::makeScene("snakeboard");
  test::runScene(*c, 250, inputs);
  const auto saved = c->saveState();
  const auto first = test::runScene(*c, 200, inputs);
  c->loadState(saved);
  CHECK(first == test::runScene(*c, 200, inputs));
  CHECK_THROWS_AS(c->loadState({0.0}), BadInput);

  // Live frequency change: the gait phase stays continuous, so psi moves by at most A w h per step.
  auto d = test::makeScene("snakeboard");
  test::runScene(*d, 137, [](long) { return InputVector{0, 0}; });
  ParamSet p = d->params();
  p.setFromString("gait_frequency", "1.5", "test");
  d->applyLive(p);
  const int cpsi = test::columnOf(*d, "psi");
  const auto rows = test::runScene(*d, 240, [](long) { return InputVector{0, 0}; });
  double maxJump = 0;
  for (size_t k = 1; k < rows.size(); ++k) maxJump = std::max(maxJump, std::abs(rows[k][size_t(cpsi)] - rows[k - 1][size_t(cpsi)]));
  CHECK(maxJump <= 1.0 * 2 * kPi * 1.5 * d->dt() * 1.0001);
  // Gait switched off: the envelope ramps down over gait_ramp (1 s) and psi goes to the stick target 0.
  p.setFromString("gait", "false", "test");
  d->applyLive(p);
  const auto off = test::runScene(*d, 300, [](long) { return InputVector{0, 0}; });
  const int cenv = test::columnOf(*d, "gait_envelope");
  CHECK(off[30][size_t(cenv)] == doctest::Approx(0.5).epsilon(0.02));
  CHECK(off.back()[size_t(cenv)] == 0.0);
  CHECK(std::abs(off.back()[size_t(cpsi)]) < 1e-6);
}

TEST_CASE("SnakeboardSceneInputsAndBadParameters") {
  const double nan = std::nan("");
  auto ref = test::makeScene("snakeboard", {{"gait", "false"}}), bad = test::makeScene("snakeboard", {{"gait", "false"}});
  const auto r1 = test::runScene(*ref, 120, [](long k) { return k < 60 ? InputVector{1.0, -1.0} : InputVector{0.0, 0.0}; });
  const auto r2 = test::runScene(*bad, 120, [nan](long k) { return k < 60 ? InputVector{4.0, -9.0} : InputVector{nan, nan}; });
  CHECK(r1 == r2);
  auto lost = test::makeScene("snakeboard", {{"gait", "false"}});
  CHECK(test::runScene(*lost, 60, [](long) { return InputVector{}; }).back() ==
        test::runScene(*test::makeScene("snakeboard", {{"gait", "false"}}), 60, [](long) { return InputVector{0, 0}; }).back());
  // Rotor stick held: psi follows psi_max * rotor with the time constant shape_response (0.15 s).
  auto stick = test::makeScene("snakeboard", {{"gait", "false"}, {"dt", "0.01"}});
  const auto rows = test::runScene(*stick, 15, [](long) { return InputVector{1.0, 0.0}; });
  CHECK(rows.back()[size_t(test::columnOf(*stick, "psi"))] == doctest::Approx(1.0 - std::exp(-1.0)).epsilon(1e-12));

  CHECK_THROWS_WITH_AS(test::makeScene("snakeboard", {{"I", "0.7"}}), doctest::Contains("'I'"), BadInput);
  CHECK_THROWS_WITH_AS(test::makeScene("snakeboard", {{"phi", "1.5"}}), doctest::Contains("'phi'"), BadInput);
  CHECK_THROWS_WITH_AS(test::makeScene("snakeboard", {{"gait_frequency", "0"}}), doctest::Contains("'gait_frequency'"),
                       BadInput);
  CHECK_THROWS_AS(validateSnakeboardParams(SnakeboardParams{4.0, 0.2, -1.0, 0.4}), BadInput);
  CHECK(test::exitCodeOf("run snakeboard --steps 10") == 0);
  CHECK(test::exitCodeOf("run snakeboard --steps 10 --set I=1") == 2);
  CHECK(test::exitCodeOf("run snakeboard --steps 10 --set l=nan") == 2);
  // A steering jump through pi/2 within a step (phi_k = 1.3, phi_{k+1/2} = -1.3: e1(phi_k)^T D e1(phi_{k+1/2}) < 0)
  // is refused as a divergence with the state unchanged, not integrated through.
  SnakeboardState s = snakeboardStart(se2::Pose2{}, 0.0, 1.3, 0.5);
  const SnakeboardState before = s;
  CHECK_THROWS_AS(snakeboardStep(SnakeboardParams{}, 0.5, 0.01, s, 0.0, -3.9), SimulationDiverged);
  CHECK(s.p == before.p);
  CHECK(s.phi == before.phi);
}

TEST_CASE("SnakeboardPhiIsTheGaitSteeringTrim") {
  // With the gait on, phi = phi_0 + A_phi sin(w t + delta): over whole cycles phi averages phi_0, psi is
  // unchanged, and the path bends (a different heading after 3 cycles than with phi_0 = 0).
  auto straight = test::makeScene("snakeboard", {{"world", "open"}, {"gait_cruise_speed", "0"}});
  auto trimmed = test::makeScene("snakeboard", {{"world", "open"}, {"phi", "0.3"}, {"gait_cruise_speed", "0"}});
  const auto rs = test::runScene(*straight, 360, [](long) { return InputVector{0, 0}; });
  const auto rt = test::runScene(*trimmed, 360, [](long) { return InputVector{0, 0}; });
  const int cphi = test::columnOf(*trimmed, "phi"), cpsi = test::columnOf(*trimmed, "psi"), cth = test::columnOf(*trimmed, "theta");
  double mean = 0, maxDev = 0;
  for (size_t k = 0; k < 360; ++k) {
    mean += rt[k][size_t(cphi)] / 360.0;
    maxDev = std::max(maxDev, std::abs(rt[k][size_t(cphi)] - rs[k][size_t(cphi)] - 0.3));
    CHECK(rt[k][size_t(cpsi)] == rs[k][size_t(cpsi)]);
  }
  std::printf("snakeboard phi trim 0.3 under the gait: mean phi %.15f, |phi - phi(trim 0) - 0.3| <= %.3g, heading after 3 "
              "cycles %.4f vs %.4f rad\n",
              mean, maxDev, rt.back()[size_t(cth)], rs.back()[size_t(cth)]);
  CHECK(mean == doctest::Approx(0.3).epsilon(1e-12));
  CHECK(maxDev <= 1e-15);
  CHECK(std::abs(rt.back()[size_t(cth)] - rs.back()[size_t(cth)]) > 0.1);
  // The trim plus the gait's amplitude must stay short of pi/2 (kMaxSteer): exit 2 naming both keys.
  CHECK_THROWS_WITH_AS(test::makeScene("snakeboard", {{"phi", "1.0"}}), doctest::Contains("'gait_phi_amplitude'"), BadInput);
  CHECK_NOTHROW(test::makeScene("snakeboard", {{"phi", "1.0"}, {"gait_phi_amplitude", "0.4"}}));
  CHECK(test::exitCodeOf("run snakeboard --steps 10 --set phi=1.2") == 2);
  CHECK(test::exitCodeOf("run snakeboard --steps 10 --set phi=0.9") == 0);
}

TEST_CASE("SnakeboardStopsAtArenaWallsWithoutOverlapOrEnergyGain") {
  // Rider still (gait off, sticks centred), rolling straight along body -x into the wall at x = -50 l.
  for (double speed : {0.5, 2.0, 8.0, 30.0})
    for (double e : {0.0, 0.3, 1.0}) {
      CAPTURE(speed);
      CAPTURE(e);
      auto scene = test::makeScene("snakeboard", {{"gait", "false"}, {"speed", std::to_string(speed)},
                                                  {"restitution", std::to_string(e)}});
      const long steps = long(std::ceil(25.0 / speed * 60.0)) + 120;
      const test::SolidRun r = test::runSolid(*scene, steps, [](long) { return InputVector{0, 0}; });
      REQUIRE(r.finite);
      CHECK(r.impacts >= 1);
      CHECK(test::hudSays(r, "wall"));
      CHECK(test::hudFits(r));
      CHECK(r.minClearance >= 0.0);
      // Independently of the separating-axis code: board outline (1.45 l x 0.45 l half extents) vs the arena.
      CHECK(test::worstIndependentOverlap(r, {-0.58, 0.58, -0.18, 0.18}, arena(0.4).obstacles) <= 1e-3);
      CHECK(r.maxEnergyStepRise <= 1e-12 * r.e0);
      CHECK(r.eEnd <= r.e0 * (e * e + 1e-12));
      if (speed == 8.0)
        std::printf("snakeboard into the wall at %.1f m/s, e = %.1f: %ld impact(s), min clearance %.3g m, E %.4g -> %.4g J\n",
                    speed, e, r.impacts, r.minClearance, r.e0, r.eEnd);
    }
  // Riding the gait for 60 s in the arena without steering or a cruise limit (it meets the wall after ~14 s): never
  // inside, and the energy never rises above what the gait put in.
  auto gait = test::makeScene("snakeboard", {{"gait_steer", "false"}, {"gait_cruise_speed", "0"}});
  const test::SolidRun g = test::runSolid(*gait, 3600, [](long) { return InputVector{0, 0}; });
  std::printf("snakeboard gait in the arena, 60 s: %ld impacts, min clearance %.3g m, E - E0 - W in [%.3g, %.3g] J, "
              "E up to %.3g J\n",
              g.impacts, g.minClearance, g.minEnergyRise, g.maxEnergyRise, g.eMax);
  REQUIRE(g.finite);
  CHECK(g.impacts >= 1);
  CHECK(g.minClearance >= 0.0);
  CHECK(test::worstIndependentOverlap(g, {-0.58, 0.58, -0.18, 0.18}, arena(0.4).obstacles) <= 1e-3);
  CHECK(g.maxEnergyRise <= 1e-12 * g.eMax);  // measured 1.6e-13 J: impacts only take energy, the gait's books close
}

TEST_CASE("SnakeboardDefaultGaitRidesAMinuteClearOfWallsAndCrates") {
  // The default ride (gait, arena): it pumps to the cruise speed, glides, and steers clear of walls and crates. From
  // the scene's own columns: no impact, the least clearance, the speed held near cruise (1.5 m/s), and it roams.
  auto scene = test::makeScene("snakeboard");
  const std::vector<std::string> cols = scene->columns();
  const auto col = [&](const char* name) { return size_t(std::find(cols.begin(), cols.end(), name) - cols.begin()); };
  double minClear = 1e300, maxSpeed = 0.0, xMin = 0.0, xMax = 0.0, yMin = 0.0, yMax = 0.0;
  std::vector<double> row;
  for (int k = 0; k < 3600; ++k) {
    scene->step(scene->dt(), {0.0, 0.0});
    scene->diagnostics(row);
    minClear = std::min(minClear, row[col("clearance")]);
    if (k >= 1200) maxSpeed = std::max(maxSpeed, row[col("speed")]);
    xMin = std::min(xMin, row[col("x")]), xMax = std::max(xMax, row[col("x")]);
    yMin = std::min(yMin, row[col("y")]), yMax = std::max(yMax, row[col("y")]);
  }
  std::printf("snakeboard default 60 s: impacts %g, least clearance %.3g m, speed %.3g m/s at 60 s (max %.3g after 20 s), "
              "x [%.3g, %.3g], y [%.3g, %.3g] m\n",
              row[col("impacts")], minClear, row[col("speed")], maxSpeed, xMin, xMax, yMin, yMax);
  CHECK(row[col("impacts")] == 0.0);
  CHECK(minClear > 1.0);                            // measured 1.92 m
  CHECK(maxSpeed < 2.2);                            // glides near the cruise speed (without the limit: 18 m/s)
  CHECK(row[col("speed")] > 1.0);
  CHECK(std::max(xMax - xMin, yMax - yMin) > 10.0);  // it rides about the arena, not on the spot
}

TEST_CASE("SnakeboardEnergyBalanceWithInputWork") {
  // Gait from rest on open ground: E(t) - E(0) - inputWork(t) closes to round-off at every h (alpha = 1/2: the node
  // energy of the board the step leaves equals the one it reaches along the linear shape, see shapeWork()).
  double err[2] = {0, 0}, scale = 0;
  for (int i = 0; i < 2; ++i) {
    const double h = 0.01 / (1 << i);
    auto scene = test::makeScene("snakeboard", {{"world", "open"}, {"dt", std::to_string(h)}});
    const test::SolidRun r = test::runSolid(*scene, long(std::lround(20.0 / h)), [](long) { return InputVector{0, 0}; });
    err[i] = std::max(std::abs(r.maxEnergyRise), std::abs(r.minEnergyRise));
    scale = std::max(scale, r.eMax);
  }
  // Sticks with the gait off (shape lag, envelope ramps) on the default step.
  auto sticks = test::makeScene("snakeboard", {{"world", "open"}, {"gait", "false"}});
  const test::SolidRun s = test::runSolid(*sticks, 1800, [](long k) {
    return InputVector{std::sin(0.05 * double(k)), 0.6 * std::sin(0.05 * double(k) + 0.3)};
  });
  const double errS = std::max(std::abs(s.maxEnergyRise), std::abs(s.minEnergyRise));
  std::printf("snakeboard energy balance over 20 s of gait: |E - E0 - W| %.3g J (h = 0.01), %.3g J (h = 0.005), E up to "
              "%.3g J; sticks %.3g J (E up to %.3g J)\n",
              err[0], err[1], scale, errS, s.eMax);
  CHECK(err[0] <= 1e-12 * scale);  // measured 9e-14 J
  CHECK(err[1] <= 1e-12 * scale);  // measured 1.5e-13 J
  CHECK(errS <= 1e-12 * s.eMax);   // measured 2.2e-13 J
  // inputWork is part of the saved state.
  auto c = test::makeScene("snakeboard");
  test::runScene(*c, 200, [](long) { return InputVector{0, 0}; });
  const auto saved = c->saveState();
  const double w = c->inputWork();
  test::runScene(*c, 100, [](long) { return InputVector{0, 0}; });
  CHECK(c->inputWork() != w);
  c->loadState(saved);
  CHECK(c->inputWork() == w);
}

TEST_CASE("SnakeboardLateQuadraturePointIsAntiDampedUnderAPeriodicShape") {
  // Why alpha > 1/2 is refused with the gait on (snakeboard_scene.cpp): driven periodically through the sticks (the
  // gait's in-phase pattern, rotor and steering), the largest gain of the scheme's energy over the booked shape work
  // grows with alpha > 1/2, stays near round-off for the symmetric alpha = 1/2 and is nil for alpha = 0.
  // 20 s of a 0.5 Hz stick gait at dt = 1/60 s in the open world.
  CHECK_THROWS_WITH_AS(test::makeScene("snakeboard", {{"alpha", "0.6"}}), doctest::Contains("'alpha'"), BadInput);
  const auto sticks = [](long k) {
    const double wt = 2.0 * kPi * 0.5 * double(k) / 60.0;
    return InputVector{std::sin(wt), -0.8 * std::sin(wt)};
  };
  double gain[3];
  const char* alphas[3] = {"0", "0.5", "1"};
  for (int i = 0; i < 3; ++i) {
    auto scene = test::makeScene("snakeboard", {{"gait", "false"}, {"alpha", alphas[i]}, {"world", "open"}});
    const size_t e = size_t(test::columnOf(*scene, "energy"));
    std::vector<double> row;
    scene->diagnostics(row);
    const double e0 = row[e], w0 = scene->inputWork();
    gain[i] = 0.0;
    for (long k = 0; k < 1200; ++k) {
      scene->step(scene->dt(), sticks(k));
      scene->diagnostics(row);
      gain[i] = std::max(gain[i], row[e] - e0 - (scene->inputWork() - w0));
    }
    std::printf("snakeboard alpha = %s, 0.5 Hz stick gait: largest E - E0 - W = %+.4g J in 20 s (E = %.3g J)\n",
                alphas[i], gain[i], row[e]);
  }
  CHECK(gain[0] <= 1e-3);
  CHECK(gain[1] < 0.05 * gain[2]);
  CHECK(gain[2] > 0.1);
}
