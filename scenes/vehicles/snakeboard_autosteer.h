// scenes/vehicles/snakeboard_autosteer.h — what the snakeboard's auto-gait does for a rider who does not steer: it
// pumps up to a cruise speed and then glides (the frictionless board otherwise gains speed for ever: measured
// 0.3 m/s per s at the default gait, 18 m/s after a minute in the open), and it steers its trim towards the clearest
// of a few arcs ahead (walls and crates of the arena), so the default ride stays in the arena.
#pragma once

#include <vector>

#include "engine/lie/se2.h"
#include "engine/models/planar_obstacles.h"

namespace varsim {

// Factor on the gait's rotor amplitude: 1 below 75 % of the cruise speed, 0 at and above it, linear between
// (the rotor's pumping is what adds momentum, seed 000 Sec. 5.2.2; without it the momentum is conserved while
// the steering oscillates). cruise <= 0: always 1.
double cruiseFactor(double speed, double cruise);

// Steering trim (rad, > 0 turns left) the gait should hold at pose g, moving at `speed` (m/s, > 0 along body -x) on
// wheels at +-l from the centre: of the arcs of constant trim in {-maxTrim, -maxTrim/2, 0, maxTrim/2, maxTrim}
// over the next max(2 m, 2.5 s * speed), the straight one while its clearance stays above 1.5 m, else the one
// with the largest clearance at its checkpoints (ties to the smaller turn). No obstacles: 0.
double autoSteerTrim(const se2::Pose2& g, double speed, double l, double maxTrim, const Footprint& footprint,
                     const std::vector<PlanarBox>& obstacles);

}  // namespace varsim
