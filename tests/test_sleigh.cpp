// The nonholonomic demo: a Chaplygin sleigh from one rod with a no-side-slip blade, stepped by SPOOK
// with γ (seed 001 eqs. (24), (29), rows re-derived per ERRATA). Checked against an independent
// reference (RK4 at h = 1e-4 on the reduced equations m v̇ = m a ω², (I + m a²) ω̇ = −m a v ω), the
// observed order, blade and ground constraint satisfaction, energy, γ as a relaxation, and a
// prescribed side slip w(t) = const.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <vector>

#include "engine/integrators/rk4_baumgarte.h"
#include "engine/integrators/spook.h"
#include "engine/models/sleigh.h"

using namespace varsim;

namespace {
// Reduced sleigh (x, y, θ, v, ω) with RK4: independent of the rod model and of SPOOK.
Eigen::Matrix<double, 5, 1> reducedRhs(const SleighConfig& c, const Eigen::Matrix<double, 5, 1>& s) {
  const double m = c.mass, a = 0.5 * c.length, I = m * c.length * c.length / 12.0;
  Eigen::Matrix<double, 5, 1> d;
  d << s[3] * std::cos(s[2]), s[3] * std::sin(s[2]), s[4], a * s[4] * s[4], -m * a * s[3] * s[4] / (I + m * a * a);
  return d;
}
Eigen::Matrix<double, 5, 1> reducedReference(const SleighConfig& c, double T) {
  Eigen::Matrix<double, 5, 1> s;
  s << 0, 0, c.heading, c.speed, c.yawRate;
  const double h = 1e-4;
  for (long k = 0; k < std::lround(T / h); ++k) {
    const auto k1 = reducedRhs(c, s), k2 = reducedRhs(c, s + 0.5 * h * k1), k3 = reducedRhs(c, s + 0.5 * h * k2),
               k4 = reducedRhs(c, s + h * k3);
    s += h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  return s;
}
struct SleighRun {
  Eigen::Vector3d pose;
  double v = 0, omega = 0, maxSlip = 0, maxGround = 0, maxEnergyDrift = 0;
};
SleighRun runSleigh(const SleighConfig& c, double h, double T, double gamma) {
  Sleigh sleigh(c);
  SpookStepper spook(sleigh.system());
  spook.setAllRelaxation({1e-10, 2 * h, gamma});
  MechanicalState s = sleigh.system().initialState();
  const double E0 = sleigh.reducedEnergy(c.speed, c.yawRate);
  SleighRun r;
  for (long k = 0; k < std::lround(T / h); ++k) {
    spook.step(s, h);
    r.maxSlip = std::max(r.maxSlip, sleigh.system().constraintViolation(sleigh.bladeConstraint(), s.q, s.v, s.t));
    for (int i : {1, 2}) r.maxGround = std::max(r.maxGround, sleigh.system().constraintViolation(i, s.q, s.v, s.t));
    const double E = sleigh.reducedEnergy(sleigh.forwardSpeed(s.q, s.v), sleigh.yawRate(s.q, s.v));
    r.maxEnergyDrift = std::max(r.maxEnergyDrift, std::abs(E - E0) / E0);
  }
  r.pose = sleigh.pose(s.q);
  r.v = sleigh.forwardSpeed(s.q, s.v);
  r.omega = sleigh.yawRate(s.q, s.v);
  return r;
}
}  // namespace

TEST_CASE("sleigh: SPOOK converges to the reduced Chaplygin equations") {
  const SleighConfig c;
  const double T = 4.0;
  const auto ref = reducedReference(c, T);
  std::vector<double> hs, errs;
  for (double h : {4e-3, 2e-3, 1e-3, 5e-4}) {
    const SleighRun r = runSleigh(c, h, T, 1e-8);
    const double err = std::hypot(r.pose.x() - ref[0], r.pose.y() - ref[1]);
    hs.push_back(h);
    errs.push_back(err);
    CHECK(r.maxEnergyDrift < 1.0 * h);  // measured 0.81 h: first order, like the position
    CHECK(r.maxSlip < 2.5 * h);         // measured 2.0 h m/s: A_k v_{k+1} = w holds, A_{k+1} v_{k+1} lags O(h)
    CHECK(r.maxGround < 1e-8);          // compliance stretch ε m g = 1e-10 · 49 N
    MESSAGE("h = " << h << ": blade position error " << err << " m, heading error " << std::abs(r.pose.z() - ref[2])
                   << " rad, max |A v - w| " << r.maxSlip << " m/s, max ground gap " << r.maxGround << " m, max |E-E0|/E0 "
                   << r.maxEnergyDrift);
  }
  const double order = std::log(errs.front() / errs.back()) / std::log(hs.front() / hs.back());
  MESSAGE("observed order " << order << "; reference final (x, y, theta, v, omega) = " << ref.transpose());
  CHECK(order > 0.9);
  CHECK(errs.back() < 5e-3);
  // The asymptotics of the sleigh: turning dies out, speed → √(2E/m) (v(0) = 1, ω(0) = 2).
  const SleighRun longRun = runSleigh(c, 1e-3, 20.0, 1e-8);
  const double vInf = std::sqrt(2.0 * Sleigh(c).reducedEnergy(c.speed, c.yawRate) / c.mass);
  MESSAGE("after 20 s: v " << longRun.v << " (v_inf " << vInf << "), omega " << longRun.omega);
  CHECK(std::abs(longRun.omega) < 1e-3);
  CHECK(longRun.v == doctest::Approx(vInf).epsilon(0.02));
}

TEST_CASE("sleigh: gamma relaxes the blade, w prescribes a side slip") {
  SleighConfig c;
  const double h = 1.0 / 60;
  const SleighRun hard = runSleigh(c, h, 3.0, 1e-8), soft = runSleigh(c, h, 3.0, 10.0);
  MESSAGE("h = 1/60: max |A v| gamma=1e-8: " << hard.maxSlip << " m/s; gamma=10 s/kg: " << soft.maxSlip << " m/s");
  CHECK(hard.maxSlip < 0.05);
  CHECK(soft.maxSlip > 5 * hard.maxSlip);  // a relaxed blade slides
  c.sideSlip = 0.3;
  c.yawRate = 0.0;
  Sleigh sleigh(c);
  SpookStepper spook(sleigh.system());
  spook.setAllRelaxation({1e-10, 2 * h, 1e-8});
  MechanicalState s = sleigh.system().initialState();
  for (int k = 0; k < 120; ++k) spook.step(s, h);
  const Eigen::Vector3d n = Eigen::Vector3d::UnitZ().cross(sleigh.system().direction(0, s.q).normalized());
  const double across = sleigh.system().pointVelocity({0, -1}, s.v).dot(n);
  MESSAGE("prescribed side slip 0.3 m/s: measured " << across << " m/s");
  CHECK(across == doctest::Approx(0.3).epsilon(1e-6));
}

TEST_CASE("sleigh: RK4-Baumgarte on the same rod model agrees") {
  const SleighConfig c;
  Sleigh sleigh(c);
  Rk4Baumgarte rk4(sleigh.system());
  MechanicalState s = sleigh.system().initialState();
  for (int k = 0; k < 2000; ++k) rk4.step(s, 1e-3);
  const auto ref = reducedReference(c, 2.0);
  const Eigen::Vector3d p = sleigh.pose(s.q);
  MESSAGE("RK4-Baumgarte h = 1e-3, 2 s: position error " << std::hypot(p.x() - ref[0], p.y() - ref[1]) << " m");
  CHECK(std::hypot(p.x() - ref[0], p.y() - ref[1]) < 1e-4);
}
