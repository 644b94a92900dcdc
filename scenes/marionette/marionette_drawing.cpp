// scenes/marionette/marionette_drawing.cpp — drawing of the marionette (see marionette_drawing.h).
#include "scenes/marionette/marionette_drawing.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/tree/tree_constraints.h"
#include "scenes/vehicles/vehicle_drawing.h"

namespace varsim {

namespace {

constexpr Rgba kBarWood{0.55f, 0.38f, 0.22f, 1}, kString{0.92f, 0.90f, 0.80f, 1};

Eigen::Isometry3d pose(const Eigen::Matrix4d& g) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.matrix() = g;
  return T;
}

Vec3f toVec3f(const Eigen::Vector3d& p) { return {float(p.x()), float(p.y()), float(p.z())}; }

// A slat of the bar between two bar points (bar frame), extended by `overhang` at both ends.
void slat(DrawList& out, const Eigen::Isometry3d& bar, const Eigen::Vector3d& a, const Eigen::Vector3d& b,
          double overhang) {
  const Eigen::Vector3d d = b - a;
  const bool alongX = std::abs(d.x()) > std::abs(d.y());
  const double len = d.norm() + 2 * overhang;
  drawBox(out, bar, 0.5 * (a + b) + Eigen::Vector3d(0, 0, 0.008),
          alongX ? Eigen::Vector3d(len, 0.022, 0.016) : Eigen::Vector3d(0.022, len, 0.016), kBarWood);
}

}  // namespace

void drawMarionette(const MarionetteModel& model, const SlackStrings& strings, DrawList& out) {
  const tree::Tree& t = model.tree();
  for (const MarionetteShape& s : model.shapes()) {
    ShapeItem item;
    item.kind = s.kind;
    Eigen::Isometry3d T = pose(t.g(s.frame));
    T.translate(s.center);
    item.transform = toMat4(T);
    item.size = s.kind == ShapeKind::Sphere ? Vec3f{s.size[0], s.size[0], s.size[0]} : s.size;
    item.color = s.color;
    out.shapes.push_back(item);
  }
  const Eigen::Isometry3d bar = pose(t.g(model.barFrame()));
  using P = MarionetteModel;
  slat(out, bar, P::barPoint(0), P::barPoint(1),
       0.03);                                            // main bar, head to back
  slat(out, bar, P::barPoint(2), P::barPoint(3), 0.02);  // hand bar
  slat(out, bar, P::barPoint(4), P::barPoint(5), 0.03);  // leg bar
  drawBox(out, bar, {0, 0.03, 0.07}, {0.03, 0.03, 0.11},
          kBarWood);  // the handle the puppeteer holds
  for (int j = 0; j < strings.all().count(); ++j) {
    const tree::DistanceConstraint& c = strings.all()[j];
    const Eigen::Vector3d a = tree::pointPosition(t, c.frameB, c.pointB),
                          b = tree::pointPosition(t, c.frameA, c.pointA);
    // A slack string hangs as a parabola whose arc is about its length (sag s with 8 s^2 / (3 d) = L - d).
    const double d = (b - a).norm(), sag = strings.taut(j) ? 0.0 : std::sqrt(std::max(0.0, 3 * d * (c.length - d) / 8));
    LineStrip line;
    for (int i = 0; i <= 12; ++i) {
      const double u = i / 12.0;
      line.points.push_back(toVec3f(a + u * (b - a) - Eigen::Vector3d(0, 0, 4 * sag * u * (1 - u))));
    }
    line.color = strings.taut(j) ? kString : Rgba{0.75f, 0.72f, 0.6f, 1};
    line.width = 1.5f;
    out.lines.push_back(line);
  }
}

void marionetteHud(const std::vector<double>& row, const ParamSet& params, DrawList& out) {
  // Columns: t, energy, constraint_rms, constraint_max, newton_iters, x, y, z, kinetic, potential, penalty, input_work,
  // floor_force, ...
  char line[160];  // HUD lines stay within 66 characters
  std::snprintf(line, sizeof line, "E %.4f J  penalty %.1e J  work %.3f J  floor %.1f N", row[1], row[10], row[11],
                row[12]);
  out.hud.push_back(line);
  std::snprintf(line, sizeof line, "string residual %.1e m  Newton %d  h %.4g s  %d/%ld taut", row[3], int(row[4]),
                params.real("dt"), int(row.back()), params.integer("strings"));
  out.hud.push_back(line);
  out.hud.push_back("W/A/S/D bar  E/Q up/down  arrows roll/pitch  L/I pull hand");
  out.camera.target = {float(row[5]), float(row[6]), 0.6f};
  out.camera.distance = 2.6f;
  out.camera.setsAngles = true;
  out.camera.yaw = -0.8f;  // from the front (-y) and the puppet's left: the walk toward the viewer shows its legs
  out.camera.pitch = 0.22f;
  out.camera.follow = true;  // the target follows the torso; the yaw stays (a follow camera sits behind `heading`)
  out.camera.heading = out.camera.yaw - 3.14159265f;
  out.camera.showGround = true;
  out.camera.groundHeight = 0.0f;
}

}  // namespace varsim
