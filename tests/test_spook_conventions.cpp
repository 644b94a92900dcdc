// (ε, τ, h) ⇄ spring/damper, ODE (ERP, CFM), MuJoCo (timeconst, dampratio), Box2D (hertz, ζ): round
// trips are identities, the ODE mapping reproduces SPOOK's Σ and Υ, closed-form spot values, bad
// input, and the measured stability region agrees with what the ladder does.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "engine/integrators/rigid_rod_spook.h"
#include "engine/integrators/spook.h"
#include "engine/integrators/spook_conventions.h"
#include "engine/models/ladder.h"
#include "engine/sim/errors.h"

using namespace varsim;

namespace {
double rel(double a, double b) { return std::abs(a - b) / std::abs(b); }
}  // namespace

TEST_CASE("conventions: round trips are identities") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> le(-12, 0), lt(-4, 1), lh(-4, -1), lm(-2, 3);
  double worst = 0;
  for (int i = 0; i < 1000; ++i) {
    const SpookParameters p{std::pow(10.0, le(rng)), std::pow(10.0, lt(rng))};
    const double h = std::pow(10.0, lh(rng)), m = std::pow(10.0, lm(rng));
    for (const SpookParameters& q : {fromSpringDamper(toSpringDamper(p)), fromOde(toOde(p, h), h), fromMujoco(toMujoco(p, m), m),
                                     fromBox2d(toBox2d(p, m), m)})
      worst = std::max({worst, rel(q.epsilon, p.epsilon), rel(q.tau, p.tau)});
    const OdeErpCfm o = toOde(p, h), o2 = toOde(fromOde(o, h), h);
    worst = std::max({worst, rel(o2.erp, o.erp), rel(o2.cfm, o.cfm)});
  }
  MESSAGE("1000 random (eps, tau, h, m): worst relative round-trip error " << worst);
  CHECK(worst < 1e-12);
}

TEST_CASE("conventions: the ODE mapping reproduces SPOOK's Sigma and Upsilon (eq. 27)") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> le(-12, 0), lr(-2, 1.5), lh(-4, -1);
  double worst = 0;
  for (int i = 0; i < 1000; ++i) {
    const double h = std::pow(10.0, lh(rng));
    const SpookParameters p{std::pow(10.0, le(rng)), h * std::pow(10.0, lr(rng))};
    const double upsilon = 1.0 / (1.0 + 4.0 * p.tau / h), sigma = 4.0 * p.epsilon / (h * h * (1.0 + 4.0 * p.tau / h));
    const OdeErpCfm o = toOde(p, h);
    // ODE row: J v' + (CFM/h) λ = −(ERP/h) g; SPOOK row: G v' + Σ λ = −(4/h) Υ g + Υ G v.
    worst = std::max({worst, rel(o.cfm / h, sigma), rel(o.erp / h, 4.0 * upsilon / h)});
  }
  CHECK(worst < 1e-14);
  // Defaults: ε = 1e-8, τ = 2h, h = 1/60 ⇒ ERP = 4/9, CFM = 4ε/(9h).
  const OdeErpCfm d = toOde({1e-8, 2.0 / 60}, 1.0 / 60);
  CHECK(d.erp == doctest::Approx(4.0 / 9.0).epsilon(1e-15));
  CHECK(d.cfm == doctest::Approx(4e-8 * 60 / 9.0).epsilon(1e-15));
  CHECK(toOde({0, 0}, 0.01).erp == doctest::Approx(4.0));
  CHECK(toOde({0, 0}, 0.01).cfm == 0.0);
}

TEST_CASE("conventions: closed-form values of the spring, MuJoCo and Box2D views") {
  const SpookParameters p{1e-4, 0.01};  // k = 1e4 N/m, c = 100 N s/m
  const SpringDamper s = toSpringDamper(p);
  CHECK(s.k == doctest::Approx(1e4).epsilon(1e-15));
  CHECK(s.c == doctest::Approx(100).epsilon(1e-15));
  // On m = 1: ω = 100 rad/s, ζ = c/(2√(k m)) = 0.5.
  const Box2dSoft b = toBox2d(p, 1.0);
  CHECK(b.hertz == doctest::Approx(100.0 / (2 * 3.14159265358979323846)).epsilon(1e-14));
  CHECK(b.zeta == doctest::Approx(0.5).epsilon(1e-14));
  const MujocoSolref mj = toMujoco(p, 1.0);
  CHECK(mj.dampratio == doctest::Approx(0.5).epsilon(1e-14));
  CHECK(mj.timeconst == doctest::Approx(1.0 / (0.5 * 100.0)).epsilon(1e-14));  // tc = 1/(ζω)
  // MuJoCo's own reading: a_ref = −(2/tc) v − r/(tc dr)² must be −(c/m) v − (k/m) r.
  CHECK(2.0 / mj.timeconst == doctest::Approx(s.c).epsilon(1e-14));
  CHECK(1.0 / std::pow(mj.timeconst * mj.dampratio, 2) == doctest::Approx(s.k).epsilon(1e-14));
  CHECK_THROWS_AS(toSpringDamper({0.0, 0.1}), BadInput);
  CHECK_THROWS_AS(toMujoco({1e-8, -1.0}), BadInput);
  CHECK_THROWS_AS(fromOde({0.0, 1e-6}, 0.01), BadInput);
  CHECK_THROWS_AS(toBox2d({1e-8, 0.1}, 0.0), BadInput);
}

