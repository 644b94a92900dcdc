// tests/test_car.cpp — the explicit car update of seed 000 Sec. 5.2.1: the reference file reproduced
// (same scheme, same start), constraints from consecutive poses, the exact circle at zero torque,
// convergence order against an independent multiplier/RK4 reference, the alpha = 0/1 energy drift of
// ERRATA, the driver layer (override rule, steering limit, return to centre, brake-to-reverse) and the `car`
// scene (determinism, save/load, sanitized inputs, bad parameters, headless exit codes, solid obstacles with
// impacts that never overlap nor gain energy, and the energy balance against inputWork()).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "engine/integrators/nonholonomic.h"
#include "engine/sim/errors.h"
#include "scenes/vehicles/vehicle_scenery.h"
#include "tests/constrained_rk4.h"
#include "tests/csv_table.h"
#include "tests/scene_harness.h"
#include "tests/solid_run.h"

using namespace varsim;

namespace {

// Reference inputs (reference/README.md): f(t) = 0.2 sin(0.7 t), u_sigma(t) = 0.3 cos(0.5 t), so
// sigma(t) = 0.6 sin(0.5 t) exactly.
double refTorque(double t) { return 0.2 * std::sin(0.7 * t); }
double refSteerRate(double t) { return 0.3 * std::cos(0.5 * t); }
double refSigma(double t) { return 0.6 * std::sin(0.5 * t); }

struct CarRow {
  double t, x, y, theta, psi, sigma, segmentEnergy, nodeEnergy;
};

// The discrete scheme with the README's input sampling: u^sigma at the segment midpoint, f_{k+alpha} the
// alpha-weighted mean of node samples. Row k: node k; segmentEnergy is l of segment k (as in the file).
std::vector<CarRow> runScheme(const CarParams& p, double alpha, double h, long steps, bool torqueOn = true,
                              double psiDot0 = 1.0) {
  CarState s = carStart(p, se2::Pose2{}, 0.0, 0.0, psiDot0);
  std::vector<CarRow> rows;
  for (long k = 0; k <= steps; ++k) {
    const double t = double(k) * h, t1 = double(k + 1) * h;
    CarRow row{t, s.g.x, s.g.y, s.g.theta, s.psi, s.sigma, 0.0, p.energyOfMomentum(s.pMinus, s.sigma)};
    const double f = torqueOn ? (1.0 - alpha) * refTorque(t) + alpha * refTorque(t1) : 0.0;
    carStep(p, alpha, h, s, refSteerRate(t + 0.5 * h), f);
    row.segmentEnergy = 0.5 * (p.I0() + p.c() * s.sigmaMid * s.sigmaMid) * s.u * s.u;
    rows.push_back(row);
  }
  return rows;
}

// Independent reference: q = (psi, theta, x, y), M = diag(I, K, m, m), sigma(t) prescribed, three rows
//   -rho psi' + cos th x' + sin th y' = 0,  -sin th x' + cos th y' = 0,  -(rho/l) sigma psi' + th' = 0.
test::ConstrainedLagrangian carLagrangian(const CarParams& p, bool torqueOn) {
  test::ConstrainedLagrangian L;
  L.mass = [p](double, const Eigen::VectorXd&) {
    return Eigen::MatrixXd(Eigen::Vector4d(p.I, p.K, p.m, p.m).asDiagonal());
  };
  L.force = [torqueOn](double t, const Eigen::VectorXd&, const Eigen::VectorXd&) {
    return Eigen::VectorXd(Eigen::Vector4d(torqueOn ? refTorque(t) : 0.0, 0, 0, 0));
  };
  L.constraint = [p](double t, const Eigen::VectorXd& q) {
    const double c = std::cos(q[1]), s = std::sin(q[1]);
    Eigen::MatrixXd W(3, 4);
    W << -p.rho, 0, c, s,  //
        0, 0, -s, c,       //
        -(p.rho / p.l) * refSigma(t), 1, 0, 0;
    return W;
  };
  L.constraintRate = [p](double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
    const double c = std::cos(q[1]), s = std::sin(q[1]), w = qd[1];
    return Eigen::VectorXd(Eigen::Vector3d(-s * w * qd[2] + c * w * qd[3], -c * w * qd[2] - s * w * qd[3],
                                           -(p.rho / p.l) * refSteerRate(t) * qd[0]));
  };
  return L;
}

std::vector<Eigen::VectorXd> runReference(const CarParams& p, double T, double hRef, long every, bool torqueOn) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(4), qd(4);
  qd << 1.0, 0.0, p.rho, 0.0;  // psi' = 1, sigma(0) = 0
  return carLagrangian(p, torqueOn).run(q, qd, hRef, std::lround(T / hRef), every);
}

