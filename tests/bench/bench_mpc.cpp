// tests/bench/bench_mpc.cpp — the receding-horizon controller (plan/mpc_controller.h) on the car
// (assets/problems/car_goto.json, horizon 60 segments = 3 s at h = 0.05, a re-plan every 0.1 s, at most 30 Ipopt
// iterations): per re-plan CPU time (p50, p99, max), Ipopt iterations warm (with and without the 1 s cold restart)
// against cold, periods whose solve took longer than the period itself (a live controller would miss them), stale
// solves, and tracking error, for a fixed goal (8 s) and a goal circling at 0.4 m/s (60 s). Prints a Markdown table (a benchmark: no assertions on time).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <string>
#include <tuple>
#include <vector>

#include "plan/mpc_controller.h"
#include "plan/plan_problem.h"
#include "scenes/scene.h"

using namespace varsim;

namespace {

struct Row {
  int solves = 0, stale = 0, missed = 0;
  double meanIterations = 0.0, maxIterations = 0.0, p50 = 0.0, p99 = 0.0, maxMs = 0.0, meanError = 0.0,
         finalError = 0.0;
};

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[size_t(std::min<double>(double(v.size() - 1), std::ceil(q * double(v.size())) - 1))];
}

Row closedLoop(bool warm, double restart, double seconds, bool circling) {
  const PlanSetup setup = loadPlanProblem(std::string(VARSIM_SOURCE_DIR) + "/assets/problems/car_goto.json");
  MpcSettings settings;
  settings.warmStart = warm;
  settings.restart = restart;
  MpcController mpc(setup, settings);
  ParamSet edited = setup.scene.params;
  const auto scene = SceneRegistry::create(setup.scene.scene, edited);
  const double h = scene->dt();
  const long steps = std::lround(seconds / h);
  std::vector<double> ms;
  std::vector<double> row;
  Row out;
  for (long k = 0; k < steps; ++k) {
    if (circling && k % mpc.periodSteps() == 0) {  // 0.1 rad/s on a 4 m circle through the start
      const double a = 0.1 * double(k) * h;
      mpc.setGoal({{"target_x", 4.0 * std::sin(a) + 2.0}, {"target_y", 4.0 - 4.0 * std::cos(a)}});
    }
    const std::clock_t c0 = std::clock();
    const InputVector u = mpc.beforeStep(*scene, edited, k);
    const double cpuMs = 1e3 * double(std::clock() - c0) / CLOCKS_PER_SEC;
    if (mpc.lastSolve().step == k) {
      ms.push_back(cpuMs);
      out.meanIterations += mpc.lastSolve().iterations;
      out.maxIterations = std::max(out.maxIterations, double(mpc.lastSolve().iterations));
      out.missed += cpuMs > 1e3 * mpc.periodSteps() * h;
    }
    scene->step(h, u);
    scene->diagnostics(row);
    out.finalError = std::hypot(row[1] - mpc.goal("target_x"), row[2] - mpc.goal("target_y"));  // columns t, x, y
    out.meanError += out.finalError / double(steps);
  }
  out.solves = mpc.solves();
  out.stale = mpc.staleSolves();
  out.meanIterations /= std::max(1, out.solves);
  out.p50 = percentile(ms, 0.5);
  out.p99 = percentile(ms, 0.99);
  out.maxMs = ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end());
  return out;
}

}  // namespace

int main() {
  std::printf(
      "| goal | start | solves | iterations mean | max | CPU ms p50 | p99 | max | periods missed | stale | "
      "mean tracking error (m) | final (m) |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const bool circling : {false, true})
    for (const auto& [name, warm, restart] : {std::tuple<const char*, bool, double>{"warm, cold restart every 1 s", true, 1.0},
                                               {"warm only", true, 0.0},
                                               {"cold", false, 0.0}}) {
      const Row r = closedLoop(warm, restart, circling ? 60.0 : 8.0, circling);
      std::printf("| %s | %s | %d | %.2f | %.0f | %.2f | %.2f | %.2f | %d | %d | %.3f | %.3f |\n",
                  circling ? "circling 0.4 m/s, 60 s" : "fixed (6, 2), 8 s", name, r.solves,
                  r.meanIterations, r.maxIterations, r.p50, r.p99, r.maxMs, r.missed, r.stale, r.meanError,
                  r.finalError);
    }
  return 0;
}
