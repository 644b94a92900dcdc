// ui/core/plan_playback.h — Play of a converged plan and the hand-over to the user. Play loads the scene at the
// plan's start parameters and replays the plan's input track from step 0 through the ordinary stepper: the
// same path as `varsim run SCENE --set ... --input plan_inputs.csv`, so the flight is bit-identical to the
// headless replay. The input source then reads "plan"; touching any control (key, button, stick) or reaching
// the plan's last step switches it to "live" at once: the replay stops where the vehicle is, and the live
// parameters the plan's events set (e.g. the car's torque, steer_rate, return_to_centre) return to the values
// they had before Play, through the driver (recorded like any edit).
#pragma once

#include <string>

#include "ui/core/plan_job.h"
#include "ui/core/sim_driver.h"

namespace varsim {

class PlanPlayback {
 public:
  enum class Source { Live, Plan };

  // Throws BadInput (the scene refuses the start parameters; the driver keeps its scene).
  void play(SimDriver& driver, const std::string& scene, const PlanOutcome& plan);
  // Once per frame, before the driver steps: a touched control takes over. Returns a notice when it switched.
  std::string update(SimDriver& driver, bool controlsTouched);
  // After every driver step (SimDriver::afterStep): the plan's end takes over exactly at step N, so no step
  // runs on the held last inputs. Returns a notice when it switched.
  std::string afterStep(SimDriver& driver);
  // Back to live without a notice (a new Plan or Play; a scene switch): parameters restored while the replay runs.
  void stop(SimDriver& driver);

  Source source() const { return source_; }
  long steps() const { return steps_; }
  // "input: plan, step k / N (touch a control to take over)" or "input: live (plan handed over at step k)".
  std::string hudLine(const SimDriver& driver) const;

 private:
  std::string takeOver(SimDriver& driver, const std::string& why);

  Source source_ = Source::Live;
  long steps_ = 0, handedOverAt_ = -1;
  std::vector<std::pair<std::string, ParamValue>> restore_;  // live values the plan's events overrode
};

}  // namespace varsim