// Max position error of the scheme at step h against the reference sampled at hRef * every == h.
double maxPositionError(const std::vector<CarRow>& rows, const std::vector<Eigen::VectorXd>& ref) {
  double e = 0.0;
  for (size_t k = 0; k < rows.size() && k < ref.size(); ++k)
    e = std::max(e, std::hypot(rows[k].x - ref[k][2], rows[k].y - ref[k][3]));
  return e;
}

}  // namespace

TEST_CASE("CarReferenceFileReproduced") {
  const auto table = test::readCsv(VARSIM_TEST_DATA "/reference/car_sinusoidal.csv");
  REQUIRE(table.rows.size() == 601);
  const CarParams p;  // defaults are the reference values
  const auto rows = runScheme(p, 0.5, 0.05, 600);
  double dPose = 0, dShape = 0, dEnergy = 0, gtPos = 0, gtHeading = 0;
  for (size_t k = 0; k < rows.size(); ++k) {
    dPose = std::max({dPose, std::abs(rows[k].x - table.at(k, "x")), std::abs(rows[k].y - table.at(k, "y")),
                      std::abs(rows[k].theta - table.at(k, "theta"))});
    dShape = std::max({dShape, std::abs(rows[k].psi - table.at(k, "psi")), std::abs(rows[k].sigma - table.at(k, "sigma"))});
    dEnergy = std::max(dEnergy, std::abs(rows[k].segmentEnergy - table.at(k, "energy")) / table.at(k, "energy"));
    gtPos = std::max(gtPos, std::hypot(rows[k].x - table.at(k, "gt_x"), rows[k].y - table.at(k, "gt_y")));
    gtHeading = std::max(gtHeading, std::abs(rows[k].theta - table.at(k, "gt_theta")));
  }
  std::printf("car reference: max |pose diff| %.3g, |shape diff| %.3g, rel energy diff %.3g; vs gt %.4g m / %.3g rad\n",
              dPose, dShape, dEnergy, gtPos, gtHeading);
  CHECK(dPose <= 1e-12);
  CHECK(dShape <= 1e-12);
  CHECK(dEnergy <= 1e-12);
  // The scheme's discretisation error stated in the README: 2.0e-3 m and 2.2e-4 rad over 30 s.
  CHECK(gtPos == doctest::Approx(2.0e-3).epsilon(0.05));
  CHECK(gtHeading == doctest::Approx(2.2e-4).epsilon(0.05));
}

TEST_CASE("CarMultiplierReferenceMatchesFileGroundTruth") {
  // Validates the independent reference used by the convergence tests against the file's DOP853 gt.
  const auto table = test::readCsv(VARSIM_TEST_DATA "/reference/car_sinusoidal.csv");
  const auto ref = runReference(CarParams{}, 30.0, 0.05 / 40, 40, true);
  double d = 0;
  for (size_t k = 0; k < table.rows.size(); ++k)
    d = std::max({d, std::abs(ref[k][2] - table.at(k, "gt_x")), std::abs(ref[k][3] - table.at(k, "gt_y")),
                  std::abs(ref[k][1] - table.at(k, "gt_theta"))});
  std::printf("car multiplier RK4 (h = 1.25e-3) vs file gt: %.3g\n", d);
  CHECK(d <= 1e-9);
}

TEST_CASE("CarConstraintsHoldOnEverySegment") {
  // xi_k recovered from consecutive poses: no lateral velocity, omega = (sigma_{k+1/2}/l) v_x and
  // v_x = rho (psi_{k+1} - psi_k)/h, over the 30 s reference run.
  const CarParams p;
  const double h = 0.05;
  CarState s = carStart(p, se2::Pose2{}, 0.0, 0.0, 1.0);
  double lateral = 0, yaw = 0, rolling = 0;
  for (long k = 0; k < 600; ++k) {
    const double t = double(k) * h;
    const CarState before = s;
    carStep(p, 0.5, h, s, refSteerRate(t + 0.5 * h), 0.5 * (refTorque(t) + refTorque(t + h)));
    const Vector3d xi = se2::log(before.g.inverse() * s.g) / h;
    lateral = std::max(lateral, std::abs(xi[2]));
    yaw = std::max(yaw, std::abs(xi[0] - s.sigmaMid / p.l * xi[1]));
    rolling = std::max(rolling, std::abs(xi[1] - p.rho * (s.psi - before.psi) / h));
  }
  std::printf("car constraints from poses: |v_y| %.3g m/s, |omega - sigma v/l| %.3g rad/s, |v - rho psi'| %.3g m/s\n",
              lateral, yaw, rolling);
  // The segment twist is (omega, v, 0) by construction; what is measured here is the round-off of
  // recovering it from world poses, |x| eps / h ~ 12 m * 1.1e-16 / 0.05 s = 3e-14 m/s.
  CHECK(lateral <= 1e-13);
  CHECK(yaw <= 1e-13);
  CHECK(rolling <= 2e-13);
}