namespace {
// Max of E(t) − E(0) over 10 s of the N = 20 ladder released horizontally.
// rigid: the scenes' rigid rods (max_chord 1e-4 m, 4 re-linearisations) instead of the paper's director rods.
double maxEnergyRise(double h, double tauOverH, double epsilon, bool rigid = false) {
  Ladder ladder(LadderConfig{20});
  SpookStepper director(ladder.system());
  RigidRodSpook rigidRods(ladder.system(), SpookConfig{SparseSolverKind::Block, {}}, 0.0, 1e-4);
  rigidRods.setRelinearise(4);
  (rigid ? rigidRods.spook() : director).setAllRelaxation({epsilon, tauOverH * h, 0});
  MechanicalState s = ladder.system().initialState();
  const double E0 = ladder.initialEnergy();
  double rise = -1e300;
  for (long k = 0; k < std::lround(10.0 / h); ++k) {
    if (rigid) rigidRods.step(s, h);
    else director.step(s, h);
    rise = std::max(rise, rodDiagnostics(ladder.system(), s).energy - E0);
  }
  return rise;
}
}  // namespace

TEST_CASE("conventions: the stability warning follows the measured region") {
  CHECK(spookStabilityWarning({1e-8, 2.0 / 60}, 1.0 / 60).empty());   // paper defaults
  CHECK(spookStabilityWarning({1e-12, 1.0 / 60}, 1.0 / 30).empty());  // h = 1/30, τ = h/2
  CHECK(spookStabilityWarning({1e-8, 0.1}, 1.0 / 20).empty());        // h = 1/20, τ = 2h, ε ≥ 1e-8
  CHECK(spookStabilityWarning({1e-8, 0.0}, 1.0 / 60).find("tau/h") != std::string::npos);
  CHECK(spookStabilityWarning({1e-8, 1.0 / 20}, 1.0 / 20).find("energy rose") != std::string::npos);
  CHECK(spookStabilityWarning({1e-8, 0.2}, 0.1).find("unit-length") != std::string::npos);
  // The ladder agrees: inside, E never rises above E(0); at (h = 1/20, τ = h) it does (measured
  // +9.1e3 J); τ = 0 at ε = 1e-12 injects energy (measured +96 J at h = 1/60).
  const double inside = maxEnergyRise(1.0 / 30, 2.0, 1e-8), outside = maxEnergyRise(1.0 / 20, 1.0, 1e-8),
               undamped = maxEnergyRise(1.0 / 60, 0.0, 1e-12);
  MESSAGE("max E - E0: inside (1/30, 2h) " << inside << " J, outside (1/20, h) " << outside << " J, tau = 0 " << undamped << " J");
  CHECK(inside < 0);
  CHECK(outside > 100);
  CHECK(undamped > 10);
}

TEST_CASE("conventions: rigid rods have their own measured region (no unit rows; only tau/h < 0.5 failed)") {
  CHECK(spookStabilityWarning({1e-12, 0.05}, 0.1, false).empty());     // h = 1/10, τ = h/2
  CHECK(spookStabilityWarning({1e-8, 1.0 / 20}, 1.0 / 20, false).empty());
  CHECK(spookStabilityWarning({1e-8, 0.0}, 1.0 / 60, false).find("tau/h") != std::string::npos);
  CHECK(spookStabilityWarning({1e-8, 0.04}, 0.1, false).find("tau/h = 0.4") != std::string::npos);
  // The director's bounds at the same points, and the rigid ladder there: E never rises above E(0) (measured
  // −71.6 and −71.4 J); at τ = 0, ε = 1e-8, h = 1/120 it rose (+495 J in bench_ladder --stability rigid).
  CHECK_FALSE(spookStabilityWarning({1e-12, 0.05}, 0.1).empty());
  CHECK_FALSE(spookStabilityWarning({1e-8, 1.0 / 20}, 1.0 / 20).empty());
  const double tenth = maxEnergyRise(0.1, 0.5, 1e-12, true), twentieth = maxEnergyRise(1.0 / 20, 1.0, 1e-8, true),
               undamped = maxEnergyRise(1.0 / 120, 0.0, 1e-8, true);
  MESSAGE("rigid max E - E0: (1/10, h/2) " << tenth << " J, (1/20, h) " << twentieth << " J, tau = 0 " << undamped << " J");
  CHECK(tenth < 0);
  CHECK(twentieth < 0);
  CHECK(undamped > 100);
}
