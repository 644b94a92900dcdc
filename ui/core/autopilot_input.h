// ui/core/autopilot_input.h — the driver's live input with the Autopilot (MPC) in the path: the devices are read
// every step as before (their key ramps stay in step with the physics), and while the autopilot flies its
// controls replace theirs. The autopilot's controls thus reach the vehicle where the gamepad's do.
#pragma once

#include "ui/core/autopilot.h"
#include "ui/core/sim_driver.h"
#include "ui/input/input_source.h"

namespace varsim {

class AutopilotInput : public InputSource {
 public:
  AutopilotInput(SimDriver& driver, Autopilot& pilot, InputSource& live) : driver_(driver), pilot_(pilot), live_(live) {}
  InputVector inputsForStep(long step, double h) override {
    InputVector manual = live_.inputsForStep(step, h);
    return pilot_.active() && driver_.loaded() ? pilot_.beforeStep(driver_.scene(), step) : manual;
  }
  bool readyForStep(long step) override { return !pilot_.active() || pilot_.readyFor(step); }

 private:
  SimDriver& driver_;
  Autopilot& pilot_;
  InputSource& live_;
};

}  // namespace varsim
