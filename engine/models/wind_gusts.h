// engine/models/wind_gusts.h — a seeded gust model for the vehicles' disturbances (issue 34 item 2): the gust
// velocity is linear between samples drawn once a second, each horizontal component normal with standard deviation
// `strength` (vertical: 0.3 strength), from a counter-based generator, so the same seed gives the same gusts on
// every platform and a gust at time t needs no history (a scene can be restored to any step).
#pragma once

#include <cstdint>

#include "engine/lie/lie_types.h"

namespace varsim {

struct GustSettings {
  double strength = 0.0;   // m/s, standard deviation of the horizontal components (0: no gusts)
  std::uint64_t seed = 1;  // which gust sequence
  double period = 1.0;     // s between samples
};

// Gust velocity (world, m/s) at time t >= 0; zero when strength is 0.
Vector3d gustVelocity(const GustSettings& s, double t);

}  // namespace varsim
