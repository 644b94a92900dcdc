// Benchmark (prints tables; not a timed test): issue 11's accuracy/cost comparison of the tree integrators —
// midpoint VI (alpha = 1/2), trapezoidal VI and RK4 on the N-link pendulum of bench_tree (1 kg point masses on
// rods of 1/N m, first joint 0.5 rad, at rest), 2 s simulated. For each scheme and h: CPU ms for the run, the
// configuration error max_i |q_i(T) - q_ref,i(T)| against RK4 at h = 1e-4 (fourth order: its own error is
// far below every entry), and max |E - E0| / (E0 - E_rest). The second table reads each scheme's
// (time, error) curve at equal CPU budgets (log-log interpolation between measured points; "-" outside the
// measured range). Usage: bench_tree_accuracy [--links N ...] (default 3 and 19).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "tests/bench/tree_bench_chain.h"

using namespace bench;

namespace {

constexpr double kT = 2.0;

struct Run {
  double ms = NAN, qError = NAN, energyError = NAN;
};

Run run(Scheme scheme, int links, double h, const Eigen::VectorXd& reference) {
  const ChainRun c = runChain(scheme, links, h, std::lround(kT / h), true, true);
  Run r;
  if (!c.failure.empty()) {
    std::printf("%-12s %9g   diverged: %s\n", name(scheme), h, c.failure.c_str());
    return r;
  }
  r.ms = c.ms, r.energyError = c.energyError, r.qError = (c.q - reference).lpNorm<Eigen::Infinity>();
  return r;
}

// log(error) at log(budget) on the piecewise-linear log-log curve of the measured runs (time ascending).
double errorAtBudget(const std::vector<Run>& runs, double budget) {
  for (size_t i = 0; i + 1 < runs.size(); ++i) {
    const Run &a = runs[i], &b = runs[i + 1];
    if (!std::isfinite(a.ms) || !std::isfinite(b.ms) || !(a.qError > 0) || !(b.qError > 0)) continue;
    const double lo = std::min(a.ms, b.ms), hi = std::max(a.ms, b.ms);
    if (budget < lo || budget > hi || hi == lo) continue;
    const double s = (std::log(budget) - std::log(a.ms)) / (std::log(b.ms) - std::log(a.ms));
    return std::exp(std::log(a.qError) + s * (std::log(b.qError) - std::log(a.qError)));
  }
  return NAN;
}

void table(int links) {
  const Eigen::VectorXd ref = runChain(Scheme::Rk4, links, 1e-4, std::lround(kT / 1e-4), true, false).q;
  std::printf("\nN = %d links, T = %g s; reference RK4 h = 1e-4\n", links, kT);
  std::printf("%-12s %9s %10s %12s %12s\n", "scheme", "h", "CPU ms", "|q - q_ref|", "dE");
  const std::vector<double> hs{0.04, 0.02, 0.01, 0.005, 0.0025, 0.00125, 0.000625};
  const Scheme schemes[] = {Scheme::Midpoint, Scheme::Trapezoidal, Scheme::Rk4};
  std::vector<std::vector<Run>> all;
  double tMin = INFINITY, tMax = 0;
  for (Scheme sc : schemes) {
    std::vector<Run> runs;
    for (double h : hs) {
      runs.push_back(run(sc, links, h, ref));
      const Run& r = runs.back();
      if (std::isfinite(r.ms))
        std::printf("%-12s %9g %10.2f %12.3e %12.3e\n", name(sc), h, r.ms, r.qError, r.energyError);
      std::fflush(stdout);
      if (std::isfinite(r.ms)) tMin = std::min(tMin, r.ms), tMax = std::max(tMax, r.ms);
    }
    all.push_back(runs);
  }
  std::printf("error |q - q_ref| at equal CPU time (N = %d)\n%10s %12s %12s %12s\n", links, "CPU ms", "midpoint",
              "trapezoidal", "rk4");
  for (double b = std::pow(10, std::ceil(std::log10(tMin) * 2) / 2); b <= tMax; b *= std::sqrt(10.0)) {
    std::printf("%10.2f", b);
    for (const auto& runs : all) {
      const double e = errorAtBudget(runs, b);
      std::isfinite(e) ? std::printf(" %12.3e", e) : std::printf(" %12s", "-");
    }
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> links;
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--links")) links.push_back(std::atoi(argv[i + 1]));
  if (links.empty()) links = {3, 19};
  for (int n : links) table(n);
  return 0;
}
