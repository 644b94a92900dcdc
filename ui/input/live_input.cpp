// Live input combination; see header.
#include "ui/input/live_input.h"

#include <algorithm>
#include <cmath>

#include "engine/sim/param.h"

namespace varsim {

void LiveInput::configure(const std::vector<ControlSpec>& controls, std::vector<ControlBinding> bindings) {
  controls_ = controls;
  const auto defaults = defaultBindings(controls);
  if (bindings.size() > controls.size()) bindings.resize(controls.size());
  for (size_t i = bindings.size(); i < controls.size(); ++i) bindings.push_back(defaults[i]);
  bindings_.clear();
  for (const auto& b : bindings) bindings_.push_back(sanitizeBinding(b));
  channels_.assign(controls.size(), Channel{});
  ramps_.assign(controls.size(), 0.0);
  updatePadChannels();
}

void LiveInput::setBinding(size_t i, const ControlBinding& b) {
  if (i < bindings_.size()) bindings_[i] = sanitizeBinding(b);
  updatePadChannels();
}

void LiveInput::resetRamps() { std::fill(ramps_.begin(), ramps_.end(), 0.0); }

void LiveInput::setDevices(const GamepadSnapshot& pad, const KeyboardSnapshot& keys) {
  if (pad.connected && !wasConnected_)
    notices_.push_back("gamepad connected: " + (pad.name.empty() ? std::string("(unnamed)") : pad.name));
  if (!pad.connected && wasConnected_)
    notices_.push_back("gamepad disconnected (" + pad_.name + "): its controls fell back to neutral");
  wasConnected_ = pad.connected;
  pad_ = pad;
  keys_ = keys;
  if (pad.connected) {
    for (int a = 0; a < kGamepadAxisCount; ++a) {
      const bool invalid = !rawAxisValid(pad.axes[size_t(a)]);
      if (invalid && !axisWasInvalid_[size_t(a)])
        notices_.push_back(std::string("gamepad axis '") + gamepadAxisName(a) + "' reported " +
                           formatNumber(pad.axes[size_t(a)]) + " (valid: [-1, 1]): held neutral");
      axisWasInvalid_[size_t(a)] = invalid;
    }
  }
  updatePadChannels();
}

void LiveInput::updatePadChannels() {
  for (size_t i = 0; i < bindings_.size(); ++i) {
    Channel& ch = channels_[i];
    const ControlBinding& b = bindings_[i];
    ch.raw = 0.0;
    ch.rawValid = true;
    ch.padDeflection = 0.0;
    if (pad_.connected && b.axis >= 0) {
      ch.raw = pad_.axes[size_t(b.axis)];
      ch.rawValid = rawAxisValid(ch.raw);
      ch.padDeflection = shapeAxis(ch.raw, b.shaping);  // 0 (neutral) when invalid
    }
    ch.deflection = std::clamp(ch.padDeflection + ch.rampDeflection, -1.0, 1.0);
    ch.value = deflectionToValue(controls_[i], ch.deflection);
  }
}

InputVector LiveInput::inputsForStep(long, double h) {
  InputVector out(controls_.size());
  const double dt = std::isfinite(h) && h > 0.0 ? h : 0.0;
  for (size_t i = 0; i < controls_.size(); ++i) {
    const ControlBinding& b = bindings_[i];
    auto buttonDown = [&](int button) { return pad_.connected && button >= 0 && pad_.buttons[size_t(button)]; };
    auto anyDown = [&](int first, const std::vector<int>& more) {
      if (keys_.isDown(first)) return true;
      for (int k : more)
        if (keys_.isDown(k)) return true;
      return false;
    };
    const bool up = anyDown(b.keyPos, b.moreKeysPos) || buttonDown(b.buttonPos);
    const bool down = anyDown(b.keyNeg, b.moreKeysNeg) || buttonDown(b.buttonNeg);
    const double target = (up ? 1.0 : 0.0) - (down ? 1.0 : 0.0);
    // Releasing returns to rest twice as fast as pushing away from it (a spring-loaded stick).
    const double rate = b.rampRate * (target == 0.0 ? 2.0 : 1.0);
    double& r = ramps_[i];
    r = r < target ? std::min(target, r + rate * dt) : std::max(target, r - rate * dt);
    channels_[i].rampDeflection = r;
  }
  updatePadChannels();
  for (size_t i = 0; i < controls_.size(); ++i) out[i] = channels_[i].value;
  return out;
}

bool LiveInput::touched() const {
  auto anyKey = [&](int first, const std::vector<int>& more) {
    if (keys_.isDown(first)) return true;
    return std::any_of(more.begin(), more.end(), [&](int k) { return keys_.isDown(k); });
  };
  auto button = [&](int b) { return pad_.connected && b >= 0 && pad_.buttons[size_t(b)]; };
  for (size_t i = 0; i < bindings_.size(); ++i) {
    const ControlBinding& b = bindings_[i];
    if (anyKey(b.keyPos, b.moreKeysPos) || anyKey(b.keyNeg, b.moreKeysNeg) || button(b.buttonPos) ||
        button(b.buttonNeg) || channels_[i].padDeflection != 0.0)
      return true;
  }
  return false;
}

std::vector<std::string> LiveInput::takeNotices() {
  std::vector<std::string> out;
  out.swap(notices_);
  return out;
}

}  // namespace varsim
