// Accumulator clock; see header. Negative or absurd wall times (clock jumps) are ignored.
#include "engine/sim/fixed_step_clock.h"

#include <cmath>

namespace varsim {

int FixedStepClock::advance(double wallDt, double h) {
  if (!(h > 0.0) || !std::isfinite(wallDt) || wallDt < 0.0) return 0;
  accumulator_ += wallDt * speed;
  double steps = std::floor(accumulator_ / h + 1e-9);
  if (steps > maxStepsPerFrame) {
    missed_ += long(steps) - maxStepsPerFrame;
    steps = maxStepsPerFrame;
    accumulator_ = 0.0;
    return int(steps);
  }
  accumulator_ -= steps * h;
  if (accumulator_ < 0.0) accumulator_ = 0.0;
  return int(steps);
}

}  // namespace varsim
