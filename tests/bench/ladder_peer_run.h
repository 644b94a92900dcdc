// tests/bench/ladder_peer_run.h — the one measuring loop of bench_ladder_ode for every stepper (ours, ODE,
// MuJoCo): process CPU per step (mean, p99), joint gaps (max, RMS over the joints: max and mean over time),
// E − E(0) over time, the blow-up time, and the max gap per time bin, so that short windows and whole-fall
// runs of the peers are measured the same way (issue 16 item 3).
#pragma once

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <vector>

namespace bench {

// One look at a stepper's state after a step: joint-gap RMS and max (m), total energy (J), and whether the
// stepper reports a blow-up of its own (e.g. MuJoCo's constraint-array warnings).
struct GapSample {
  double rms = 0, maxGap = 0, energy = 0, speed = 0;
  bool failed = false;
};

struct RunStats {
  double msPerStep = 0, msP99 = 0, meanRms = 0, maxRms = 0, maxGap = 0, finalEnergy = 0;
  double maxExcess = -std::numeric_limits<double>::infinity();  // max over steps of E − E(0), J
  double blowUpAt = -1;                                         // s, −1 if none
  std::vector<double> binGap, binMs;                            // max gap, mean CPU ms/step in each equal time bin
};

// A run counts as blown up when a gap is non-finite or above stopGap, a speed is above 1e5 m/s, or the
// sample says so. step() advances one step of h; measure() is called once before the first step (E(0)) and
// after every step, outside the timing.
template <class Step, class Measure>
RunStats runLoop(double h, double T, int bins, double stopGap, Step&& step, Measure&& measure) {
  RunStats st;
  st.binGap.assign(size_t(std::max(1, bins)), 0.0);
  st.binMs = st.binGap;
  const long steps = std::lround(T / h);
  const double E0 = measure().energy;
  std::vector<double> ms;
  ms.reserve(size_t(steps));
  long k = 0;
  for (; k < steps; ++k) {
    const std::clock_t c0 = std::clock();
    step();
    ms.push_back(double(std::clock() - c0) / CLOCKS_PER_SEC * 1000.0);
    const GapSample g = measure();
    if (g.failed || !std::isfinite(g.rms) || !std::isfinite(g.maxGap) || g.maxGap > stopGap || !(g.speed < 1e5)) {
      st.blowUpAt = double(k + 1) * h;
      ++k;
      break;
    }
    st.meanRms += g.rms / double(steps);
    st.maxRms = std::max(st.maxRms, g.rms);
    st.maxGap = std::max(st.maxGap, g.maxGap);
    st.maxExcess = std::max(st.maxExcess, g.energy - E0);
    st.finalEnergy = g.energy;
    const size_t bin = std::min(st.binGap.size() - 1, size_t(double(k) / double(steps) * double(st.binGap.size())));
    st.binGap[bin] = std::max(st.binGap[bin], g.maxGap);
    st.binMs[bin] += ms.back() * double(st.binGap.size()) / double(steps);
  }
  double total = 0;
  for (double t : ms) total += t;
  st.msPerStep = total / double(std::max(1L, k));
  if (!ms.empty()) {
    const auto p = ms.begin() + long(0.99 * double(ms.size() - 1));
    std::nth_element(ms.begin(), p, ms.end());
    st.msP99 = *p;
  }
  return st;
}

}  // namespace bench
