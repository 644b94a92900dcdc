// tests/bench/bench_mpc_snake.cpp — what a receding-horizon snakeboard plan costs (plan/mpc_controller.h on
// assets/problems/snakeboard_follow.json, the goal moved by snakeboard_follow_goals.csv: held 4 s, then 0.4 m/s along
// the open world for 20 s, held again): per re-plan CPU time (p50, p99, max), periods whose re-plan took more CPU
// than the period, stale re-plans, Ipopt iterations and tracking error, for the preset (horizon 30 = 3 s at
// h = 0.1 s, a re-plan every 0.1 s) and the levers beside it: horizon, step, period, terminal weight, warm start,
// warm-started dynamics multipliers (moved or restarted at zero), KKT solver, iteration budget, cold restarts; or
// one row with the levers of the command line (`bench_mpc_snake levers ...`). Prints a Markdown table (a benchmark:
// no assertions on time).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "mpc_bench_levers.h"
#include "plan/mpc_controller.h"
#include "plan/plan_problem.h"
#include "scenes/scene.h"

using namespace varsim;
using mpc_bench::percentile;

namespace {

struct Lever {
  const char* name = "preset";
  int horizon = 30;
  double dt = 0.1, period = 0.1, terminalWeight = 100.0;
  bool warm = true;
  std::optional<KktSolver> kkt = std::nullopt;          // unset: the snakeboard's default
  std::optional<double> restart = std::nullopt;         // MpcSettings::restart (unset: the snakeboard's default)
  std::optional<int> iterations = std::nullopt;         // MpcSettings::maxIterations (unset: the snakeboard's default)
  std::optional<bool> shiftDynamics = std::nullopt;     // MpcSettings::shiftDynamicsMultipliers (unset: moved)
  std::optional<MpcSettings> settings = std::nullopt;   // the command line's levers (mpc_bench::Levers) instead
  std::vector<std::string> sets;                        // with them: their plan and scene keys (set:key=value)
};

struct GoalLine {
  double t, x, y;
};

std::vector<GoalLine> goalTrack() {
  std::ifstream in(std::string(VARSIM_SOURCE_DIR) + "/assets/problems/snakeboard_follow_goals.csv");
  std::vector<GoalLine> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line[0] == 't') continue;
    std::replace(line.begin(), line.end(), ',', ' ');
    std::istringstream s(line);
    GoalLine g{};
    if (s >> g.t >> g.x >> g.y) out.push_back(g);
  }
  return out;
}

// One closed loop of `seconds`, as `varsim mpc` runs it (goal lines take effect at their time), printed as a row.
void run(const Lever& l, const std::vector<GoalLine>& goals, double seconds) {
  PlanSetup setup = loadPlanProblem(std::string(VARSIM_SOURCE_DIR) + "/assets/problems/snakeboard_follow.json", l.sets);
  MpcSettings settings = l.settings.value_or(MpcSettings{});
  if (!l.settings) {
    setup.scene.params.setReal("dt", l.dt);
    setup.plan.setReal("terminal_weight", l.terminalWeight);
    settings.horizon = l.horizon;
    settings.period = l.period;
    settings.warmStart = l.warm;
    settings.kktSolver = l.kkt;
    settings.restart = l.restart;
    settings.maxIterations = l.iterations;
    settings.shiftDynamicsMultipliers = l.shiftDynamics;
  }
  MpcController mpc(setup, settings);
  ParamSet edited = setup.scene.params;
  const auto scene = SceneRegistry::create("snakeboard", edited);
  const std::vector<std::string> cols = scene->columns();
  const size_t cx = size_t(std::find(cols.begin(), cols.end(), "x") - cols.begin());
  const double h = scene->dt(), period = mpc.periodSteps() * h;
  const long steps = std::lround(seconds / h);
  std::vector<double> ms, row;
  double errorSum = 0.0, error = 0.0, iterations = 0.0;
  int missed = 0;
  size_t next = 0;
  for (long k = 0; k < steps; ++k) {
    for (; next < goals.size() && goals[next].t <= double(k) * h + 1e-12; ++next)
      mpc.setGoal({{"target_x", goals[next].x}, {"target_y", goals[next].y}});
    const std::clock_t c0 = std::clock();
    const InputVector u = mpc.beforeStep(*scene, edited, k);
    const double cpuMs = 1e3 * double(std::clock() - c0) / CLOCKS_PER_SEC;
    if (mpc.lastSolve().step == k) {
      ms.push_back(cpuMs);
      iterations += mpc.lastSolve().iterations;
      missed += cpuMs > 1e3 * period;
    }
    scene->step(h, u);
    scene->diagnostics(row);
    error = std::hypot(row[cx] - mpc.goal("target_x"), row[cx + 1] - mpc.goal("target_y"));
    errorSum += error;
  }
  const int horizon = *mpc.settings().horizon;
  std::printf("| %s | %d (%.1f s) | %.2f | %.1f | %zu | %.1f | %.1f / %.1f / %.1f | %d | %d | %.3f / %.3f |\n", l.name,
              horizon, horizon * h, h, period, ms.size(), iterations / double(std::max<size_t>(1, ms.size())),
              percentile(ms, 0.5), percentile(ms, 0.99), ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end()),
              missed, mpc.staleSolves(), errorSum / double(std::max(1L, steps)), error);
}

}  // namespace

