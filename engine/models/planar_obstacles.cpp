// engine/models/planar_obstacles.cpp — rectangle/rectangle separating-axis test and the swept contact
// search along an SE(2) segment (see the header).
#include "engine/models/planar_obstacles.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {

namespace {

using Corners = std::array<Eigen::Vector2d, 4>;

Corners footprintCorners(const Footprint& f, const se2::Pose2& g) {
  return {g.act({f.xMin, f.yMin}), g.act({f.xMax, f.yMin}), g.act({f.xMax, f.yMax}), g.act({f.xMin, f.yMax})};
}

Corners boxCorners(const PlanarBox& b) {
  const se2::Pose2 g{b.heading, b.cx, b.cy};
  return {g.act({-b.halfX, -b.halfY}), g.act({b.halfX, -b.halfY}), g.act({b.halfX, b.halfY}),
          g.act({-b.halfX, b.halfY})};
}

// Overlap of the two corner sets projected on axis n (negative: a gap of that size).
double overlapOn(const Eigen::Vector2d& n, const Corners& a, const Corners& b) {
  double aLo = INFINITY, aHi = -INFINITY, bLo = INFINITY, bHi = -INFINITY;
  for (const auto& p : a) aLo = std::min(aLo, n.dot(p)), aHi = std::max(aHi, n.dot(p));
  for (const auto& p : b) bLo = std::min(bLo, n.dot(p)), bHi = std::max(bHi, n.dot(p));
  return std::min(aHi, bHi) - std::max(aLo, bLo);
}

// Largest distance of a footprint corner from the body origin (bounds how far a turn moves it).
double reach(const Footprint& f) {
  return std::max(std::hypot(f.xMin, f.yMin),
                  std::max(std::hypot(f.xMax, f.yMin), std::max(std::hypot(f.xMax, f.yMax), std::hypot(f.xMin, f.yMax))));
}

}  // namespace

double separation(const Footprint& f, const se2::Pose2& g, const PlanarBox& b) {
  const Corners a = footprintCorners(f, g), c = boxCorners(b);
  const double ca = std::cos(g.theta), sa = std::sin(g.theta), cb = std::cos(b.heading), sb = std::sin(b.heading);
  const Eigen::Vector2d axes[4] = {{ca, sa}, {-sa, ca}, {cb, sb}, {-sb, cb}};
  // Separated along some axis: the largest gap; otherwise the smallest overlap (the penetration depth).
  double minOverlap = INFINITY;
  for (const auto& n : axes) minOverlap = std::min(minOverlap, overlapOn(n, a, c));
  return -minOverlap;
}

double clearance(const Footprint& f, const se2::Pose2& g, const std::vector<PlanarBox>& obstacles, int* which) {
  double best = std::numeric_limits<double>::infinity();
  int index = -1;
  for (size_t i = 0; i < obstacles.size(); ++i) {
    const double s = separation(f, g, obstacles[i]);
    if (s < best) best = s, index = int(i);
  }
  if (which) *which = index;
  return best;
}

void validateObstacles(const Footprint& f, const std::vector<PlanarBox>& obstacles, const char* where) {
  auto positive = [&](double v, const std::string& what) {
    if (!(std::isfinite(v) && v > 0.0))
      throw BadInput(std::string(where) + ": " + what + " = " + formatNumber(v) + ": allowed range (0, inf)");
  };
  positive(f.xMax - f.xMin, "footprint length");
  positive(f.yMax - f.yMin, "footprint width");
  for (size_t i = 0; i < obstacles.size(); ++i) {
    const auto& b = obstacles[i];
    positive(b.halfX, "obstacle " + std::to_string(i) + " half length");
    positive(b.halfY, "obstacle " + std::to_string(i) + " half width");
    if (!std::isfinite(b.cx) || !std::isfinite(b.cy) || !std::isfinite(b.heading))
      throw BadInput(std::string(where) + ": obstacle " + std::to_string(i) + " has a non-finite pose");
  }
}

SweptContact sweep(const Footprint& f, const se2::Pose2& g0, const Vector3d& v, const std::vector<PlanarBox>& obstacles) {
  SweptContact out;
  if (obstacles.empty()) return out;
  // Overlap already present at the start only blocks motion that makes it deeper.
  std::vector<double> allowed(obstacles.size());
  double smallest = std::min(f.xMax - f.xMin, f.yMax - f.yMin);
  for (size_t i = 0; i < obstacles.size(); ++i) {
    allowed[i] = std::max(0.0, -separation(f, g0, obstacles[i]));
    smallest = std::min(smallest, 2.0 * std::min(obstacles[i].halfX, obstacles[i].halfY));
  }
  auto blockedBy = [&](double lambda) {
    const se2::Pose2 g = g0 * se2::exp(lambda * v);
    for (size_t i = 0; i < obstacles.size(); ++i)
      if (-separation(f, g, obstacles[i]) > allowed[i]) return int(i);
    return -1;
  };
  // Any point of the footprint moves at most |v_lin| + |omega| reach over the segment.
  const double travel = std::hypot(v[1], v[2]) + std::abs(v[0]) * reach(f);
  const double wanted = std::ceil(travel / (0.25 * smallest));
  const int samples = std::isfinite(wanted) ? int(std::clamp(wanted, 1.0, 4096.0)) : 4096;
  double lo = 0.0;
  for (int j = 1; j <= samples; ++j) {
    const double hi0 = j == samples ? 1.0 : double(j) / samples;
    int which = blockedBy(hi0);
    if (which < 0) {
      lo = hi0;
      continue;
    }
    double hi = hi0;
    for (int it = 0; it < 60 && hi - lo > 0.0; ++it) {
      const double mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi) break;
      const int w = blockedBy(mid);
      if (w < 0) lo = mid;
      else hi = mid, which = w;
    }
    out.hit = true;
    out.lambda = lo;
    out.obstacle = which;
    return out;
  }
  return out;
}

}  // namespace varsim
