// Which device element drives each ControlSpec of a scene: a gamepad axis (standard mapping order),
// gamepad buttons, keyboard keys, plus the axis shaping. Also the device snapshots the app fills each
// frame (plain data: the GLFW side lives in ui/app) and the map from deflection to control units.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "engine/sim/system.h"
#include "ui/input/axis_shaping.h"

namespace varsim {

// GLFW standard gamepad layout (SDL_GameControllerDB names).
constexpr int kGamepadAxisCount = 6;     // left x, left y, right x, right y, left trigger, right trigger
constexpr int kGamepadButtonCount = 15;  // A B X Y LB RB Back Start Guide LS RS Up Right Down Left
const char* gamepadAxisName(int axis);   // "left x", …; "none" for -1
const char* gamepadButtonName(int button);

struct GamepadSnapshot {
  bool connected = false;
  std::string name;
  std::array<double, kGamepadAxisCount> axes{};  // raw, nominally [-1, 1] (triggers rest at -1)
  std::array<bool, kGamepadButtonCount> buttons{};
};

struct KeyboardSnapshot {
  std::vector<int> down;  // key codes (ui/input/key_names.h) currently held
  bool isDown(int code) const;
};

struct ControlBinding {
  int axis = -1;                        // gamepad axis, -1 none
  int buttonPos = -1, buttonNeg = -1;   // buttons ramping the deflection to +1 / -1
  int keyPos = -1, keyNeg = -1;         // keyboard fallback, same ramp
  std::vector<int> moreKeysPos, moreKeysNeg;  // further keys doing the same (the arrows beside W/A/S/D), <= 3 each
  double rampRate = 3.0;                // keys/buttons: deflection change per simulated second, (0, 100]
  AxisShaping shaping;
};

// A control is unipolar when its neutral sits at its minimum (throttle, collective): only positive
// deflections move it. Otherwise deflection ±1 reaches max/min and 0 is neutral.
bool isUnipolar(const ControlSpec& c);
double deflectionToValue(const ControlSpec& c, double deflection);  // deflection clamped to [-1, 1]
double valueToDeflection(const ControlSpec& c, double value);       // inverse, for the mapping panel

// Sensible defaults for a scene without saved mapping: bipolar controls take the sticks in order
// (left x, left y, right x, right y; y inverted so "up" is positive), unipolar ones the triggers.
// Keys follow game conventions by control name (kKeyConventions; history stepping uses , and . so
// the arrows are free):
//   ground vehicles  throttle W/Up, brake S/Down, steer D/Right (+, right) A/Left (-), rotor W/Up S/Down,
//                    boat thrust_left W/Up/D/Right, thrust_right W/Up/A/Left (A turns left: right thruster)
//   flight (a scene with pitch and roll)  throttle W/S, yaw D/A, pitch Up/Down, roll Right/Left
// Other controls take the pairs D/A, W/S, L/J, I/K, E/Q, Up/Down, O/U, H/F in order.
std::vector<ControlBinding> defaultBindings(const std::vector<ControlSpec>& controls);
ControlBinding sanitizeBinding(ControlBinding b);  // clamps indices/rates to valid values, drops bad keys
// The keys of every binding as one line for the HUD: "throttle W/↑ · brake S/↓ · steer A/← | D/→"
// (bipolar controls: negative keys | positive keys); empty when no key is bound.
std::string keyboardLegend(const std::vector<ControlSpec>& controls, const std::vector<ControlBinding>& bindings);
// One binding's keys as the legend writes them: "W/↑" (unipolar or one direction) or "S/↓ | W/↑" (neg | pos).
std::string bindingKeysText(const ControlSpec& control, const ControlBinding& binding);
// Key codes as the HUD writes them ("W/↑"); first = -1 for none.
std::string keysLabel(int first, const std::vector<int>& more);
// The one table of game conventions (F1 help shows it), one line per vehicle kind.
extern const char* const kKeyConventions[4][2];

}  // namespace varsim
