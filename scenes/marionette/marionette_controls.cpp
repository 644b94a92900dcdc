// scenes/marionette/marionette_controls.cpp — the marionette's control specs and bar/string motion (see the header).
#include "scenes/marionette/marionette_controls.h"

#include <algorithm>
#include <cmath>

namespace varsim {

namespace {

// Moves x toward target by at most maxStep.
double approach(double x, double target, double maxStep) { return x + std::clamp(target - x, -maxStep, maxStep); }

}  // namespace

std::vector<ControlSpec> marionetteControls() {
  return {
      {"bar_x", -1, 1, 0, "moves the bar along +x (the puppet's left) at speed * bar_x (D/A, left stick)"},
      {"bar_y", -1, 1, 0, "moves the bar along +y (away from the viewer) at speed * bar_y (W/S, left stick)"},
      {"roll", -1, 1, 0, "tilts the bar about y to tilt * roll, +x side down (lifts the right hand and knee: walk)"},
      {"pitch", -1, 1, 0, "tilts the bar about x to tilt * pitch, front down (the puppet bows)"},
      {"pull_right", 0, 1, 0, "shortens the right-hand string by pull * pull_right (wave)"},
      {"pull_left", 0, 1, 0, "shortens the left-hand string by pull * pull_left"},
      {"bar_z", -1, 1, 0, "raises the bar at speed * bar_z (E up, Q down)"},
  };
}

MarionetteBarState MarionetteBarState::advanced(const InputVector& in, double h, const MarionetteLimits& lim,
                                                double restHeight) const {
  // Wanted velocity per channel: the stick's for the translations, toward the target for tilts and pulls.
  auto toward = [&](int c, double target, double rate) {
    return std::clamp(lim.follow * (target - pos[c]), -rate, rate);
  };
  const double want[kChCount] = {lim.speed * in[kCtlBarX],
                                 lim.speed * in[kCtlBarY],
                                 lim.speed * in[kCtlBarZ],
                                 toward(kChRoll, lim.tilt * in[kCtlRoll], lim.tiltRate),
                                 toward(kChPitch, lim.tilt * in[kCtlPitch], lim.tiltRate),
                                 toward(kChPullL, lim.pull * in[kCtlPullLeft], lim.pullRate),
                                 toward(kChPullR, lim.pull * in[kCtlPullRight], lim.pullRate)};
  const double accel[kChCount] = {lim.accel,     lim.accel,     lim.accel,    lim.tiltAccel,
                                  lim.tiltAccel, lim.pullAccel, lim.pullAccel};
  const double lo[kChCount] = {-lim.reach, -lim.reach, restHeight - lim.below, -lim.tilt, -lim.tilt, 0, 0};
  const double hi[kChCount] = {lim.reach, lim.reach, restHeight + lim.above, lim.tilt, lim.tilt, lim.pull, lim.pull};
  MarionetteBarState next;
  for (int c = 0; c < kChCount; ++c) {
    // Brake ahead of the range's ends so that the bar stops there within its acceleration (v² <= 2 a distance).
    const double room = std::sqrt(2 * accel[c] * std::max(0.0, hi[c] - pos[c])),
                 roomBack = std::sqrt(2 * accel[c] * std::max(0.0, pos[c] - lo[c]));
    next.vel[c] = approach(vel[c], std::clamp(want[c], -roomBack, room), h * accel[c]);
    next.pos[c] = std::clamp(pos[c] + h * next.vel[c], lo[c], hi[c]);
    if (next.pos[c] == lo[c] || next.pos[c] == hi[c]) next.vel[c] = (next.pos[c] - pos[c]) / h;  // stopped at a wall
  }
  return next;
}

}  // namespace varsim
