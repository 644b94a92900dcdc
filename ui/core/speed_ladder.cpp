// Speed presets; see header.
#include "ui/core/speed_ladder.h"

#include <algorithm>
#include <cmath>

namespace varsim {

double clampSpeed(double speed) {
  if (!std::isfinite(speed)) return 1.0;
  return std::clamp(speed, kSpeedLadder.front(), kSpeedLadder.back());
}

double fasterSpeed(double speed) {
  speed = clampSpeed(speed);
  for (double s : kSpeedLadder)
    if (s > speed * (1.0 + 1e-9)) return s;
  return kSpeedLadder.back();
}

double slowerSpeed(double speed) {
  speed = clampSpeed(speed);
  for (auto it = kSpeedLadder.rbegin(); it != kSpeedLadder.rend(); ++it)
    if (*it < speed * (1.0 - 1e-9)) return *it;
  return kSpeedLadder.front();
}

}  // namespace varsim
