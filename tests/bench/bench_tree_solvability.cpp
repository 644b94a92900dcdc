// Benchmark (prints tables; not a timed test): seed 002 Fig. 1 with the trapezoidal VI — a conservative
// three-link planar pendulum (tree of seed 003: 1 kg point masses on massless 2 m rods, every joint released
// at 0.8 rad from rest, g = 9.81) stepped at h in {0.05, 0.125, 0.5} for 10 s, with the a-priori step bound
// h_bar of seed 002 Props. 1–2 (engine/tree/solvability_bound.h) evaluated at every state, against where
// Newton from v = v_k (Algorithm 1) actually fails:
//   1. the three runs: steps done, first failure, h_bar along the trajectory (min/median/max), |E - E0|;
//   2. along the h = 0.05 trajectory every 0.5 s: h_bar (Prop. 2), the Jacobian bound (phi_k, eq. 38),
//      Prop. 1 at v_k (eq. 32), and the first h of a fine scan (0.0025 s spacing) at which one step from that
//      state fails, and their ratio;
//   3. whole 10 s runs over h = 0.01 ... 0.60 (0.01 spacing): completed or the time of the first failure.
// Usage: bench_tree_solvability [--csv FILE]  (FILE gets table 2 for plotting: t,h_bar,h_jacobian,h_regular,h_fail)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "engine/integrators/tree_trapezoidal.h"
#include "engine/sim/errors.h"
#include "engine/tree/pendulum_chain.h"
#include "engine/tree/solvability_bound.h"
#include "tests/solvability_fixtures.h"

using namespace varsim;
using namespace varsim::tree;

namespace {

constexpr int kLinks = 3;
constexpr double kTheta0 = 0.8, kDuration = 10.0,
                 kLength = 2.0;  // the preset assets/scenes/three_link_solvability.json

struct Run {
  int steps = 0;
  double failedAt = NAN;  // t of the step whose Newton solve failed
  std::vector<double> hBar, t;
  std::vector<Eigen::VectorXd> q, v;
  double energyError = 0;
  int maxIters = 0;
};

Run simulate(double h, bool withBounds) {
  Tree t = pendulumChain(kLinks, 1.0, kLength);
  TreeTrapezoidal s(t);
  const TreeForcing none;
  s.initialize(Eigen::VectorXd::Constant(kLinks, kTheta0), Eigen::VectorXd::Zero(kLinks), h, none);
  const double e0 = s.energy();
  Run r;
  const int n = int(std::lround(kDuration / h));
  for (int k = 0; k <= n; ++k) {
    r.t.push_back(k * h), r.q.push_back(s.q()), r.v.push_back(s.v());
    if (withBounds) r.hBar.push_back(trapezoidalStepBound(t, s.q(), s.v(), none).hBar());
    if (k == n) break;
    try {
      s.step(none);
    } catch (const SimulationDiverged&) {
      r.failedAt = k * h;
      break;
    }
    ++r.steps;
    r.maxIters = std::max(r.maxIters, s.newtonIterations());
    r.energyError = std::max(r.energyError, std::abs(s.energy() - e0));
  }
  return r;
}

double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  return x[x.size() / 2];
}

void tableRuns() {
  std::printf("1. three runs of 10 s (trapezoidal VI, Newton from v_k)\n");
  std::printf("%8s %7s %12s %12s %12s %12s %10s %6s %12s\n", "h (s)", "steps", "failed at t", "h_bar min",
              "h_bar median", "h_bar max", "h > h_bar", "iters", "max|E-E0| J");
  for (double h : {0.05, 0.125, 0.5}) {
    const Run r = simulate(h, true);
    const long above = std::count_if(r.hBar.begin(), r.hBar.end(), [&](double b) { return h > b; });
    std::printf("%8.3f %7d %12.3f %12.4g %12.4g %12.4g %9.0f%% %6d %12.4g\n", h, r.steps, r.failedAt,
                *std::min_element(r.hBar.begin(), r.hBar.end()), median(r.hBar),
                *std::max_element(r.hBar.begin(), r.hBar.end()), 100.0 * double(above) / double(r.hBar.size()),
                r.maxIters, r.energyError);
  }
}

void tableAlongTrajectory(FILE* csv) {
  std::printf("\n2. along the h = 0.05 trajectory: bounds vs the first h at which one step from the state fails\n");
  std::printf("%6s %10s %10s %10s %10s %12s %10s\n", "t (s)", "h_bar", "h_jac", "h_reg", "h_fail", "h_fail/h_bar",
              "|v_k|");
  if (csv) std::fprintf(csv, "t,h_bar,h_jacobian,h_regular,h_fail\n");
  const Run ref = simulate(0.05, false);
  Tree t = pendulumChain(kLinks, 1.0, kLength);
  const TreeForcing none;
  double worst = INFINITY;
  for (size_t k = 0; k < ref.t.size(); k += 10) {
    const StepBound b = trapezoidalStepBound(t, ref.q[k], ref.v[k], none);
    double fail = NAN;
    for (int j = 1; j <= 400 && std::isnan(fail); ++j)
      if (test::trialStep(t, ref.q[k], ref.v[k], 0.0025 * j, none).iterations < 0) fail = 0.0025 * j;
    worst = std::min(worst, fail / b.hBar());
    std::printf("%6.2f %10.4g %10.4g %10.4g %10.4g %12.3g %10.3g\n", ref.t[k], b.hBar(), b.hJacobian, b.hRegular, fail,
                fail / b.hBar(), ref.v[k].norm());
    if (csv) std::fprintf(csv, "%.17g,%.17g,%.17g,%.17g,%.17g\n", ref.t[k], b.hBar(), b.hJacobian, b.hRegular, fail);
  }
  std::printf(
      "smallest h_fail / h_bar along the trajectory: %.3g (a valid bound keeps it >= 1; nan: no failure "
      "up to 1 s)\n",
      worst);
}

void tableSweep() {
  std::printf("\n3. whole 10 s runs over h (first Newton failure, or completed)\n");
  std::printf("%8s %12s %12s\n", "h (s)", "failed at t", "max|E-E0| J");
  for (int j = 1; j <= 60; ++j) {
    const double h = 0.01 * j;
    const Run r = simulate(h, false);
    std::printf("%8.2f %12.3f %12.4g\n", h, r.failedAt, r.energyError);
  }
}

}  // namespace

int main(int argc, char** argv) {
  FILE* csv = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) {
      csv = std::fopen(argv[++i], "w");
      if (!csv) return std::fprintf(stderr, "bench_tree_solvability: cannot write %s\n", argv[i]), 2;
    } else {
      return std::fprintf(stderr, "usage: bench_tree_solvability [--csv FILE]\n"), 2;
    }
  }
  std::printf("seed 002 Fig. 1: conservative three-link pendulum (1 kg, 2 m links, released at %.1f rad per joint)\n\n",
              kTheta0);
  tableRuns();
  tableAlongTrajectory(csv);
  tableSweep();
  if (csv) std::fclose(csv);
  return 0;
}
