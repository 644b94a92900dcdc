// scenes/marionette/marionette_controls.h — how the player's controls move the marionette's kinematic variables: sticks/W-A-S-D
// and E/Q set the bar's velocity, the tilt controls a roll/pitch target, the triggers a hand-string pull target. Every
// channel moves with bounded speed and acceleration, as a hand would, so neither a gamepad jump nor a key press jerks
// the strings (a jump in the bar's velocity is an impact for inextensible strings, and one the implicit step may not
// resolve). Pure state + inputs -> next state.
#pragma once

#include <array>
#include <vector>

#include "engine/sim/system.h"

namespace varsim {

// Control order (the input layer's default bindings follow it: bar_x, bar_y on the left stick and D/A, W/S; roll, pitch
// on the right stick and the arrows; pulls on the triggers and L, I; bar_z on E/Q).
enum MarionetteControl { kCtlBarX, kCtlBarY, kCtlRoll, kCtlPitch, kCtlPullRight, kCtlPullLeft, kCtlBarZ, kCtlCount };
std::vector<ControlSpec> marionetteControls();

struct MarionetteLimits {
  double speed = 0.4;     // m/s of the bar at full deflection
  double tilt = 0.3;      // rad, roll/pitch at full deflection
  double pull = 0.25;     // m, hand-string shortening at full trigger
  double tiltRate = 2.0;  // rad/s, the fastest tilt
  double pullRate = 0.6;  // m/s, the fastest pull
  double follow = 8.0;    // 1/s: tilts and pulls head for their targets at follow * distance (at most the rate)
  double accel = 3.0, tiltAccel = 20.0, pullAccel = 6.0;  // m/s², rad/s², m/s²
  double reach = 1.5;                                     // m, |bar x|, |bar y| <= reach
  double below = 0.1, above = 0.3;  // m the bar may go below/above its rest height (below, strings slacken)
};

// Channels: bar x, y, z (m), roll, pitch (rad) — the kinematic variables of MarionetteModel::Bar — then the left and
// right hand-string pulls (m).
enum MarionetteChannel { kChX, kChY, kChZ, kChRoll, kChPitch, kChPullL, kChPullR, kChCount };

struct MarionetteBarState {
  std::array<double, kChCount> pos{}, vel{};
  // The state after one step of h with (sanitized) inputs; restHeight is the bar's rest z.
  MarionetteBarState advanced(const InputVector& in, double h, const MarionetteLimits& lim, double restHeight) const;
};

}  // namespace varsim
