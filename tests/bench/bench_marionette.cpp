// Benchmark (prints a table; not a timed test): issue 11, "marionette: cost per step at 60 Hz with all strings, and
// the string residual". The scene `marionette` at h = 1/60 s plays the recorded walk and wave
// (assets/inputs/marionette_walk.csv, 10.5 s, then 6.5 s standing) and, separately, stands still for 17 s, with 2..6
// strings. Columns: CPU time per step (thread CPU: the machine is shared) mean, median, 99th percentile and max in ms;
// Newton iterations per step (all active-set passes) mean and max; the largest string residual (|h| of a taut string,
// stretch of a slack one) in m; and the share of the 16.7 ms real-time budget the mean step takes.
// Usage: bench_marionette [--strings N] (only that count).
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "engine/sim/input_track.h"
#include "scenes/scene.h"

using namespace varsim;

namespace {

double cpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

double column(const std::vector<std::string>& names, const std::vector<double>& row, const char* name) {
  return row[size_t(std::find(names.begin(), names.end(), name) - names.begin())];
}

void runCase(int strings, bool walk) {
  ParamSet p = SceneRegistry::defaults("marionette");
  p.setFromString("strings", std::to_string(strings), "bench");
  auto scene = SceneRegistry::create("marionette", p);
  const double h = scene->dt();
  const InputTrack track =
      walk ? InputTrack::load(std::string(VARSIM_ASSET_DIR) + "/inputs/marionette_walk.csv", scene->controls(), h)
           : InputTrack();
  const InputVector still(scene->controls().size(), 0.0);
  const std::vector<std::string> names = scene->columns();
  std::vector<double> ms, row;
  double iterations = 0, maxIterations = 0, residual = 0;
  const long steps = std::lround(17.0 / h);
  for (long k = 0; k < steps; ++k) {
    const double t0 = cpuMs();
    scene->step(h, walk ? track.at(k) : still);
    ms.push_back(cpuMs() - t0);
    scene->diagnostics(row);
    const double it = column(names, row, "newton_iters");
    iterations += it, maxIterations = std::max(maxIterations, it);
    residual = std::max(residual, column(names, row, "constraint_max"));
  }
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  double mean = 0;
  for (double x : ms) mean += x / double(ms.size());
  std::printf("| %d | %-5s | %6.3f | %6.3f | %6.3f | %6.2f | %5.2f | %3.0f | %.1e | %4.1f %% |\n", strings,
              walk ? "walk" : "still", mean, sorted[sorted.size() / 2], sorted[sorted.size() * 99 / 100], sorted.back(),
              iterations / double(steps), maxIterations, residual, 100 * mean / (1000 * h));
}

}  // namespace

int main(int argc, char** argv) {
  int only = 0;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--strings") == 0) only = std::atoi(argv[i + 1]);
  std::printf("marionette, 25 dynamic DOF, h = 1/60 s, 17 s per row\n\n");
  std::printf(
      "| strings | input | mean ms | median ms | p99 ms | max ms | Newton mean | max | max residual m | of 16.7 ms "
      "|\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (int n = 6; n >= 2; --n) {
    if (only && n != only) continue;
    runCase(n, true);
    runCase(n, false);
  }
  return 0;
}
