// scenes/rigid_body/rigid_body_drawing.h — plain-data drawing of a free rigid body, shared by the rigid_body and
// tumbling_body scenes: the box with the body's inertia, body axes, world vectors (angular momentum,
// angular velocity) as arrows, and a short trail of a box corner. No GL.
#pragma once

#include <deque>

#include "engine/lie/se3.h"
#include "render/draw_list.h"

namespace varsim {

Mat4 poseToMat4(const se3::Pose& g);  // column-major body->world transform
inline Vec3f toVec3f(const Vector3d& v) { return {float(v.x()), float(v.y()), float(v.z())}; }

// Arrow from `from` along the world vector `vec` (drawn length |vec|); nothing if |vec| is ~0.
void drawArrow(DrawList& out, const Vector3d& from, const Vector3d& vec, float shaftRadius, Rgba color);

// Box of full extents `boxSize` (body axes) at pose g, plus the three body axes (x red, y green,
// z blue) reaching just beyond the faces. `ghost` draws it translucent (baseline comparisons).
void drawRigidBox(DrawList& out, const se3::Pose& g, const Vector3d& boxSize, Rgba color, bool ghost = false);

// The last `capacity` positions of a body-fixed point (e.g. a box corner) as a fading line.
class PointTrail {
 public:
  explicit PointTrail(size_t capacity = 180) : capacity_(capacity) {}
  void add(const Vector3d& p);
  void clear() { points_.clear(); }
  void draw(DrawList& out, Rgba color, float width = 2.0f) const;

 private:
  size_t capacity_;
  std::deque<Vec3f> points_;
};

}  // namespace varsim
