// Live device input: gamepad axes (shaped per binding), gamepad buttons and keyboard keys (smooth
// ramps advanced per physics step, so holding a key for n steps always gives the same inputs), summed
// per control and mapped to control units. A disconnected or misbehaving device never reaches the
// physics: its contribution becomes neutral and a notice says why.
#pragma once
#include <string>
#include <vector>

#include "ui/input/control_binding.h"
#include "ui/input/input_source.h"

namespace varsim {

class LiveInput : public InputSource {
 public:
  // Per-control view for the mapping panel.
  struct Channel {
    double raw = 0.0;             // raw value of the bound axis (0 if none)
    bool rawValid = true;
    double padDeflection = 0.0;   // shaped axis
    double rampDeflection = 0.0;  // keys/buttons
    double deflection = 0.0;      // sum, clamped to [-1, 1]
    double value = 0.0;           // in control units
  };

  // Resets ramps; bindings are sanitized and padded with defaults to the number of controls.
  void configure(const std::vector<ControlSpec>& controls, std::vector<ControlBinding> bindings);
  const std::vector<ControlSpec>& controls() const { return controls_; }
  const std::vector<ControlBinding>& bindings() const { return bindings_; }
  void setBinding(size_t i, const ControlBinding& b);

  // Called once per frame with the current device state.
  void setDevices(const GamepadSnapshot& pad, const KeyboardSnapshot& keys);
  InputVector inputsForStep(long step, double h) override;
  void resetRamps();

  const std::vector<Channel>& channels() const { return channels_; }
  const GamepadSnapshot& gamepad() const { return pad_; }
  // A control is being touched: a bound key or button held, or a bound stick off its dead zone. The app
  // hands the stick back from a played plan to the user on this (ui/core/plan_playback.h).
  bool touched() const;
  // Device events since the last call (connect, disconnect, invalid axis values).
  std::vector<std::string> takeNotices();

 private:
  void updatePadChannels();

  std::vector<ControlSpec> controls_;
  std::vector<ControlBinding> bindings_;
  std::vector<Channel> channels_;
  std::vector<double> ramps_;
  GamepadSnapshot pad_;
  KeyboardSnapshot keys_;
  bool wasConnected_ = false;
  std::array<bool, kGamepadAxisCount> axisWasInvalid_{};
  std::vector<std::string> notices_;
};

}  // namespace varsim