TEST_CASE("CarCircleAtZeroTorqueFixedSteering") {
  // Constant sigma, no torque: u is constant, the body twist is constant and exp is exact, so the rear
  // axle runs on the circle of radius l/sigma about the body point (0, l/sigma) at speed rho u.
  const CarParams p;
  const double sigma = 0.5, h = 0.05, u0 = 2.0, R = p.l / sigma;
  CarState s = carStart(p, se2::Pose2{0.3, 1.0, -2.0}, 0.0, sigma, u0);
  const Eigen::Vector2d centre = s.g.act(Eigen::Vector2d(0.0, R));
  const double E0 = p.energyOfMomentum(s.pMinus, sigma);
  double radiusErr = 0, speedErr = 0, energyErr = 0;
  const long steps = 4000;  // ~ 3 laps
  for (long k = 0; k < steps; ++k) {
    carStep(p, 0.5, h, s, 0.0, 0.0);
    radiusErr = std::max(radiusErr, std::abs((Eigen::Vector2d(s.g.x, s.g.y) - centre).norm() - R));
    speedErr = std::max(speedErr, std::abs(s.u - u0) / u0);
    energyErr = std::max(energyErr, std::abs(p.energyOfMomentum(s.pMinus, s.sigma) - E0) / E0);
  }
  // Heading advances by exactly (rho/l) sigma u per unit time: the lap count is analytic.
  const double thetaExpected = 0.3 + steps * h * (p.rho / p.l) * sigma * u0;
  std::printf("car circle R = %.3g m: |r - R| %.3g m, speed rel %.3g, energy rel %.3g, heading %.3g rad\n", R,
              radiusErr, speedErr, energyErr, std::abs(s.g.theta - thetaExpected));
  CHECK(radiusErr <= 1e-12 * R);
  CHECK(speedErr <= 1e-14);
  CHECK(energyErr <= 1e-14);
  CHECK(std::abs(s.g.theta - thetaExpected) <= 1e-11);
}

TEST_CASE("CarSecondOrderForAlphaHalfFirstOrderOtherwise") {
  // Max position error over 10 s against the multiplier/RK4 reference for 4 step sizes.
  const CarParams p;
  const double T = 10.0;
  const std::vector<double> hs = {0.1, 0.05, 0.025, 0.0125};
  const int sub = 8;  // reference step h/8 (RK4 error ~1e-12 at the smallest h)
  for (double alpha : {0.5, 0.0, 1.0}) {
    std::vector<double> errs;
    for (double h : hs) {
      const auto ref = runReference(p, T, h / sub, sub, true);
      errs.push_back(maxPositionError(runScheme(p, alpha, h, std::lround(T / h)), ref));
    }
    const double slope = test::logLogSlope(hs, errs);
    std::printf("car alpha = %.1f: max position error %.3g %.3g %.3g %.3g m -> order %.3f\n", alpha, errs[0], errs[1],
                errs[2], errs[3], slope);
    if (alpha == 0.5)
      CHECK(slope == doctest::Approx(2.0).epsilon(0.05));
    else
      CHECK(slope == doctest::Approx(1.0).epsilon(0.1));
  }
}

