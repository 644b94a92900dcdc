// Rod drawing (see rod_drawing.h).
#include "scenes/rods/rod_drawing.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

#include "scenes/vehicles/vehicle_drawing.h"

namespace varsim {

Rgba speedColor(double speed, double fullScale) {
  const double s = std::clamp(std::log1p(std::max(speed, 0.0)) / std::log1p(std::max(fullScale, 1e-9)), 0.0, 1.0);
  return Rgba{float(0.15 + 0.85 * s), float(0.35 * (1.0 - std::abs(2.0 * s - 1.0)) + 0.2), float(0.95 * (1.0 - s) + 0.05), 1.0f};
}

Mat4 translation(const Eigen::Vector3d& p) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.translation() = p;
  return toMat4(T);
}

// A frame with z along u placed at x; the turn about u is free (a capsule is round), so the
// branchless orthonormal basis of Duff et al. (JCGT 2017) replaces a quaternion between two
// vectors: this runs for every rod of every frame (15 001 rods at N = 5000).
static Mat4 rodTransform(const Eigen::Vector3d& x, const Eigen::Vector3d& u) {
  const double length = u.norm();
  const Eigen::Vector3d n = length > 0 ? Eigen::Vector3d(u / length) : Eigen::Vector3d::UnitZ();
  const double sign = std::copysign(1.0, n.z()), a = -1.0 / (sign + n.z()), b = n.x() * n.y() * a;
  const Eigen::Vector3d t(1.0 + sign * n.x() * n.x() * a, sign * b, -sign * n.x()), s(b, sign + n.y() * n.y() * a, -n.y());
  return {float(t.x()), float(t.y()), float(t.z()), 0.0f, float(s.x()), float(s.y()), float(s.z()), 0.0f,
          float(n.x()), float(n.y()), float(n.z()), 0.0f, float(x.x()), float(x.y()), float(x.z()), 1.0f};
}

void drawRods(const RodSystem& system, const MechanicalState& state, DrawList& out, bool ghost, double speedScale,
              float radius) {
  const auto& bodies = system.bodies();
  for (size_t b = 0; b < bodies.size(); ++b) {
    ShapeItem item;
    item.ghost = ghost;
    item.color = speedColor(system.endSpeed(int(b), state.v), speedScale);
    if (ghost) item.color.a = 0.35f;
    const Eigen::Vector3d x = state.q.segment<3>(bodies[b].offset);
    if (!bodies[b].isRod) {
      item.kind = ShapeKind::Sphere;
      item.size = {2.5f * radius, 2.5f * radius, 2.5f * radius};
      item.transform = translation(x);
      out.shapes.push_back(item);
      continue;
    }
    const Eigen::Vector3d u = system.direction(int(b), state.q);
    item.kind = ShapeKind::Capsule;
    item.transform = rodTransform(x, u);
    // The drawn length follows |u| so a stretched unit row is visible.
    item.size = {radius, radius, float(bodies[b].length * u.norm())};
    out.shapes.push_back(item);
  }
}

void drawJointSpheres(const RodSystem& system, const MechanicalState& state, DrawList& out, float radius, bool ghost) {
  for (int i : system.jointConstraintIndices()) {
    const bool pin = system.constraints()[size_t(i)].group == kGroupPins;
    ShapeItem s;
    s.kind = ShapeKind::Sphere;
    s.ghost = ghost;
    const float r = pin ? 2.2f * radius : radius;
    s.size = {r, r, r};
    s.color = pin ? Rgba{0.95f, 0.8f, 0.2f, ghost ? 0.35f : 1.0f} : Rgba{0.85f, 0.85f, 0.88f, ghost ? 0.35f : 1.0f};
    s.transform = translation(system.point(system.anchor(i), state.q));
    out.shapes.push_back(s);
  }
}

}  // namespace varsim
