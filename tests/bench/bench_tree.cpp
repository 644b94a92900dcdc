// Benchmark (prints a table; not a timed test): issue 11, seed 003 Fig. 3 — the N-link pendulum (point
// masses 1 kg on massless rods of 1/N m, hinges about y, first joint 0.5 rad from straight down, the others
// 0, at rest) simulated 10 s at h = 0.01 on the seed 003 tree. Columns: CPU ms for 10 s with the midpoint VI
// (alpha = 1/2) cached and uncached (every tree quantity recomputed through the whole recursion, as a
// symbolic expansion would; only up to --uncached-max links, default 19), their ratio, the trapezoidal VI
// and RK4 (cached), and each scheme's max |E - E0| / (E0 - E_rest) over the run. The last rows fit the
// growth exponent p of time ~ N^p over N >= 4. The second table runs the peer a user would pick instead,
// the same chain in MuJoCo 2.2 (tree_mujoco_peer.h; only when libmujoco-dev was found at configure time)
// with its semi-implicit Euler and RK4 at the same h, beside our midpoint: CPU ms per 10 s and energy error
// on the same scale (energies of MuJoCo's qpos/qvel evaluated by our tree). "blew up" gives the time at
// which MuJoCo's state turned non-finite or it reset on a bad acceleration.
// The third table starts the chain curled (every joint 0.5 rad from its parent; its tip whips): ours (midpoint,
// trapezoidal, RK4) and MuJoCo's schemes at N = 10, 19, 40 and h = 0.01, 0.0025, 0.001, each CPU ms per 10 s and dE,
// or where it failed (our VIs: Newton did not converge also in 64 sub-steps; RK4 and MuJoCo: blew up).
// Usage: bench_tree [--max N] [--uncached-max N].
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "tests/bench/tree_bench_chain.h"
#include "tests/bench/tree_mujoco_peer.h"

using namespace varsim::tree;
using namespace bench;