TEST_CASE("CarEnergyDriftAlphaZeroOneMonotone") {
  // No torque, time-varying steering: the continuous energy is constant (dE/dt = psi' f). The segment
  // energy l_k = 1/2 (I0 + c sigma_{k+alpha}^2) u_k^2 falls every step for alpha = 0 and rises for
  // alpha = 1 (Cauchy-Schwarz on the momentum update); alpha = 1/2 stays bounded (ERRATA: -22 % / +28 %
  // over 600 s at h = 0.1).
  const CarParams p;
  const double h = 0.1;
  const long steps = 6000;
  for (double alpha : {0.0, 1.0, 0.5}) {
    const auto rows = runScheme(p, alpha, h, steps, false);
    const double E0 = rows.front().segmentEnergy;
    bool monotone = true;
    double maxDev = 0;
    for (size_t k = 1; k < rows.size(); ++k) {
      const double dE = rows[k].segmentEnergy - rows[k - 1].segmentEnergy;
      if ((alpha == 0.0 && dE > 1e-15 * E0) || (alpha == 1.0 && dE < -1e-15 * E0)) monotone = false;
      maxDev = std::max(maxDev, std::abs(rows[k].segmentEnergy / E0 - 1.0));
    }
    const double change = rows.back().segmentEnergy / E0 - 1.0;
    std::printf("car alpha = %.1f, no torque, 600 s at h = 0.1: energy change %+.2f %%, max |dev| %.3g %%\n", alpha,
                100 * change, 100 * maxDev);
    if (alpha == 0.0) {
      CHECK(monotone);
      CHECK(change == doctest::Approx(-0.22).epsilon(0.1));
    } else if (alpha == 1.0) {
      CHECK(monotone);
      CHECK(change == doctest::Approx(0.28).epsilon(0.1));
    } else {
      CHECK(maxDev <= 1e-3);
    }
  }
}

TEST_CASE("CarDriverLayer") {
  CarDriveSettings s;
  s.maxTorque = 1.5;
  s.brakeTorque = 2.0;
  s.maxSteerRate = 0.8;
  s.steerLimit = 0.5;
  s.centreRate = 0.4;
  const double h = 0.01, sigmaMax = std::tan(0.5);
  SUBCASE("neutral controls use the constant parameters") {
    const auto c = carCommand(s, {}, 0.3, -0.2, 1.0, 0.0, h);
    CHECK(c.torque == 0.3);
    CHECK(c.steerRate == -0.2);
  }
  SUBCASE("pedals and stick override them") {
    const auto c = carCommand(s, {0.5, 0.0, -0.25}, 0.3, -0.2, 1.0, 0.0, h);
    CHECK(c.torque == 0.75);
    CHECK(c.steerRate == 0.2);  // stick left (steer < 0): sigma increases
    const auto b = carCommand(s, {0.0, 1.0, 0.0}, 0.3, 0.0, 4.0, 0.0, h);
    CHECK(b.torque == doctest::Approx(-2.0 * std::tanh(8.0)));
    const auto rev = carCommand(s, {0.0, 1.0, 0.0}, 0.3, 0.0, -4.0, 0.0, h);
    CHECK(rev.torque == doctest::Approx(2.0 * std::tanh(8.0)));  // the brake opposes the rolling direction
  }
  SUBCASE("steering limit and return to centre") {
    double sigma = 0.0;
    for (int k = 0; k < 300; ++k) sigma += h * carCommand(s, {0, 0, -1.0}, 0, 0, 1, sigma, h).steerRate;
    CHECK(sigma == doctest::Approx(sigmaMax).epsilon(1e-14));
    CHECK(sigma <= sigmaMax * (1 + 1e-15));
    int stepsBack = 0;
    while (std::abs(sigma) > 1e-15 && stepsBack < 1000) {
      sigma += h * carCommand(s, {}, 0, 0, 1, sigma, h).steerRate;
      ++stepsBack;
    }
    CHECK(std::abs(sigma) <= 1e-15);
    CHECK(stepsBack == int(std::ceil(sigmaMax / (s.centreRate * h))));
    s.returnToCentre = false;
    CHECK(carCommand(s, {}, 0, 0, 1, 0.3, h).steerRate == 0.0);
  }
}

namespace {
// A drive with every control moving: throttle pulses, brake, steering stick sweeps.
InputVector driveInputs(long k) {
  const double t = double(k) / 60.0;
  return {std::sin(0.4 * t), std::max(0.0, std::sin(0.9 * t)), t > 8.0 && t < 9.0 ? 0.7 : 0.0};
}
}  // namespace

