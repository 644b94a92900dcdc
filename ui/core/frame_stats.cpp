// Frame statistics; see header.
#include "ui/core/frame_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace varsim {

void RateMeter::update(double frameSeconds, int steps, double stepMicros) {
  if (!(frameSeconds >= 0.0) || !std::isfinite(frameSeconds)) return;
  elapsed_ += frameSeconds;
  ++frames_;
  steps_ += steps;
  microsSum_ += steps > 0 ? stepMicros * steps : 0.0;  // the driver reports the last step's cost
  if (elapsed_ < 0.25) return;
  fps_ = double(frames_) / elapsed_;
  physicsHz_ = double(steps_) / elapsed_;
  if (steps_ > 0) stepMicros_ = microsSum_ / double(steps_);
  elapsed_ = microsSum_ = 0.0;
  frames_ = steps_ = 0;
}

void RealTimeMeter::update(double wallSeconds, double simulatedSeconds, double speed, bool running) {
  if (!running || !(speed > 0.0)) {
    wall_ = simulated_ = increment_ = 0.0;
    factor_ = 1.0;
    ratio_ = -1.0;
    return;
  }
  if (!(wallSeconds >= 0.0) || !std::isfinite(wallSeconds) || !std::isfinite(simulatedSeconds)) return;
  wall_ += wallSeconds;
  simulated_ += simulatedSeconds;
  increment_ = std::max(increment_, simulatedSeconds);
  if (wall_ < std::max(1.0, 8.0 * increment_ / speed)) return;
  ratio_ = simulated_ / wall_;
  factor_ = ratio_ / speed;
  wall_ = simulated_ = 0.0;
}

double FrameTimeLog::percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0.0;
  p = std::clamp(p, 0.0, 100.0);
  const size_t rank = size_t(std::ceil(p / 100.0 * double(v.size())));
  const size_t k = rank == 0 ? 0 : rank - 1;
  std::nth_element(v.begin(), v.begin() + long(k), v.end());
  return v[k];
}

std::vector<long> FrameTimeLog::histogram(const std::vector<double>& values, const std::vector<double>& edges) {
  std::vector<long> counts(edges.size(), 0);
  for (double v : values) {
    size_t bin = 0;
    while (bin + 1 < edges.size() && v >= edges[bin + 1]) ++bin;
    ++counts[bin];
  }
  return counts;
}

std::string FrameTimeLog::report(long physicsSteps, long missedTicks, double wallSeconds, double h) const {
  const std::vector<double> edges = {0, 2, 4, 6, 8, 10, 12, 14, 16.7, 20, 25, 33.3, 50};
  std::string out;
  char line[200];
  std::snprintf(line, sizeof line, "frames %zu over %.2f s wall (%.1f FPS)\n", count(), wallSeconds,
                wallSeconds > 0 ? double(count()) / wallSeconds : 0.0);
  out += line;
  std::snprintf(line, sizeof line, "frame interval ms: p50 %.2f  p99 %.2f  max %.2f\n", framePercentile(50),
                framePercentile(99), framePercentile(100));
  out += line;
  std::snprintf(line, sizeof line, "frame work ms (physics+UI+render to glFinish): p50 %.2f  p99 %.2f  max %.2f\n",
                workPercentile(50), workPercentile(99), workPercentile(100));
  out += line;
  const double expected = h > 0 ? wallSeconds / h : 0.0;
  std::snprintf(line, sizeof line, "physics steps %ld (wall/h = %.0f), missed ticks %ld\n", physicsSteps, expected,
                missedTicks);
  out += line;
  for (int which = 0; which < 2; ++which) {
    const auto& values = which == 0 ? frameMs_ : workMs_;
    out += which == 0 ? "histogram of frame interval:\n" : "histogram of frame work:\n";
    const auto counts = histogram(values, edges);
    const long maxCount = std::max<long>(1, *std::max_element(counts.begin(), counts.end()));
    for (size_t b = 0; b < edges.size(); ++b) {
      char label[40];
      if (b + 1 < edges.size()) std::snprintf(label, sizeof label, "%5.1f-%5.1f ms", edges[b], edges[b + 1]);
      else std::snprintf(label, sizeof label, "   >= %5.1f ms", edges[b]);
      const int bar = int(std::lround(40.0 * double(counts[b]) / double(maxCount)));
      std::snprintf(line, sizeof line, "  %s %7ld %s\n", label, counts[b], std::string(size_t(bar), '#').c_str());
      out += line;
    }
  }
  return out;
}

}  // namespace varsim
