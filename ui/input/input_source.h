// Where the physics inputs of each step come from: the live devices or a recorded track. The driver
// asks once per physics step (never per frame), which is what makes replay exact and the trajectory
// independent of the render frame rate.
#pragma once
#include "engine/sim/input_track.h"
#include "engine/sim/system.h"

namespace varsim {

class InputSource {
 public:
  virtual ~InputSource() = default;
  // Inputs (control units) for physics step `step` (0 = first step after reset) of size h.
  virtual InputVector inputsForStep(long step, double h) = 0;
  // False while the inputs of `step` are not ready (the Autopilot's re-plan for it still running): the driver's
  // frame runs no further steps (they are owed, and beyond the backlog limit missed: slower than real time)
  // instead of blocking. A single step (stepOnce) asks inputsForStep regardless, which then waits.
  virtual bool readyForStep(long /*step*/) { return true; }
};

// Replays a recorded InputTrack exactly by step; past its last row the last values hold.
class ReplayInput : public InputSource {
 public:
  explicit ReplayInput(InputTrack track) : track_(std::move(track)) {}
  InputVector inputsForStep(long step, double) override { return track_.at(step); }
  const InputTrack& track() const { return track_; }
  bool finished(long step) const { return step > track_.lastStep(); }

 private:
  InputTrack track_;
};

}  // namespace varsim
