// scenes/vehicles/vehicle_drawing.h — drawing helpers shared by the ground vehicles (car, snakeboard): planar poses
// as draw-list transforms, a wheel that rolls and steers (cylinder + a spoke bar so the rolling shows), and
// a ground trail that can be cut back when the app scrubs history. Plain data only (no GL).
#pragma once

#include <Eigen/Geometry>
#include <vector>

#include "render/draw_list.h"

namespace varsim {

Mat4 toMat4(const Eigen::Isometry3d& T);
// The body frame of a planar pose (heading theta about world z, position (x, y, z)).
Eigen::Isometry3d planarFrame(double theta, double x, double y, double z = 0.0);

// A wheel of radius `radius` and width `width` centred at `hub` in `body`, steered by `steer` about the
// body z axis and rolled by `roll` about its axle (the body y axis before steering).
void drawWheel(DrawList& out, const Eigen::Isometry3d& body, const Eigen::Vector3d& hub, double steer, double roll,
               double radius, double width, Rgba tyre = {0.12f, 0.12f, 0.13f, 1.0f},
               Rgba spoke = {0.75f, 0.75f, 0.78f, 1.0f});

// Box of full extents `size` centred at `centre` in `frame`.
void drawBox(DrawList& out, const Eigen::Isometry3d& frame, const Eigen::Vector3d& centre, const Eigen::Vector3d& size,
             Rgba color);

// Impact indication of the solid-scenery scenes (car, snakeboard): the hit obstacle flashes and a disc
// pulses on the ground at the contact point for kFlashTime s; the scene's HUD line stays kImpactHudTime s.
constexpr double kFlashTime = 0.6, kImpactHudTime = 2.5;
Rgba flashColor(double since);  // alternates yellow/red every 0.1 s
// Disc at ground point (x, y), growing from `radius` and fading with `progress` in [0, 1].
void drawImpactMarker(DrawList& out, double x, double y, double radius, double progress);

// Ground trail of a moving point: a point is kept when it is at least `spacing` from the previous one;
// at most `capacity` points (oldest dropped). Times allow cutting it back after a history jump.
class GroundTrail {
 public:
  GroundTrail(double spacing = 0.05, size_t capacity = 4000) : spacing_(spacing), capacity_(capacity) {}
  void add(double t, double x, double y);
  void truncateAfter(double t);  // drops points later than t (the app loaded an earlier state)
  void clear() { points_.clear(); }
  LineStrip strip(Rgba color, float z = 0.01f, float width = 2.0f) const;

 private:
  struct Point {
    double t, x, y;
  };
  double spacing_;
  size_t capacity_;
  std::vector<Point> points_;
};

}  // namespace varsim