TEST_CASE("CarSceneFollowsTheExplicitUpdate") {
  // No inputs: the constant parameters drive the scene; rows equal carStep bit for bit.
  // Open ground: in the parking lot this circle meets a cone (solid scenery, CarStopsAt... below).
  auto scene = test::makeScene("car", {{"speed", "4"}, {"steer", "0.3"}, {"torque", "0.05"}, {"steer_rate", "-0.02"},
                                       {"return_to_centre", "false"}, {"world", "open"}});
  const auto rows = test::runScene(*scene, 600, [](long) { return InputVector{0, 0, 0}; });  // steer, throttle, brake
  const CarParams p;
  CarState s = carStart(p, se2::Pose2{}, 0.0, 0.3, 4.0);
  const double h = 1.0 / 60.0;
  for (long k = 0; k < 600; ++k) carStep(p, 0.5, h, s, -0.02, 0.05);
  const int ix = test::columnOf(*scene, "x"), imu = test::columnOf(*scene, "mu"), ilat = test::columnOf(*scene, "lateral_velocity");
  CHECK(rows.back()[size_t(ix)] == s.g.x);
  CHECK(rows.back()[size_t(imu)] == s.pMinus);
  double lateral = 0, extent = 0;
  for (const auto& r : rows) {
    lateral = std::max(lateral, std::abs(r[size_t(ilat)]));
    extent = std::max(extent, std::hypot(r[size_t(ix)], r[size_t(ix) + 1]));
  }
  // The column differences world poses: its floor is ~eps |x| / h (the twist itself has v_y = 0).
  const double floor = 8.0 * 2.2e-16 * (1.0 + extent) / h;
  std::printf("car scene: max |lateral velocity| from poses %.3g m/s (round-off floor %.3g)\n", lateral, floor);
  CHECK(lateral <= floor);
  const auto cols = scene->columns();
  const std::vector<std::string> head = {"t", "x", "y", "theta", "energy", "psi", "sigma", "mu"};
  CHECK(std::vector<std::string>(cols.begin(), cols.begin() + 8) == head);
}

TEST_CASE("CarSceneDeterministicAndSaveLoadExact") {
  auto a = test::makeScene("car"), b = test::makeScene("car");
  const auto ra = test::runScene(*a, 900, driveInputs), rb = test::runScene(*b, 900, driveInputs);
  CHECK(ra == rb);
  // Save at step 400, run on, restore and re-run: the same rows bit for bit.
  auto c = test::makeScene("car");
  test::runScene(*c, 400, driveInputs);
  const auto saved = c->saveState();
  const auto first = test::runScene(*c, 300, [](long k) { return driveInputs(k + 400); });
  c->loadState(saved);
  const auto second = test::runScene(*c, 300, [](long k) { return driveInputs(k + 400); });
  CHECK(first == second);
  CHECK(first.back() == ra[700]);
  CHECK_THROWS_AS(c->loadState({1.0, 2.0}), BadInput);
}

TEST_CASE("CarSceneSanitizesInputs") {
  const double nan = std::nan("");
  auto ref = test::makeScene("car"), bad = test::makeScene("car");
  // NaN -> neutral, out of range -> clamped, a short vector (device lost) -> neutral.
  const auto r1 = test::runScene(*ref, 120, [](long k) { return k < 60 ? InputVector{0.0, 1.0, 0.0} : InputVector{-1.0, 0, 0}; });
  const auto r2 = test::runScene(*bad, 120, [nan](long k) {
    return k < 60 ? InputVector{nan, 7.0, nan} : k < 90 ? InputVector{-50.0, nan, -3.0} : InputVector{-1.0, 0, 0};
  });
  CHECK(r1 == r2);
  auto lost = test::makeScene("car"), neutral = test::makeScene("car");
  CHECK(test::runScene(*lost, 30, [](long) { return InputVector{}; }) ==
        test::runScene(*neutral, 30, [](long) { return InputVector{0, 0, 0}; }));
}

TEST_CASE("CarSceneLiveParametersAndLimits") {
  auto scene = test::makeScene("car");
  ParamSet p = scene->params();
  p.setFromString("torque", "0.4", "test");
  scene->applyLive(p);
  scene->step(scene->dt(), {0, 0, 0});
  std::vector<double> row;
  scene->diagnostics(row);
  CHECK(row[size_t(test::columnOf(*scene, "torque"))] == 0.4);
  // Full stick left for 3 s: the steering angle sits exactly at the (live) limit.
  p.setFromString("steer_limit", "0.3", "test");
  scene->applyLive(p);
  test::runScene(*scene, 180, [](long) { return InputVector{-1.0, 0, 0}; });
  scene->diagnostics(row);
  CHECK(row[size_t(test::columnOf(*scene, "steer_angle"))] == doctest::Approx(0.3).epsilon(1e-14));
}

