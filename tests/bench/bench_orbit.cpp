// Benchmark (prints tables; not a timed test): the seed 004 Sec. 5 orbit (tests/orbit_fixtures.h) on quat_lgvi
// (eq. (23)), so3xr3_lgvi (seed 000 LGVI on SO(3)xR3, cay/C_cay, field as a body wrench) and rk4 (RK4 of eq. (15)):
//  1. cost per step (thread CPU time, best of 5, 10^5 steps at h = 0.01) with potential-gradient evaluations and
//     mean Newton iterations per step;
//  2. accuracy at equal cost: position + attitude error at t = 100 s against RK4 at h = 1e-4 (error < 1e-12) for
//     h = 0.08 .. 0.0025, and the error each integrator reaches for the CPU budget quat_lgvi spends at h = 0.04,
//     0.01, 0.0025 (log-log interpolation);
//  3. long-time behaviour at h = 0.01 through the orbit scene's own diagnostics (scenes/orbit/orbit_sim.h): max |E - E0|
//     over [0, T] and [0, 10 T] (T = 125 s, about one orbit), max |L - L0|/|L0| and the attitude error.
// Usage: bench_orbit [--quick]  (--quick: 10x fewer steps in parts 1 and 3, for a smoke run).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "engine/integrators/lgvi_se3.h"
#include "engine/integrators/quat_lgvi.h"
#include "engine/integrators/quat_rk4.h"
#include "scenes/orbit/orbit_sim.h"
#include "tests/orbit_fixtures.h"

using namespace varsim;
using varsim::test::OrbitSetup;

