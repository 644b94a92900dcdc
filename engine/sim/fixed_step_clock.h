// Fixed-step clock (MuJoCo simulate / "fix your timestep"): physics advances in whole steps of h
// while simulated time tracks wall time × speed. Frame timing only decides how many steps run per
// frame, never their size, so a slow frame cannot change the trajectory.
#pragma once

namespace varsim {

class FixedStepClock {
 public:
  double speed = 1.0;           // simulated seconds per wall second (0.1 … 4)
  int maxStepsPerFrame = 240;   // beyond this the backlog is dropped (counted as missed ticks)

  // Steps to run for a frame that took wallDt seconds at step size h.
  int advance(double wallDt, double h);
  void reset() { accumulator_ = 0.0; }
  long missedTicks() const { return missed_; }

 private:
  double accumulator_ = 0.0;
  long missed_ = 0;
};

}  // namespace varsim
