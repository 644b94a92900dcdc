// scenes/vehicles/vehicle_drawing.cpp — transforms, rolling/steering wheels and ground trails for ground vehicles.
#include "scenes/vehicles/vehicle_drawing.h"

#include <cmath>

namespace varsim {

Mat4 toMat4(const Eigen::Isometry3d& T) {
  Mat4 m{};
  const Eigen::Matrix4d M = T.matrix();
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) m[size_t(4 * c + r)] = float(M(r, c));
  return m;
}

Eigen::Isometry3d planarFrame(double theta, double x, double y, double z) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.translate(Eigen::Vector3d(x, y, z));
  T.rotate(Eigen::AngleAxisd(theta, Eigen::Vector3d::UnitZ()));
  return T;
}

Rgba flashColor(double since) {
  return int(since / 0.1) % 2 == 0 ? Rgba{1.0f, 0.95f, 0.2f, 1.0f} : Rgba{1.0f, 0.2f, 0.1f, 1.0f};
}

void drawImpactMarker(DrawList& out, double x, double y, double radius, double progress) {
  ShapeItem disc;
  disc.kind = ShapeKind::Disc;
  disc.transform = toMat4(planarFrame(0.0, x, y, 0.02));
  disc.size = {float(radius * (1.0 + 2.0 * progress)), 0.0f, 0.0f};
  disc.color = {1.0f, 0.15f, 0.1f, float(1.0 - 0.7 * progress)};
  out.shapes.push_back(disc);
}

void drawWheel(DrawList& out, const Eigen::Isometry3d& body, const Eigen::Vector3d& hub, double steer, double roll,
               double radius, double width, Rgba tyre, Rgba spoke) {
  Eigen::Isometry3d axle = body;
  axle.translate(hub);
  axle.rotate(Eigen::AngleAxisd(steer, Eigen::Vector3d::UnitZ()));
  axle.rotate(Eigen::AngleAxisd(roll, Eigen::Vector3d::UnitY()));
  // The cylinder primitive runs along its local z: turn it onto the axle (y).
  Eigen::Isometry3d cyl = axle;
  cyl.rotate(Eigen::AngleAxisd(1.5707963267948966, Eigen::Vector3d::UnitX()));
  ShapeItem wheel;
  wheel.kind = ShapeKind::Cylinder;
  wheel.transform = toMat4(cyl);
  wheel.size = {float(radius), float(radius), float(width)};
  wheel.color = tyre;
  out.shapes.push_back(wheel);
  // A bar across the rim, slightly wider than the tyre, turns with the wheel so rolling is visible.
  ShapeItem bar;
  bar.kind = ShapeKind::Box;
  bar.transform = toMat4(axle);
  bar.size = {float(1.7 * radius), float(1.06 * width), float(0.22 * radius)};
  bar.color = spoke;
  out.shapes.push_back(bar);
}

void drawBox(DrawList& out, const Eigen::Isometry3d& frame, const Eigen::Vector3d& centre, const Eigen::Vector3d& size,
             Rgba color) {
  Eigen::Isometry3d T = frame;
  T.translate(centre);
  ShapeItem box;
  box.kind = ShapeKind::Box;
  box.transform = toMat4(T);
  box.size = {float(size.x()), float(size.y()), float(size.z())};
  box.color = color;
  out.shapes.push_back(box);
}

void GroundTrail::add(double t, double x, double y) {
  if (!points_.empty() && std::hypot(x - points_.back().x, y - points_.back().y) < spacing_) return;
  if (points_.size() >= capacity_) points_.erase(points_.begin(), points_.begin() + long(capacity_ / 4));
  points_.push_back({t, x, y});
}

void GroundTrail::truncateAfter(double t) {
  while (!points_.empty() && points_.back().t > t) points_.pop_back();
}

LineStrip GroundTrail::strip(Rgba color, float z, float width) const {
  LineStrip s;
  s.color = color;
  s.width = width;
  s.points.reserve(points_.size());
  for (const auto& p : points_) s.points.push_back({float(p.x), float(p.y), z});
  return s;
}

}  // namespace varsim
