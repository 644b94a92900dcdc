// tests/test_nonholonomic.cpp — the general implicit scheme of seed 000 eqs. (16)-(17)
// (engine/integrators/nonholonomic): it reproduces the explicit car and snakeboard updates (C_TLN,
// ERRATA), and on a snakeboard whose rotor is driven by a torque (a genuinely implicit case: u^psi and
// Omega are coupled) it converges at second order to an independent multiplier/RK4 reference for
// several (tau, C) pairs, keeps the constraints on every segment and solves each step by Newton.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "engine/integrators/nonholonomic.h"
#include "engine/sim/errors.h"
#include "tests/constrained_rk4.h"

using namespace varsim;
using Integrator = NonholonomicIntegrator<Se2Group>;

namespace {

constexpr double kPi = 3.14159265358979323846;

double carTorque(double t) { return 0.2 * std::sin(0.7 * t); }
double carSteerRate(double t) { return 0.3 * std::cos(0.5 * t); }

// Forced-rotor snakeboard: rotor torque tau(t), steering phi(t) prescribed.
double rotorTorque(double t) { return 0.3 * std::sin(2.0 * t) + 0.05; }
double steer(double t) { return 0.4 * std::sin(kPi * t + 0.3); }
double steerRate(double t) { return 0.4 * kPi * std::cos(kPi * t + 0.3); }

// q = (psi, theta, x, y), M over them from seed 000 Sec. 5.2.2, the two wheel constraints with phi(t).
test::ConstrainedLagrangian forcedRotorLagrangian(const SnakeboardParams& p) {
  test::ConstrainedLagrangian L;
  L.mass = [p](double, const Eigen::VectorXd&) {
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(4, 4);
    M(0, 0) = M(0, 1) = M(1, 0) = p.I;
    M(1, 1) = p.m * p.l * p.l;
    M(2, 2) = M(3, 3) = p.m;
    return M;
  };
  L.force = [](double t, const Eigen::VectorXd&, const Eigen::VectorXd&) {
    return Eigen::VectorXd(Eigen::Vector4d(rotorTorque(t), 0, 0, 0));
  };
  L.constraint = [p](double t, const Eigen::VectorXd& q) {
    const double phi = steer(t), th = q[1];
    Eigen::MatrixXd W(2, 4);
    W << 0, -p.l * std::cos(phi), -std::sin(th + phi), std::cos(th + phi),  //
        0, p.l * std::cos(phi), -std::sin(th - phi), std::cos(th - phi);
    return W;
  };
  L.constraintRate = [p](double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
    const double phi = steer(t), dphi = steerRate(t), th = q[1], w = qd[1];
    const double a = th + phi, b = th - phi;
    return Eigen::VectorXd(Eigen::Vector2d(
        p.l * std::sin(phi) * dphi * w - (w + dphi) * (std::cos(a) * qd[2] + std::sin(a) * qd[3]),
        -p.l * std::sin(phi) * dphi * w - (w - dphi) * (std::cos(b) * qd[2] + std::sin(b) * qd[3])));
  };
  return L;
}

struct Sample {
  double x, y, theta, psi;
};

// Start of the forced-rotor run: rotor at rest, board moving with momentum p0 (phi(0) != 0).
constexpr double kP0 = 0.6;

std::vector<Sample> runImplicit(const SnakeboardModel& model, NonholonomicSettings st, double h, long steps,
                                double* maxConstraint = nullptr, double* meanIters = nullptr) {
  const SnakeboardParams& p = model.params();
  const Integrator integ(model, {false, true}, st);
  const double phi0 = steer(0.0);
  const Vector3d xi0 = snakeboard::velocityOfMomentum(p, phi0, 0.0, kP0);
  // xi0 = z0 e1(phi0) - A(r0) rdot0 with psi_dot(0) = 0: z0 = xi0 / e1(phi0).
  Eigen::VectorXd z0(1);
  z0[0] = xi0[1] / snakeboard::e1(p.l, phi0)[1];
  auto s = integ.start(se2::Pose2{}, Eigen::Vector2d(0.0, phi0), Eigen::Vector2d(0.0, steerRate(0.0)), z0);
  std::vector<Sample> out{{s.g.x, s.g.y, s.g.theta, s.r[0]}};
  double cmax = 0, iters = 0;
  for (long k = 0; k < steps; ++k) {
    const double t = double(k) * h, a = st.alpha;
    const double phiNext = steer(t + h);
    Eigen::Vector2d u(0.0, (phiNext - s.r[1]) / h), f((1 - a) * rotorTorque(t) + a * rotorTorque(t + h), 0.0);
    integ.step(s, h, u, f);
    // Wheel constraints of the segment at phi_{k+alpha} (body frame, seed 000 Sec. 5.2.2).
    const double phiA = s.r[1] - (1.0 - a) * h * s.u[1], c = std::cos(phiA), sn = std::sin(phiA);
    cmax = std::max({cmax, std::abs(-p.l * c * s.xi[0] - sn * s.xi[1] + c * s.xi[2]),
                     std::abs(p.l * c * s.xi[0] + sn * s.xi[1] + c * s.xi[2])});
    iters += s.newtonIterations;
    out.push_back({s.g.x, s.g.y, s.g.theta, s.r[0]});
  }
  if (maxConstraint) *maxConstraint = cmax;
  if (meanIters) *meanIters = iters / double(steps);
  return out;
}

std::vector<Eigen::VectorXd> runForcedRotorReference(const SnakeboardParams& p, double T, double hRef, long every) {
  const double phi0 = steer(0.0);
  const Vector3d xi0 = snakeboard::velocityOfMomentum(p, phi0, 0.0, kP0);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(4), qd(4);
  qd << 0.0, xi0[0], xi0[1], xi0[2];  // theta = 0: world velocity = body velocity
  return forcedRotorLagrangian(p).run(q, qd, hRef, std::lround(T / hRef), every);
}

}  // namespace

