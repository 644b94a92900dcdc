// scenes/vehicles/snakeboard_autosteer.cpp — the auto-gait's cruise governor and look-ahead steering (see the header).
#include "scenes/vehicles/snakeboard_autosteer.h"

#include <algorithm>
#include <cmath>

namespace varsim {

double cruiseFactor(double speed, double cruise) {
  if (!(cruise > 0.0)) return 1.0;
  return std::clamp((cruise - std::abs(speed)) / (0.25 * cruise), 0.0, 1.0);
}

namespace {

// Smallest clearance at four checkpoints along an arc of curvature kappa from g, `length` m forward (body -x).
double arcClearance(const se2::Pose2& g, double kappa, double length, const Footprint& footprint,
                    const std::vector<PlanarBox>& obstacles) {
  double least = 1e300;
  for (int i = 1; i <= 4; ++i) {
    const double s = length * i / 4.0, turn = kappa * s;
    // Arc in the board frame, moving along -x and turning left (towards -y when facing -x) for kappa > 0.
    const double fx = std::abs(kappa) > 1e-9 ? std::sin(turn) / kappa : s;
    const double fy = std::abs(kappa) > 1e-9 ? (1.0 - std::cos(turn)) / kappa : 0.0;
    const se2::Pose2 local{turn, -fx, -fy};
    least = std::min(least, clearance(footprint, g * local, obstacles));
  }
  return least;
}

}  // namespace

double autoSteerTrim(const se2::Pose2& g, double speed, double l, double maxTrim, const Footprint& footprint,
                     const std::vector<PlanarBox>& obstacles) {
  if (obstacles.empty() || !(maxTrim > 0.0) || !(l > 0.0)) return 0.0;
  const double length = std::max(2.0, 2.5 * std::abs(speed));
  constexpr double kClear = 1.5;  // m: straight on while the way ahead keeps this much room
  if (arcClearance(g, 0.0, length, footprint, obstacles) > kClear) return 0.0;
  double best = 0.0, bestGap = -1e300;
  for (double f : {0.5, -0.5, 1.0, -1.0}) {
    const double trim = f * maxTrim;
    // A held steering phi turns the board about a point l / tan(phi) to its side (the circle the ERRATA momentum
    // equation gives for constant phi).
    const double gap = arcClearance(g, std::tan(trim) / l, length, footprint, obstacles);
    if (gap > bestGap + 1e-6) bestGap = gap, best = trim;
  }
  return best;
}

}  // namespace varsim
