// engine/models/planar_obstacles.h — solid scenery for the planar vehicles (car, snakeboard): oriented
// rectangles in the ground plane, a rectangular vehicle footprint in the body frame, their separation or
// penetration (separating-axis test), and the swept test along one step's SE(2) segment g_k exp(lambda h xi_k),
// lambda in [0, 1], that finds where the footprint first touches an obstacle. The impact law that acts on
// the touching vehicle lives with its step (engine/integrators/planar_impact.h).
#pragma once

#include <vector>

#include "engine/lie/se2.h"

namespace varsim {

// An obstacle: a rectangle of half extents (halfX, halfY) centred at (cx, cy), turned by `heading`.
struct PlanarBox {
  double cx = 0.0, cy = 0.0;        // m, world centre
  double heading = 0.0;             // rad, about world z
  double halfX = 0.5, halfY = 0.5;  // m, > 0
};

// The vehicle's outline in its body frame (the frame of the pose g), m; xMin < xMax, yMin < yMax.
struct Footprint {
  double xMin = -0.5, xMax = 0.5, yMin = -0.5, yMax = 0.5;
};

// Signed separation along the best separating axis of the four edge normals: > 0 the two rectangles are
// apart by at least this much (m); <= 0 they overlap and -value is the penetration depth (the smallest
// translation that separates them).
double separation(const Footprint& f, const se2::Pose2& g, const PlanarBox& b);
// Smallest separation over all obstacles (+inf without obstacles) and which obstacle gives it (-1 none).
double clearance(const Footprint& f, const se2::Pose2& g, const std::vector<PlanarBox>& obstacles, int* which = nullptr);
// Throws BadInput naming `where` unless the footprint and every box have finite, positive extents.
void validateObstacles(const Footprint& f, const std::vector<PlanarBox>& obstacles, const char* where);

// Result of sweeping the footprint from g0 along g0 exp(lambda v), lambda in [0, 1] (v = h xi_k).
struct SweptContact {
  bool hit = false;     // the footprint reaches an obstacle before lambda = 1
  double lambda = 1.0;  // largest fraction of the segment before the touch (the pose there does not overlap)
  int obstacle = -1;    // index of the obstacle touched
};
// Samples the segment finely enough that neither footprint nor obstacle can be jumped over (a quarter of
// the smallest extent per sample), then bisects the first blocked interval to round-off. An obstacle
// already overlapping at lambda = 0 blocks only motion that deepens the overlap, so a vehicle placed
// inside can still leave.
SweptContact sweep(const Footprint& f, const se2::Pose2& g0, const Vector3d& v, const std::vector<PlanarBox>& obstacles);

}  // namespace varsim