TEST_CASE("CarBadParametersAndHeadlessExitCodes") {
  CHECK_THROWS_WITH_AS(test::makeScene("car", {{"m", "-1"}}), doctest::Contains("'m'"), BadInput);
  CHECK_THROWS_WITH_AS(test::makeScene("car", {{"rho", "nan"}}), doctest::Contains("'rho'"), BadInput);
  CHECK_THROWS_WITH_AS(test::makeScene("car", {{"steer", "1.0"}}), doctest::Contains("'steer'"), BadInput);
  CHECK_THROWS_AS(test::makeScene("car", {{"world", "moon"}}), BadInput);
  CHECK_THROWS_AS(validateCarParams(CarParams{0.0, 0.1, 0.6, 1.5, 0.35}), BadInput);
  CHECK(test::exitCodeOf("run car --steps 10") == 0);
  CHECK(test::exitCodeOf("run car --steps 10 --set m=-1") == 2);
  CHECK(test::exitCodeOf("run car --steps 10 --set steer=5") == 2);
  CHECK(test::exitCodeOf("run car --steps 10 --set alpha=1.5") == 2);
  const std::string in = std::string(VARSIM_TEST_OUT) + "/car_bad_input.csv";
  std::FILE* f = std::fopen(in.c_str(), "w");
  REQUIRE(f);
  std::fputs("step,throttle,steer\n0,0.5,nan\n", f);
  std::fclose(f);
  CHECK(test::exitCodeOf("run car --steps 10 --input " + in) == 2);
  // A good input file and CSV output: the throttle drives the car forward.
  const std::string good = std::string(VARSIM_TEST_OUT) + "/car_input.csv", csv = std::string(VARSIM_TEST_OUT) + "/car_run.csv";
  f = std::fopen(good.c_str(), "w");
  REQUIRE(f);
  std::fputs("t,throttle,steer\n0,1,0\n1,0,-0.5\n", f);
  std::fclose(f);
  CHECK(test::exitCodeOf("run car --duration 2 --set speed=0 --input " + good + " --csv " + csv) == 0);
  const auto table = test::readCsv(csv);
  REQUIRE(table.rows.size() == 121);
  CHECK(table.at(60, "torque") == 1.0);     // full throttle with max_torque = 1 N m
  CHECK(table.at(61, "torque") == 0.0);     // released: the `torque` parameter (0)
  CHECK(table.at(120, "sigma") > 0.0);      // the stick steered left
  CHECK(table.at(120, "x") > 0.5);
}

namespace {

// Default car (l = 1.5 m, rho = 0.35 m): body length L = l + 2.2 rho, width W = 0.55 l + 0.5 rho; the lot's bays
// are 1.7 W wide from x0 = 2 L (scenes/vehicles/car_scene.cpp ParkingLot), bay 1 on the north side holds a parked car.
constexpr double kL = 1.5 + 2.2 * 0.35, kW = 0.55 * 1.5 + 0.5 * 0.35;
const InputVector kCoast{0.0, 0.0, 0.0};
// The car's solid outline: its drawn body, centred 0.5 l ahead of the rear axle.
const Footprint kFootprint{0.75 - 0.5 * kL, 0.75 + 0.5 * kL, -0.5 * kW, 0.5 * kW};
const Scenery kLot = parkingLot(kL, kW, 1.1 * 0.35);

}  // namespace

