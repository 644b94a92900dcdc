// tests/solid_run.h — runs a vehicle scene with solid scenery and collects what the obstacle and energy
// tests assert: the smallest clearance of any row, the energy balance E(t) - E(0) - inputWork(t) per row and
// per step, impacts and the HUD at the first impact. Header-only, test use (car and snakeboard).
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "engine/models/planar_obstacles.h"
#include "tests/scene_harness.h"

namespace varsim::test {

// One scene run with the numbers the solid-obstacle and energy-balance tests look at.
struct SolidRun {
  double minClearance = INFINITY;  // m, over every row (negative would be an overlap)
  double maxEnergyRise = -INFINITY;  // J, max over rows of E(t) - E(0) - inputWork(t)
  double minEnergyRise = INFINITY;   // J, min of the same
  double maxEnergyStepRise = -INFINITY;  // J, max over steps of E(k+1) - E(k) - (W(k+1) - W(k))
  double e0 = 0.0, eEnd = 0.0, eMax = 0.0, speedEnd = 0.0, speedMaxAbs = 0.0;
  long impacts = 0, firstImpactRow = -1;
  bool finite = true;
  std::vector<std::string> hudAtFirstImpact;
  std::vector<se2::Pose2> poses;  // (theta, x, y) of every row
};

inline SolidRun runSolid(Scene& scene, long steps, const std::function<InputVector(long)>& inputs) {
  const int ie = test::columnOf(scene, "energy"), ic = test::columnOf(scene, "clearance"),
            ii = test::columnOf(scene, "impacts"), is = test::columnOf(scene, "speed");
  SolidRun r;
  std::vector<double> row;
  scene.diagnostics(row);
  r.e0 = row[size_t(ie)];
  double ePrev = r.e0, wPrev = scene.inputWork();
  for (long k = 0; k <= steps; ++k) {
    if (k > 0) {
      scene.step(scene.dt(), inputs(k - 1));
      scene.diagnostics(row);
    }
    for (double v : row) r.finite = r.finite && std::isfinite(v);
    const double e = row[size_t(ie)], w = scene.inputWork();
    r.eMax = std::max(r.eMax, e);
    r.minClearance = std::min(r.minClearance, row[size_t(ic)]);
    r.maxEnergyRise = std::max(r.maxEnergyRise, e - r.e0 - w);
    r.minEnergyRise = std::min(r.minEnergyRise, e - r.e0 - w);
    if (k > 0) r.maxEnergyStepRise = std::max(r.maxEnergyStepRise, (e - ePrev) - (w - wPrev));
    ePrev = e, wPrev = w;
    r.speedMaxAbs = std::max(r.speedMaxAbs, std::abs(row[size_t(is)]));
    r.poses.push_back({row[size_t(test::columnOf(scene, "theta"))], row[size_t(test::columnOf(scene, "x"))],
                       row[size_t(test::columnOf(scene, "y"))]});
    if (row[size_t(ii)] > 0 && r.firstImpactRow < 0) {
      r.firstImpactRow = k;
      DrawList out;
      scene.draw(out);
      r.hudAtFirstImpact = out.hud;
    }
    r.impacts = long(row[size_t(ii)]);
  }
  r.eEnd = row[size_t(ie)];
  r.speedEnd = row[size_t(is)];
  return r;
}

// The HUD convention of test_scene_view: at most four lines of at most 66 characters, also at an impact.
inline bool hudFits(const SolidRun& r) {
  bool fits = r.hudAtFirstImpact.size() <= 4;
  for (const auto& line : r.hudAtFirstImpact) fits = fits && line.size() <= 66;
  return fits;
}

inline bool hudSays(const SolidRun& r, const std::string& what) {
  for (const auto& line : r.hudAtFirstImpact)
    if (line.find("IMPACT: " + what) != std::string::npos) return true;
  return false;
}

// Overlap of a footprint at pose g with a box, measured without the engine's separating-axis code: the
// deepest corner of either rectangle inside the other (m), or +inf when two edges cross properly (an
// overlap with no corner inside, a "plus sign"). <= 0 means apart or touching.
inline double independentOverlap(const Footprint& f, const se2::Pose2& g, const PlanarBox& b) {
  using V = Eigen::Vector2d;
  const se2::Pose2 box{b.heading, b.cx, b.cy};
  const V fc[4] = {g.act(V(f.xMin, f.yMin)), g.act(V(f.xMax, f.yMin)), g.act(V(f.xMax, f.yMax)), g.act(V(f.xMin, f.yMax))};
  const V bc[4] = {box.act(V(-b.halfX, -b.halfY)), box.act(V(b.halfX, -b.halfY)), box.act(V(b.halfX, b.halfY)),
                   box.act(V(-b.halfX, b.halfY))};
  double depth = -INFINITY;
  for (const V& p : fc) {  // footprint corners in the box frame
    const V q = box.inverse().act(p);
    depth = std::max(depth, std::min(b.halfX - std::abs(q.x()), b.halfY - std::abs(q.y())));
  }
  for (const V& p : bc) {  // box corners in the footprint frame
    const V q = g.inverse().act(p);
    depth = std::max(depth, std::min({q.x() - f.xMin, f.xMax - q.x(), q.y() - f.yMin, f.yMax - q.y()}));
  }
  auto cross = [](const V& a, const V& b2, const V& c) { return (b2 - a).x() * (c - a).y() - (b2 - a).y() * (c - a).x(); };
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const V &a = fc[i], &a2 = fc[(i + 1) % 4], &c = bc[j], &c2 = bc[(j + 1) % 4];
      const double eps = 1e-9;
      if (cross(a, a2, c) * cross(a, a2, c2) < -eps && cross(c, c2, a) * cross(c, c2, a2) < -eps && depth <= 0.0)
        return INFINITY;
    }
  return depth;
}

// Largest independentOverlap over every row's pose and every obstacle.
inline double worstIndependentOverlap(const SolidRun& r, const Footprint& f, const std::vector<PlanarBox>& obstacles) {
  double worst = -INFINITY;
  for (const auto& g : r.poses)
    for (const auto& b : obstacles) worst = std::max(worst, independentOverlap(f, g, b));
  return worst;
}

}  // namespace varsim::test