namespace {

struct Run {
  double ms = NAN, energyError = NAN, blowUp = NAN;  // blowUp: simulated time of a failure (peer only)
};

Run run(Scheme scheme, int links, bool cache) {
  const ChainRun c = runChain(scheme, links, 0.01, 1000, cache, true);
  if (!c.failure.empty()) std::printf("  (%s, N = %d: %s)\n", name(scheme), links, c.failure.c_str());
  Run r;
  r.ms = c.ms, r.energyError = c.energyError;
  return r;
}

double exponent(const std::vector<int>& n, const std::vector<double>& ms) {  // least squares in log-log
  double sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0;
  for (size_t i = 0; i < n.size(); ++i) {
    if (n[i] < 4 || !std::isfinite(ms[i])) continue;
    const double x = std::log(n[i]), y = std::log(ms[i]);
    sx += x, sy += y, sxx += x * x, sxy += x * y, m += 1;
  }
  return m < 2 ? NAN : (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

// A cell: CPU ms and dE, or the simulated time of a failure.
void printCell(const Run& r) {
  if (std::isnan(r.blowUp)) {
    std::printf(" %9.1f %10.2e", r.ms, r.energyError);
  } else {
    std::printf(" %9s %10s", "failed", ("t=" + std::to_string(r.blowUp).substr(0, 5) + "s").c_str());
  }
}

Run curledRun(Scheme scheme, int links, double h) {
  const ChainRun c = runChain(scheme, links, h, std::lround(10 / h), true, true, true);
  Run r;
  r.ms = c.ms, r.energyError = c.energyError, r.blowUp = c.failedAt;
  return r;
}

#ifdef VARSIM_HAVE_MUJOCO
// The chain in MuJoCo for 10 s at h from the same start; energy outside the timed part.
Run runMujoco(int links, bool rk4, double h = 0.01, bool curled = false) {
  mjModel* m = bench::loadMjcf(bench::pendulumMjcf(links, 1.0, 1.0 / links, rk4, h));
  mjData* d = mj_makeData(m);
  const Eigen::VectorXd q0 = startPose(links, curled);
  for (int i = 0; i < links; ++i) d->qpos[i] = q0(i);
  mj_forward(m, d);
  EnergyScale scale(links, curled);
  Run r;
  double worst = 0, busy = 0;
  for (long k = 0; k < std::lround(10 / h); ++k) {
    const double a = cpuMs();
    mj_step(m, d);
    busy += cpuMs() - a;
    const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(d->qpos, links);
    const Eigen::VectorXd v = Eigen::Map<const Eigen::VectorXd>(d->qvel, links);
    if (!q.allFinite() || !v.allFinite() || d->warning[mjWARN_BADQACC].number > 0) {
      r.blowUp = double(k + 1) * h;
      break;
    }
    worst = std::max(worst, scale.error(q, v));
  }
  r.ms = busy, r.energyError = worst;
  mj_deleteData(d);
  mj_deleteModel(m);
  return r;
}

void peerTable(const std::vector<int>& ns, const std::vector<double>& midpointMs) {
  std::printf("\nPeer: MuJoCo %s, same chain, 10 s at h = 0.01, CPU ms and dE as above\n", mj_versionString());
  std::printf("%4s %10s %9s %10s %9s %10s %12s\n", "N", "ours mid", "mj euler", "euler dE", "mj rk4", "rk4 dE",
              "mid/mj-rk4");
  for (size_t i = 0; i < ns.size(); ++i) {
    const Run e = runMujoco(ns[i], false), r4 = runMujoco(ns[i], true);
    std::printf("%4d %10.1f", ns[i], midpointMs[i]);
    printCell(e), printCell(r4);
    std::printf(" %12.2f\n", midpointMs[i] / r4.ms);
    std::fflush(stdout);
  }
}
#else
void peerTable(const std::vector<int>&, const std::vector<double>&) {
  std::printf("\nPeer: MuJoCo not built (libmujoco-dev not found at configure time)\n");
}
#endif

void curledTable() {
  std::printf("\nCurled start (every joint 0.5 rad), 10 s: CPU ms and dE, or when it failed\n");
  std::printf("%4s %7s %9s %10s %9s %10s %9s %10s", "N", "h", "ours mid", "mid dE", "ours trap", "trap dE", "ours rk4",
              "rk4 dE");
#ifdef VARSIM_HAVE_MUJOCO
  std::printf(" %9s %10s %9s %10s", "mj euler", "euler dE", "mj rk4", "rk4 dE");
#endif
  std::printf("\n");
  for (int n : {10, 19, 40}) {
    for (double h : {0.01, 0.0025, 0.001}) {
      std::printf("%4d %7g", n, h);
      printCell(curledRun(Scheme::Midpoint, n, h)), printCell(curledRun(Scheme::Trapezoidal, n, h));
      printCell(curledRun(Scheme::Rk4, n, h));
#ifdef VARSIM_HAVE_MUJOCO
      printCell(runMujoco(n, false, h, true)), printCell(runMujoco(n, true, h, true));
#endif
      std::printf("\n");
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  int maxN = 40, uncachedMax = 19;
  for (int i = 1; i + 1 < argc; ++i) {
    if (!std::strcmp(argv[i], "--max")) maxN = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--uncached-max")) uncachedMax = std::atoi(argv[i + 1]);
  }
  std::printf("N-link pendulum, 10 s at h = 0.01 (1000 steps), CPU ms; dE = max|E-E0|/(E0-E_rest)\n");
  std::printf("%4s %12s %12s %8s %10s %12s %10s %10s %10s\n", "N", "mid cached", "mid uncached", "ratio", "mid dE",
              "trap cached", "trap dE", "rk4 ms", "rk4 dE");
  std::vector<int> ns;
  std::vector<double> cached, uncached, trap, rk;
  for (int n : {1, 2, 3, 4, 5, 6, 8, 10, 13, 16, 19, 25, 32, 40}) {
    if (n > maxN) break;
    const Run m = run(Scheme::Midpoint, n, true), u = n <= uncachedMax ? run(Scheme::Midpoint, n, false) : Run{};
    const Run tr = run(Scheme::Trapezoidal, n, true), r4 = run(Scheme::Rk4, n, true);
    std::printf("%4d %12.1f %12.1f %8.2f %10.2e %12.1f %10.2e %10.1f %10.2e\n", n, m.ms, u.ms, u.ms / m.ms,
                m.energyError, tr.ms, tr.energyError, r4.ms, r4.energyError);
    std::fflush(stdout);
    ns.push_back(n), cached.push_back(m.ms), uncached.push_back(u.ms), trap.push_back(tr.ms), rk.push_back(r4.ms);
  }
  std::printf(
      "growth exponent p (time ~ N^p, N >= 4): midpoint cached %.2f, uncached %.2f, trapezoidal %.2f, rk4 %.2f\n",
      exponent(ns, cached), exponent(ns, uncached), exponent(ns, trap), exponent(ns, rk));
  peerTable(ns, cached);
  curledTable();
  return 0;
}
