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

const char* const kKeyConventions[4][2] = {
    {"car", "W/\u2191 throttle, S/\u2193 brake (then reverse once stopped), A/D or \u2190/\u2192 steer (centres on release)"},
    {"helicopter", "W/S collective (climb), A/D yaw, \u2191/\u2193 pitch (forward/back), \u2190/\u2192 roll"},
    {"boat", "W/\u2191 both thrusters, A/\u2190 right thruster only (turn left), D/\u2192 left only (no reverse)"},
    {"snakeboard", "gait off: W/S or \u2191/\u2193 twist the torso, A/D or \u2190/\u2192 steer; to ride, pump: W+A, then "
                   "S+D, switching about once a second"},
};

namespace {

struct KeyConvention {
  const char* control;
  bool flight;  // applies in a scene with pitch and roll controls (helicopter)
  int keyPos;
  std::vector<int> morePos;
  int keyNeg;
  std::vector<int> moreNeg;
};

// Game conventions by control name (see the header); the first match for the scene's kind wins.
const std::vector<KeyConvention>& keyConventions() {
  using namespace key;
  static const std::vector<KeyConvention> table = {
      {"throttle", true, kW, {}, kS, {}},
      {"yaw", true, kD, {}, kA, {}},
      {"pitch", true, kUp, {}, kDown, {}},
      {"roll", true, kRight, {}, kLeft, {}},
      {"throttle", false, kW, {kUp}, kNone, {}},
      {"brake", false, kS, {kDown}, kNone, {}},
      {"steer", false, kD, {kRight}, kA, {kLeft}},
      {"rotor", false, kW, {kUp}, kS, {kDown}},
      {"thrust_left", false, kW, {kUp, kD, kRight}, kNone, {}},
      {"thrust_right", false, kW, {kUp, kA, kLeft}, kNone, {}},
  };
  return table;
}

const KeyConvention* conventionFor(const std::string& control, bool flight) {
  for (const auto& c : keyConventions())
    if (c.flight == flight && control == c.control) return &c;
  return nullptr;
}

bool hasControl(const std::vector<ControlSpec>& controls, const char* name) {
  for (const auto& c : controls)
    if (c.name == name) return true;
  return false;
}

std::string keyLabel(int code) {
  switch (code) {
    case key::kUp: return "\u2191";
    case key::kDown: return "\u2193";
    case key::kLeft: return "\u2190";
    case key::kRight: return "\u2192";
    default: return keyName(code);
  }
}

}  // namespace

std::string keysLabel(int first, const std::vector<int>& more) {
  std::string out = first >= 0 ? keyLabel(first) : "";
  for (int k : more) out += (out.empty() ? "" : "/") + keyLabel(k);
  return out;
}

std::vector<ControlBinding> defaultBindings(const std::vector<ControlSpec>& controls) {
  static const int stickOrder[] = {0, 1, 2, 3};
  static const int triggerOrder[] = {5, 4};
  static const int keyPairs[][2] = {{key::kD, key::kA}, {key::kW, key::kS},  {key::kL, key::kJ},
                                    {key::kI, key::kK}, {key::kE, key::kQ},  {key::kUp, key::kDown},
                                    {key::kO, key::kU}, {key::kH, key::kF}};
  std::vector<ControlBinding> out;
  size_t nextStick = 0, nextTrigger = 0, nextKeys = 0;
  const bool flight = hasControl(controls, "pitch") && hasControl(controls, "roll");
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
    if (const KeyConvention* k = conventionFor(c.name, flight)) {
      b.keyPos = k->keyPos;
      b.moreKeysPos = k->morePos;
      b.keyNeg = k->keyNeg;
      b.moreKeysNeg = k->moreNeg;
    } else if (nextKeys < std::size(keyPairs)) {
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
  for (auto* more : {&b.moreKeysPos, &b.moreKeysNeg}) {
    std::vector<int> kept;
    for (int k : *more)
      if (validIndex(k, key::kMaxCode + 1) >= 0 && kept.size() < 3) kept.push_back(k);
    *more = kept;
  }
  b.rampRate = std::isfinite(b.rampRate) ? std::clamp(b.rampRate, 0.01, 100.0) : 3.0;
  b.shaping = sanitizeShaping(b.shaping);
  return b;
}

}  // namespace varsim

namespace varsim {

std::string bindingKeysText(const ControlSpec& control, const ControlBinding& b) {
  const std::string pos = keysLabel(b.keyPos, b.moreKeysPos), neg = keysLabel(b.keyNeg, b.moreKeysNeg);
  if (neg.empty() || isUnipolar(control)) return pos;
  return pos.empty() ? neg : neg + " | " + pos;
}

std::string keyboardLegend(const std::vector<ControlSpec>& controls, const std::vector<ControlBinding>& bindings) {
  std::string out;
  for (size_t i = 0; i < controls.size() && i < bindings.size(); ++i) {
    const std::string keys = bindingKeysText(controls[i], bindings[i]);
    if (!keys.empty()) out += (out.empty() ? "" : "  \u00b7  ") + controls[i].name + " " + keys;
  }
  return out;
}

}  // namespace varsim