TEST_CASE("GeneralSchemeReproducesExplicitCar") {
  // Forced psi, prescribed sigma, b = 0, (tau, C) = (exp, TLN): the printed explicit update.
  const CarParams p;
  const CarModel model(p);
  const double h = 0.05;
  for (double alpha : {0.5, 0.0, 1.0}) {
    NonholonomicSettings st;
    st.alpha = alpha;
    const Integrator integ(model, {false, true}, st);
    auto s = integ.start(se2::Pose2{}, Eigen::Vector2d::Zero(), Eigen::Vector2d(1.0, carSteerRate(0.0)),
                         Eigen::VectorXd(0));
    CarState e = carStart(p, se2::Pose2{}, 0.0, 0.0, 1.0);
    double d = 0, dp = 0;
    int maxIters = 0;
    for (long k = 0; k < 600; ++k) {
      const double t = double(k) * h, us = carSteerRate(t + 0.5 * h);
      const double f = (1 - alpha) * carTorque(t) + alpha * carTorque(t + h);
      integ.step(s, h, Eigen::Vector2d(0.0, us), Eigen::Vector2d(f, 0.0));
      carStep(p, alpha, h, e, us, f);
      d = std::max({d, std::abs(s.g.x - e.g.x), std::abs(s.g.y - e.g.y), std::abs(s.g.theta - e.g.theta),
                    std::abs(s.r[0] - e.psi), std::abs(s.r[1] - e.sigma)});
      dp = std::max(dp, std::abs(integ.leftShapeMomentum(s)[0] - e.pMinus));
      maxIters = std::max(maxIters, s.newtonIterations);
    }
    std::printf("general vs explicit car, alpha = %.1f: max diff %.3g, momentum diff %.3g, Newton iterations <= %d\n",
                alpha, d, dp, maxIters);
    CHECK(d <= 1e-12);
    CHECK(dp <= 1e-13);
    CHECK(maxIters <= 2);  // linear in u^psi: one Newton step (plus at most one at the round-off floor)
  }
}

TEST_CASE("GeneralSchemeReproducesExplicitSnakeboard") {
  // Fully prescribed shape (the README gait), b = 1: Newton on z only.
  const SnakeboardParams p;
  const SnakeboardModel model(p);
  SnakeboardGait gait;
  const double h = 0.01;
  const Integrator integ(model, {true, true});
  auto s = integ.start(se2::Pose2{}, gait.shape(0.0), gait.shapeRate(0.0), Eigen::VectorXd::Zero(1));
  SnakeboardState e = snakeboardStart(se2::Pose2{}, 0.0, 0.0, 0.0);
  double d = 0, dp = 0;
  for (long k = 0; k < 1000; ++k) {
    const Eigen::Vector2d r1 = gait.shape(gait.omega * double(k + 1) * h);
    const Eigen::Vector2d u = (r1 - Eigen::Vector2d(e.psi, e.phi)) / h;
    integ.step(s, h, u, Eigen::Vector2d::Zero());
    snakeboardStep(p, 0.5, h, e, r1[0], r1[1]);
    d = std::max({d, std::abs(s.g.x - e.g.x), std::abs(s.g.y - e.g.y), std::abs(s.g.theta - e.g.theta)});
    dp = std::max(dp, std::abs(snakeboard::e1(p.l, s.r[1]).dot(s.nuMinus) - e.p));
  }
  std::printf("general vs explicit snakeboard: max pose diff %.3g, momentum diff %.3g\n", d, dp);
  CHECK(d <= 1e-11);
  CHECK(dp <= 1e-12);
}