namespace {

const char* const kNames[3] = {"quat_lgvi", "so3xr3_lgvi", "rk4"};
const OrbitIntegrator kKinds[3] = {OrbitIntegrator::QuatLgvi, OrbitIntegrator::So3xR3Lgvi, OrbitIntegrator::Rk4};
const int kGradientsPerStep[3] = {1, 1, 4};

double cpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// One integrator driven directly through the engine (no scene, no per-step clock).
struct Run {
  std::function<void(double)> step;
  std::function<Vector3d()> x;
  std::function<Matrix3d()> R;
  std::function<int()> newton;
};

Run makeRun(int which, const OrbitSetup& o, double h) {
  if (which == 0) {
    auto lg = std::make_shared<QuatLgvi>(o.inertia, o.potential);
    lg->initialize(o.x0, o.q0, o.xdot0, o.omega0, 0.0);
    return {[lg](double hh) { lg->step(hh); }, [lg] { return lg->state().x; }, [lg] { return lg->rotation(); },
            [lg] { return lg->newtonIterations(); }};
  }
  if (which == 1) {
    LgviOptions opt;
    opt.group = LgviGroup::SO3xR3;
    auto lg = std::make_shared<LgviSe3>(o.inertia, opt);
    auto f = std::make_shared<WrenchField>(potentialWrenchField(o.potential));
    lg->initialize(se3::Pose{quat::toRotation(o.q0), o.x0}, (Vector6d() << o.omega0, o.xdot0).finished(), 0.0, h, *f);
    return {[lg, f](double hh) { lg->step(hh, *f); }, [lg] { return lg->pose().x; }, [lg] { return lg->pose().R; },
            [lg] { return lg->newtonIterations(); }};
  }
  auto rk = std::make_shared<QuatRk4>(o.inertia, o.potential);
  rk->initialize(o.state0(), 0.0);
  return {[rk](double hh) { rk->step(hh); }, [rk] { return rk->state().x; },
          [rk] { return quat::toRotation(rk->state().q); }, [] { return 0; }};
}

struct Cost {
  double usPerStep = 1e300, meanNewton = 0.0;
};

Cost timeSteps(int which, const OrbitSetup& o, double h, long steps) {
  Cost best;
  for (int rep = 0; rep < 5; ++rep) {
    Run r = makeRun(which, o, h);
    long newton = 0;
    const double t0 = cpuSeconds();
    for (long k = 0; k < steps; ++k) r.step(h), newton += r.newton();
    const double us = 1e6 * (cpuSeconds() - t0) / double(steps);
    if (us < best.usPerStep) best = {us, double(newton) / double(steps)};
  }
  return best;
}

double rotationAngle(const Matrix3d& A, const Matrix3d& B) {
  return 2.0 * std::asin(std::min(1.0, (A - B).norm() / std::sqrt(8.0)));  // |A - B|_F = 2 sqrt(2) sin(angle/2)
}

// Error at t = T (position m + attitude rad) and CPU seconds per simulated second.
struct Accuracy {
  double h, cost, error;
};

Accuracy accuracyAt(int which, const OrbitSetup& o, double h, double T, const Vector3d& xRef, const Matrix3d& RRef) {
  Run r = makeRun(which, o, h);
  const long n = std::lround(T / h);
  const double t0 = cpuSeconds();
  for (long k = 0; k < n; ++k) r.step(h);
  const double cpu = cpuSeconds() - t0;
  return {h, cpu / T, (r.x() - xRef).norm() + rotationAngle(r.R(), RRef)};
}

// log-log interpolation of error at a given cost along one integrator's (cost, error) points.
double errorAtCost(const std::vector<Accuracy>& pts, double cost) {
  std::vector<Accuracy> p = pts;
  std::sort(p.begin(), p.end(), [](const Accuracy& a, const Accuracy& b) { return a.cost < b.cost; });
  if (cost <= p.front().cost || cost >= p.back().cost) return NAN;  // outside the measured range
  for (size_t i = 1; i < p.size(); ++i)
    if (cost <= p[i].cost) {
      const double s = std::log(cost / p[i - 1].cost) / std::log(p[i].cost / p[i - 1].cost);
      return std::exp(std::log(p[i - 1].error) + s * std::log(p[i].error / p[i - 1].error));
    }
  return NAN;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const OrbitSetup o;

  std::printf("1. Cost per step, Sec. 5 orbit at h = 0.01 (%ld steps, thread CPU time, best of 5)\n",
              quick ? 10000L : 100000L);
  std::printf("%-12s %10s %12s %14s %10s\n", "integrator", "us/step", "vs quat_lgvi", "gradients/step", "Newton");
  double base = 0.0;
  for (int i = 0; i < 3; ++i) {
    const Cost c = timeSteps(i, o, 0.01, quick ? 10000 : 100000);
    if (i == 0) base = c.usPerStep;
    std::printf("%-12s %10.3f %12.2f %14d %10.2f\n", kNames[i], c.usPerStep, c.usPerStep / base, kGradientsPerStep[i],
                c.meanNewton);
  }

  const double T = 100.0;
  Run ref = makeRun(2, o, 1e-4);
  for (long k = 0; k < std::lround(T / 1e-4); ++k) ref.step(1e-4);
  const Vector3d xRef = ref.x();
  const Matrix3d RRef = ref.R();
  std::printf(
      "\n2. Accuracy at t = %.0f s against RK4 at h = 1e-4: |x - x_ref| + angle(R, R_ref), and CPU seconds per "
      "simulated second\n",
      T);
  std::printf("%-8s", "h");
  for (const char* n : kNames) std::printf(" | %-11s %9s %9s", n, "cpu s/s", "error");
  std::printf("\n");
  std::vector<std::vector<Accuracy>> pts(3);
  for (double h : {0.08, 0.04, 0.02, 0.01, 0.005, 0.0025}) {
    std::printf("%-8g", h);
    for (int i = 0; i < 3; ++i) {
      pts[size_t(i)].push_back(accuracyAt(i, o, h, T, xRef, RRef));
      std::printf(" | %-11s %9.2e %9.2e", "", pts[size_t(i)].back().cost, pts[size_t(i)].back().error);
    }
    std::printf("\n");
  }
  std::printf("\nError at equal cost (the CPU budget of quat_lgvi at h; '-' = outside the measured range):\n");
  std::printf("%-22s %12s %12s %12s\n", "budget", "quat_lgvi", "so3xr3_lgvi", "rk4");
  for (size_t k : {size_t(1), size_t(3), size_t(5)}) {
    const double cost = pts[0][k].cost;
    std::printf("quat_lgvi h = %-8g", pts[0][k].h);
    std::printf(" %12.2e", pts[0][k].error);
    for (int i = 1; i < 3; ++i) {
      const double e = errorAtCost(pts[size_t(i)], cost);
      if (std::isnan(e))
        std::printf(" %12s", "-");
      else
        std::printf(" %12.2e", e);
    }
    std::printf("\n");
  }

  const double Tlong = 125.0, h = 0.01;
  const long nT = std::lround((quick ? 0.1 : 1.0) * Tlong / h);
  std::printf("\n3. Long run at h = %g: T = %.1f s, 10 T = %.0f s (%ld steps), scene diagnostics\n", h, nT * h,
              10 * nT * h, 10 * nT);
  std::printf("%-12s %16s %16s %8s %16s %16s\n", "integrator", "max|E-E0| [0,T]", "[0,10T]", "ratio", "max|L-L0|/|L0|",
              "attitude err");
  for (int i = 0; i < 3; ++i) {
    OrbitSim sim(kKinds[i], o.body, 1.0, o.state0(), h);
    const double E0 = sim.energy();
    const Vector3d L0 = sim.angularMomentum();
    double eT = 0, e10 = 0, dL = 0, att = 0;
    for (long k = 1; k <= 10 * nT; ++k) {
      sim.step(h);
      const double e = std::abs(sim.energy() - E0);
      if (k <= nT) eT = std::max(eT, e);
      e10 = std::max(e10, e);
      dL = std::max(dL, (sim.angularMomentum() - L0).norm() / L0.norm());
      att = std::max(att, std::abs(sim.attitudeError()));
    }
    std::printf("%-12s %16.3e %16.3e %8.2f %16.2e %16.2e\n", kNames[i], eT, e10, e10 / eT, dL, att);
  }
  std::printf("(attitude err: |q| - 1 for quat_lgvi and rk4, |R^T R - I|_F for so3xr3_lgvi)\n");
  return 0;
}