TEST_CASE("CarStopsAtWallsParkedCarsAndConesWithoutOverlapOrEnergyGain") {
  struct Case {
    const char* what;
    double x, y, heading;
  };
  const Case cases[] = {{"end wall", 0.0, 0.0, 0.0},                                  // straight down the aisle
                        {"parked car", 2.0 * kL + 1.5 * 1.7 * kW, 0.0, 1.5707963267948966},  // nose first into bay 1
                        {"cone", 0.0, 0.0, 0.7}};                                     // a cone hit off-centre at 40 deg
  // Sanitizers check memory: the slowest approach (1 rad/s: 7000 steps to the wall, 3/4 of all steps here) runs in
  // Release only; the impact code is the same at 5, 20 and 80 rad/s.
  const std::vector<double> speeds = std::getenv("VARSIM_SANITIZED") ? std::vector<double>{5.0, 20.0, 80.0}
                                                                     : std::vector<double>{1.0, 5.0, 20.0, 80.0};
  for (const Case& c : cases)
    for (double speed : speeds)  // rad/s: 0.35 .. 28 m/s
      for (double e : {0.0, 0.3, 1.0}) {
        CAPTURE(c.what);
        CAPTURE(speed);
        CAPTURE(e);
        auto scene = test::makeScene("car", {{"speed", std::to_string(speed)},
                                             {"start_x", std::to_string(c.x)},
                                             {"start_y", std::to_string(c.y)},
                                             {"start_heading", std::to_string(c.heading)},
                                             {"restitution", std::to_string(e)}});
        const long steps = long(std::ceil(40.0 / (0.35 * speed) * 60.0)) + 120;
        const test::SolidRun r = test::runSolid(*scene, std::min(steps, 8000L), [](long) { return kCoast; });
        REQUIRE(r.finite);
        CHECK(r.impacts >= 1);
        CHECK(test::hudSays(r, c.what));
        CHECK(test::hudFits(r));
        CHECK(r.minClearance >= 0.0);  // never inside (the requirement allows 1 mm; the touch is found to round-off)
        // The same from corners and edge crossings, against the lot rebuilt here (not the scene's own test).
        CHECK(test::worstIndependentOverlap(r, kFootprint, kLot.obstacles) <= 1e-3);
        // Coasting: the energy is constant between impacts and each impact multiplies it by e^2.
        CHECK(r.maxEnergyStepRise <= 1e-12 * r.e0);
        CHECK(r.eEnd <= r.e0 * (e * e + 1e-12));
        if (e == 0.0) CHECK(r.speedEnd == 0.0);
        if (c.heading == 0.0 && speed == 20.0)
          std::printf("car into the %s at %.1f m/s, e = %.1f: %ld impact(s), min clearance %.3g m, E %.4g -> %.4g J\n",
                      c.what, 0.35 * speed, e, r.impacts, r.minClearance, r.e0, r.eEnd);
      }
}

TEST_CASE("IndependentOverlapSeesCornersAndCrossings") {
  // The check the obstacle tests use besides the scene's clearance column: a nose 0.1 m into a box, a thin
  // wall crossing the body with no corner inside either, and a clear pose.
  CHECK(test::independentOverlap(kFootprint, {0.0, 0.1, 0.0}, {kFootprint.xMax + 0.5, 0.0, 0.0, 0.5, 0.2}) ==
        doctest::Approx(0.1).epsilon(1e-12));
  CHECK(test::independentOverlap(kFootprint, {}, {0.75, 0.0, 0.0, 0.1, 5.0}) == INFINITY);
  CHECK(test::independentOverlap(kFootprint, {}, {kFootprint.xMax + 0.6, 0.0, 0.3, 0.5, 0.2}) < 0.0);
}

TEST_CASE("CarReversingIntoTheWallBouncesForward") {
  // Facing away from the end wall and rolling backwards: the rear bumper touches, the car rolls forward.
  for (double speed : {-2.0, -20.0}) {
    auto scene = test::makeScene("car", {{"speed", std::to_string(speed)}, {"start_x", "18"}, {"start_heading", "3.141592653589793"}});
    const test::SolidRun r = test::runSolid(*scene, 1200, [](long) { return kCoast; });
    REQUIRE(r.finite);
    CHECK(r.impacts == 1);
    CHECK(r.minClearance >= 0.0);
    CHECK(r.speedEnd == doctest::Approx(-0.3 * 0.35 * speed).epsilon(1e-12));
    CHECK(r.eEnd == doctest::Approx(0.09 * r.e0).epsilon(1e-12));
  }
}

TEST_CASE("CarThrottleIntoWallNeverGainsEnergy") {
  // Full throttle from rest into the end wall, elastic and inelastic: the car pushes, bounces, pushes again.
  for (double e : {0.0, 0.5, 1.0}) {
    auto scene = test::makeScene("car", {{"speed", "0"}, {"restitution", std::to_string(e)}, {"max_torque", "3"}});
    const test::SolidRun r = test::runSolid(*scene, 3600, [](long) { return InputVector{0.0, 1.0, 0.0}; });
    std::printf("car throttle into the wall, e = %.1f: %ld impacts, min clearance %.3g m, max E - E0 - W %.3g J\n", e,
                r.impacts, r.minClearance, r.maxEnergyRise);
    REQUIRE(r.finite);
    CHECK(r.impacts >= 1);
    CHECK(r.minClearance >= 0.0);
    CHECK(r.maxEnergyStepRise <= 1e-12 * std::max(1.0, r.speedMaxAbs * r.speedMaxAbs));
    CHECK(r.maxEnergyRise <= 1e-9);
  }
}

