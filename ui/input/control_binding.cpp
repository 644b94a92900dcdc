// Default bindings and the deflection ↔ control-unit map.
#include "ui/input/control_binding.h"

#include <algorithm>
#include <cmath>

#include "ui/input/key_names.h"

namespace varsim {

const char* gamepadAxisName(int axis) {
  static const char* names[kGamepadAxisCount] = {"left x", "left y", "right x", "right y", "left trigger",
                                                 "right trigger"};
  return axis >= 0 && axis < kGamepadAxisCount ? names[axis] : "none";
}

const char* gamepadButtonName(int button) {
  static const char* names[kGamepadButtonCount] = {"A",     "B",    "X",    "Y",     "LB",      "RB",  "Back", "Start",
                                                   "Guide", "LS",   "RS",   "DPad up", "DPad right", "DPad down",
                                                   "DPad left"};
  return button >= 0 && button < kGamepadButtonCount ? names[button] : "none";
}

bool KeyboardSnapshot::isDown(int code) const {
  return code >= 0 && std::find(down.begin(), down.end(), code) != down.end();
}

bool isUnipolar(const ControlSpec& c) { return !(c.neutral > c.min); }

double deflectionToValue(const ControlSpec& c, double d) {
  if (!std::isfinite(d)) return c.neutral;
  d = std::clamp(d, -1.0, 1.0);
  if (isUnipolar(c)) return c.neutral + std::max(d, 0.0) * (c.max - c.neutral);
  return d >= 0.0 ? c.neutral + d * (c.max - c.neutral) : c.neutral + d * (c.neutral - c.min);
}

double valueToDeflection(const ControlSpec& c, double v) {
  if (!std::isfinite(v)) return 0.0;
  if (v >= c.neutral) return c.max > c.neutral ? std::min(1.0, (v - c.neutral) / (c.max - c.neutral)) : 0.0;
  return c.neutral > c.min ? std::max(-1.0, -(c.neutral - v) / (c.neutral - c.min)) : 0.0;
}

std::vector<ControlBinding> defaultBindings(const std::vector<ControlSpec>& controls) {
  static const int stickOrder[] = {0, 1, 2, 3};
  static const int triggerOrder[] = {5, 4};
  static const int keyPairs[][2] = {{key::kD, key::kA}, {key::kW, key::kS},  {key::kL, key::kJ},
                                    {key::kI, key::kK}, {key::kE, key::kQ},  {key::kUp, key::kDown},
                                    {key::kO, key::kU}, {key::kH, key::kF}};
  std::vector<ControlBinding> out;
  size_t nextStick = 0, nextTrigger = 0, nextKeys = 0;
  for (const auto& c : controls) {
    ControlBinding b;
    if (isUnipolar(c) && nextTrigger < 2) {
      b.axis = triggerOrder[nextTrigger++];
      b.shaping.cal = AxisCalibration{-1.0, -1.0, 1.0};  // triggers rest at -1
      b.shaping.deadZone = 0.03;
    } else if (nextStick < 4) {
      b.axis = stickOrder[nextStick++];
      b.shaping.invert = b.axis == 1 || b.axis == 3;
    }
    if (nextKeys < std::size(keyPairs)) {
      b.keyPos = keyPairs[nextKeys][0];
      b.keyNeg = keyPairs[nextKeys][1];
      ++nextKeys;
    }
    out.push_back(b);
  }
  return out;
}

ControlBinding sanitizeBinding(ControlBinding b) {
  auto validIndex = [](int i, int n) { return i >= 0 && i < n ? i : -1; };
  b.axis = validIndex(b.axis, kGamepadAxisCount);
  b.buttonPos = validIndex(b.buttonPos, kGamepadButtonCount);
  b.buttonNeg = validIndex(b.buttonNeg, kGamepadButtonCount);
  b.keyPos = validIndex(b.keyPos, key::kMaxCode + 1);
  b.keyNeg = validIndex(b.keyNeg, key::kMaxCode + 1);
  b.rampRate = std::isfinite(b.rampRate) ? std::clamp(b.rampRate, 0.01, 100.0) : 3.0;
  b.shaping = sanitizeShaping(b.shaping);
  return b;
}

}  // namespace varsim
