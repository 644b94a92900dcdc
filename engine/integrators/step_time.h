// engine/integrators/step_time.h — simulated time of a fixed-step integrator kept as t_anchor + n h, so
// t_k = k h exactly (as the reference CSVs write it) while h is constant, without the round-off of
// summing h; a change of h re-anchors. Also the size/finiteness check shared by saved state vectors.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "engine/sim/errors.h"

namespace varsim {

struct StepTime {
  double anchor = 0.0;  // s, time at which the current h took effect
  long steps = 0;       // steps of size h since the anchor
  double h = 0.0;       // s, current step size (0 before the first step/initialize)

  double now() const { return anchor + double(steps) * h; }
  void reset(double t0, double h0) { anchor = t0, steps = 0, h = h0; }
  // Call once per completed step of size hStep.
  void advance(double hStep) {
    if (hStep != h) reset(now(), hStep);
    ++steps;
  }
  void save(std::vector<double>& out) const { out.insert(out.end(), {anchor, double(steps), h}); }
  void load(const double* in) { anchor = in[0], steps = long(in[1]), h = in[2]; }
};

// Throws BadInput unless `state` has `size` finite numbers; `what` names the owner ("LGVI state").
inline void checkSavedState(const std::vector<double>& state, size_t size, const std::string& what) {
  if (state.size() != size)
    throw BadInput(what + ": expected " + std::to_string(size) + " numbers, got " + std::to_string(state.size()));
  for (double v : state)
    if (!std::isfinite(v)) throw BadInput(what + ": non-finite entry");
}

}  // namespace varsim