// `bench_mpc_snake`: the preset and the levers below; `bench_mpc_snake levers ...` (mpc_bench::Levers, horizon 30
// unless given, seconds=T: that long, 30 s unless given): one row with those settings.
int main(int argc, char** argv) {
  const std::vector<GoalLine> goals = goalTrack();
  mpc_bench::Levers cli;
  cli.settings.horizon = 30;
  cli.seconds = 30.0;
  if (argc > 1 && (std::string(argv[1]) != "levers" || !cli.parse(argc, argv)))
    return std::printf("usage: bench_mpc_snake [levers key=value...]\n"), 2;
  std::printf("snakeboard_follow, %g s (goal held 4 s, moved at 0.4 m/s for 20 s, held 6 s); CPU per re-plan\n\n",
              cli.seconds);
  std::printf("| settings | horizon | h (s) | period (s) | re-plans | iterations per re-plan | CPU ms p50 / p99 / max | "
              "periods missed | stale | tracking error mean / final (m) |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  if (argc > 1) {
    Lever l;
    l.name = cli.label.c_str(), l.settings = cli.settings, l.sets = cli.sets;
    return run(l, goals, cli.seconds), 0;
  }
  const Lever preset;
  std::vector<Lever> levers = {preset};
  const auto lever = [&](const char* name, auto edit) {
    Lever l = preset;
    l.name = name;
    edit(l);
    levers.push_back(l);
  };
  lever("cold starts", [](Lever& l) { l.warm = false; });
  lever("dynamics multipliers restarted at zero", [](Lever& l) { l.shiftDynamics = false; });
  lever("MUMPS KKT solver, 30 iterations", [](Lever& l) { l.kkt = KktSolver::Mumps, l.iterations = 30; });
  lever("30 iterations", [](Lever& l) { l.iterations = 30; });
  lever("no cold restarts", [](Lever& l) { l.restart = 0.0; });
  lever("terminal weight 10", [](Lever& l) { l.terminalWeight = 10.0; });
  lever("horizon 2 s", [](Lever& l) { l.horizon = 20; });
  lever("horizon 5 s", [](Lever& l) { l.horizon = 50; });
  lever("h = 0.05 s, horizon 3 s", [](Lever& l) { l.dt = 0.05, l.horizon = 60; });
  lever("the reach plan's 160 nodes (8 s at h = 0.05 s)", [](Lever& l) { l.dt = 0.05, l.horizon = 160; });
  for (const Lever& l : levers) run(l, goals, 30.0);
  return 0;
}
