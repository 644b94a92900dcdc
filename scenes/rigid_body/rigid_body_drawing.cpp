// scenes/rigid_body/rigid_body_drawing.cpp — box, body axes, arrows and corner trail of a rigid body (plain data).
#include "scenes/rigid_body/rigid_body_drawing.h"

namespace varsim {

Mat4 poseToMat4(const se3::Pose& g) {
  Mat4 m{};
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) m[size_t(4 * c + r)] = float(g.R(r, c));
  for (int r = 0; r < 3; ++r) m[size_t(12 + r)] = float(g.x[r]);
  m[15] = 1.0f;
  return m;
}

void drawArrow(DrawList& out, const Vector3d& from, const Vector3d& vec, float shaftRadius, Rgba color) {
  const double length = vec.norm();
  if (!(length > 1e-9)) return;
  // Rotation taking local z to the arrow direction (the Arrow shape points along local z).
  const Matrix3d R = Eigen::Quaterniond::FromTwoVectors(Vector3d::UnitZ(), vec / length).toRotationMatrix();
  ShapeItem arrow;
  arrow.kind = ShapeKind::Arrow;
  arrow.transform = poseToMat4(se3::Pose{R, from});
  arrow.size = {shaftRadius, 2.5f * shaftRadius, float(length)};
  arrow.color = color;
  out.shapes.push_back(arrow);
}

void drawRigidBox(DrawList& out, const se3::Pose& g, const Vector3d& boxSize, Rgba color, bool ghost) {
  ShapeItem box;
  box.kind = ShapeKind::Box;
  box.transform = poseToMat4(g);
  box.size = toVec3f(boxSize);
  box.color = color;
  box.ghost = ghost;
  out.shapes.push_back(box);
  const float radius = float(0.025 * boxSize.maxCoeff());
  const Rgba axisColor[3] = {{0.9f, 0.2f, 0.2f, 1.0f}, {0.2f, 0.8f, 0.25f, 1.0f}, {0.25f, 0.4f, 0.95f, 1.0f}};
  for (int i = 0; i < 3; ++i) {
    const double reach = 0.5 * boxSize[i] + 0.25 * boxSize.maxCoeff();
    drawArrow(out, g.x, reach * g.R.col(i), radius, axisColor[i]);
  }
}

void PointTrail::add(const Vector3d& p) {
  points_.push_back(toVec3f(p));
  while (points_.size() > capacity_) points_.pop_front();
}

void PointTrail::draw(DrawList& out, Rgba color, float width) const {
  if (points_.size() < 2) return;
  LineStrip strip;
  strip.points.assign(points_.begin(), points_.end());
  strip.color = color;
  strip.width = width;
  out.lines.push_back(std::move(strip));
}

}  // namespace varsim