TEST_CASE("ForcedRotorReferenceIsConsistent") {
  // The multiplier reference converges at fourth order in its own step, and the step used below
  // (1.25e-3 s) is at round-off level.
  const SnakeboardParams p;
  const auto fine = runForcedRotorReference(p, 4.0, 6.25e-4, 6400).back();
  const double e1 = (runForcedRotorReference(p, 4.0, 0.04, 100).back() - fine).head(4).norm();
  const double e2 = (runForcedRotorReference(p, 4.0, 0.02, 200).back() - fine).head(4).norm();
  const double e3 = (runForcedRotorReference(p, 4.0, 1.25e-3, 3200).back() - fine).head(4).norm();
  std::printf("forced-rotor RK4 reference: differences at h = 0.04, 0.02, 1.25e-3: %.3g, %.3g, %.3g (ratio %.1f)\n",
              e1, e2, e3, e1 / e2);
  CHECK(e1 / e2 == doctest::Approx(16.0).epsilon(0.15));
  CHECK(e3 <= 1e-12);
}

TEST_CASE("ImplicitForcedRotorSecondOrderForEveryTangent") {
  const SnakeboardParams p;
  const SnakeboardModel model(p);
  const double T = 4.0;
  const std::vector<double> hs = {0.04, 0.02, 0.01, 0.005};
  const auto ref = runForcedRotorReference(p, T, 1.25e-3, 1);  // every 1.25e-3 s: nodes at h / 1.25e-3
  struct Variant {
    const char* name;
    Retraction tau;
    Tangent C;
  };
  for (const Variant& v : {Variant{"exp/TLN", Retraction::Exp, Tangent::Tln}, Variant{"cay/dcay^-1", Retraction::Cay, Tangent::Cay},
                           Variant{"exp/dexp^-1", Retraction::Exp, Tangent::Exp}}) {
    NonholonomicSettings st;
    st.retraction = v.tau;
    st.tangent = v.C;
    std::vector<double> errs;
    double cmax = 0, iters = 0;
    for (double h : hs) {
      double c = 0;
      const auto run = runImplicit(model, st, h, std::lround(T / h), &c, &iters);
      cmax = std::max(cmax, c);
      const long stride = std::lround(h / 1.25e-3);
      double e = 0;
      for (size_t k = 0; k < run.size(); ++k) {
        const auto& q = ref[k * size_t(stride)];
        e = std::max(e, std::hypot(run[k].x - q[2], run[k].y - q[3]));
      }
      errs.push_back(e);
    }
    const double slope = test::logLogSlope(hs, errs);
    std::printf("forced rotor %-12s: max position error %.3g %.3g %.3g %.3g m -> order %.3f; constraints %.2g m/s; "
                "Newton %.2f it/step\n",
                v.name, errs[0], errs[1], errs[2], errs[3], slope, cmax, iters);
    CHECK(slope == doctest::Approx(2.0).epsilon(0.05));
    CHECK(cmax <= 1e-14);
    CHECK(iters <= 3.0);
  }
}

TEST_CASE("NonholonomicBadInputAndDivergenceLeaveStateUnchanged") {
  const SnakeboardModel model(SnakeboardParams{});
  NonholonomicSettings bad;
  bad.alpha = 1.5;
  CHECK_THROWS_AS(Integrator(model, {true, true}, bad), BadInput);
  CHECK_THROWS_AS(Integrator(model, {true}), BadInput);
  const Integrator integ(model, {false, true});
  auto s = integ.start(se2::Pose2{}, Eigen::Vector2d(0, 0.2), Eigen::Vector2d(1, 0), Eigen::VectorXd::Zero(1));
  integ.step(s, 0.01, Eigen::Vector2d(0, 0.5), Eigen::Vector2d(0.1, 0));
  const auto before = s;
  CHECK_THROWS_AS(integ.step(s, 0.01, Eigen::Vector2d(0, NAN), Eigen::Vector2d(0.1, 0)), SimulationDiverged);
  CHECK_THROWS_AS(integ.step(s, 0.01, Eigen::Vector2d(0, 0.5), Eigen::Vector2d(INFINITY, 0)), SimulationDiverged);
  CHECK_THROWS_AS(integ.step(s, -0.01, Eigen::Vector2d(0, 0.5), Eigen::Vector2d(0.1, 0)), BadInput);
  CHECK(s.g.x == before.g.x);
  CHECK(s.g.theta == before.g.theta);
  CHECK(s.r == before.r);
  CHECK(s.nuMinus == before.nuMinus);
  CHECK(s.piMinus == before.piMinus);
  // Prescribed NaN on a FORCED coordinate is ignored (only the force counts there).
  CHECK_NOTHROW(integ.step(s, 0.01, Eigen::Vector2d(NAN, 0.5), Eigen::Vector2d(0.1, 0)));
}
