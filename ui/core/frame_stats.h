// Frame-time statistics: rolling rates for the UI (FPS, achieved physics rate, step cost) and the
// report of `varsim --bench-frames` (histogram, p50/p99, missed physics ticks).
#pragma once
#include <string>
#include <vector>

namespace varsim {

// Rates over the last completed quarter-second of wall time (a plain count, not an average of
// per-frame ratios, which would be biased when frames alternate between 0 and 2 physics steps).
class RateMeter {
 public:
  void update(double frameSeconds, int stepsThisFrame, double stepMicros);
  double fps() const { return fps_; }
  double physicsHz() const { return physicsHz_; }
  double stepMicros() const { return stepMicros_; }

 private:
  double fps_ = 0.0, physicsHz_ = 0.0, stepMicros_ = 0.0;
  double elapsed_ = 0.0, microsSum_ = 0.0;
  long frames_ = 0, steps_ = 0;
};

// Measured real-time ratio over the last completed window of running wall time: ratio() = simulated
// seconds / wall seconds (what the HUD shows), factor() = ratio / speed (the achieved fraction of the
// chosen speed). A window is at least 1 s and 8 of the largest simulated increments one frame made,
// so coarse steps (dt = 0.5 s) do not quantise it. Frames while paused, diverged or viewing the past
// do not count and restart the window. behind() drives the app's "slower than real time" line.
class RealTimeMeter {
 public:
  void update(double wallSeconds, double simulatedSeconds, double speed, bool running);
  double factor() const { return factor_; }
  double ratio() const { return ratio_; }
  bool measured() const { return ratio_ >= 0.0; }  // false until a window completed since the last restart
  bool behind() const { return factor_ < kBehind; }
  static constexpr double kBehind = 0.95;  // a 1 s window of 60 steps resolves 1/60; 0.95 is 3 steps short

 private:
  double factor_ = 1.0, ratio_ = -1.0, wall_ = 0.0, simulated_ = 0.0, increment_ = 0.0;
};

class FrameTimeLog {
 public:
  void add(double frameMs, double workMs) { frameMs_.push_back(frameMs); workMs_.push_back(workMs); }
  size_t count() const { return frameMs_.size(); }
  static double percentile(std::vector<double> values, double p);  // p in [0, 100], nearest rank
  double framePercentile(double p) const { return percentile(frameMs_, p); }
  double workPercentile(double p) const { return percentile(workMs_, p); }
  // Counts of frame times per bin [edges[i], edges[i+1]) ms, the last bin open-ended.
  static std::vector<long> histogram(const std::vector<double>& values, const std::vector<double>& edges);
  std::string report(long physicsSteps, long missedTicks, double wallSeconds, double h) const;

 private:
  std::vector<double> frameMs_, workMs_;
};

}  // namespace varsim