TEST_CASE("CarEnergyBalanceWithInputWork") {
  // Throttle pulses and braking with the steering held: E(t) - E(0) = inputWork(t) to round-off at alpha = 1/2.
  auto straight = test::makeScene("car", {{"world", "open"}, {"speed", "0"}});
  const test::SolidRun s = test::runSolid(*straight, 1200, [](long k) { return InputVector{0.0, std::max(0.0, std::sin(0.02 * k)), k > 900 ? 0.5 : 0.0}; });
  // The full drive (steering sweeps too): steering is workless in continuous time, and at alpha = 1/2 the
  // scheme's energy error from a changing sigma stays bounded.
  auto driven = test::makeScene("car", {{"world", "open"}, {"speed", "4"}});
  const test::SolidRun d = test::runSolid(*driven, 1800, driveInputs);
  const double scaleS = std::max(s.e0, s.eEnd), scaleD = std::max(d.e0, d.eEnd);
  std::printf("car energy balance: steering held |E - E0 - W| <= %.3g J (E up to %.3g J); driven E - E0 - W in [%.3g, %.3g] J "
              "(E up to %.3g J)\n",
              std::max({std::abs(s.maxEnergyRise), std::abs(s.minEnergyRise)}), scaleS, d.minEnergyRise, d.maxEnergyRise,
              scaleD);
  CHECK(std::max(std::abs(s.maxEnergyRise), std::abs(s.minEnergyRise)) <= 1e-12 * scaleS);
  CHECK(d.maxEnergyRise <= 1e-6 * scaleD);
  CHECK(d.minEnergyRise >= -1e-6 * scaleD);
  // inputWork is part of the saved state.
  auto c = test::makeScene("car");
  test::runScene(*c, 300, driveInputs);
  const auto saved = c->saveState();
  const double w = c->inputWork();
  test::runScene(*c, 100, driveInputs);
  CHECK(c->inputWork() != w);
  c->loadState(saved);
  CHECK(c->inputWork() == w);
}

TEST_CASE("CarStartInsideAnObstacleIsBadInput") {
  CHECK_THROWS_WITH_AS(test::makeScene("car", {{"start_x", std::to_string(2.0 * kL + 1.5 * 1.7 * kW)}, {"start_y", "4"}}),
                       doctest::Contains("parked car"), BadInput);
  CHECK_NOTHROW(test::makeScene("car", {{"start_x", std::to_string(2.0 * kL + 1.5 * 1.7 * kW)}, {"start_y", "4"}, {"world", "open"}}));
  CHECK(test::exitCodeOf("run car --steps 10 --set start_x=25.5 --set start_y=0") == 2);  // nose in the end wall
  CHECK(test::exitCodeOf("run car --steps 10 --set restitution=1.5") == 2);
}

TEST_CASE("CarBrakeReversesOnceStopped") {
  CarDriveSettings s;
  s.brakeReverses = true;
  const double h = 0.01;
  CHECK(carCommand(s, {0.0, 1.0, 0.0}, 0, 0, 4.0, 0.0, h).torque == doctest::Approx(-2.0 * std::tanh(8.0)));  // braking
  CHECK(carCommand(s, {0.0, 1.0, 0.0}, 0, 0, 0.0, 0.0, h).torque == -1.0);    // stopped: reverse at max_torque
  CHECK(carCommand(s, {0.0, 0.5, 0.0}, 0, 0, -3.0, 0.0, h).torque == -0.5);   // rolling back: still reverse
  CHECK(carCommand(s, {0.2, 1.0, 0.0}, 0, 0, 0.0, 0.0, h).torque == 0.2);     // throttle held: a plain brake (0 at rest)
  // The scene: hold brake from rest, the car backs away; release, press throttle, it comes forward.
  auto scene = test::makeScene("car", {{"speed", "0"}});
  const auto rows = test::runScene(*scene, 400, [](long k) { return k < 120 ? InputVector{0, 0, 1} : InputVector{0, 1, 0}; });
  const int ix = test::columnOf(*scene, "x");
  CHECK(rows[120][size_t(ix)] < -0.5);
  CHECK(rows[400][size_t(ix)] > rows[340][size_t(ix)]);
}
