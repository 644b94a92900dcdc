// engine/models/water_surface.h — the boat's water: a sum of travelling deep-water sinusoids sampled on a
// world-fixed square grid. The PHYSICAL free surface is the piecewise-linear interpolant of those samples
// (each grid cell split along its (i,j)-(i+1,j+1) diagonal), so the triangle mesh the scene draws is
// exactly the surface the hydrostatics clips the hull against (seed 000 Sec. 4.3.2, "waves, currents").
#pragma once

#include <vector>

#include "engine/models/generic_scalar.h"

namespace varsim {

struct WaveSettings {
  double amplitude = 0.0;               // m, amplitude of the dominant component, [0, 5]; 0 = still water
  double wavelength = 12.0;             // m, wavelength of the dominant component, > 0
  double direction = 0.0;               // rad, propagation heading of the dominant component from world +x
  Vector3d current = Vector3d::Zero();  // m/s, uniform water current eta (world frame)
  double gridSpacing = 0.25;            // m, spacing of the world grid that defines the physical surface, > 0
  double gravity = 9.81;                // m/s^2, for the deep-water dispersion relation omega^2 = g k
};

// Node heights of the grid on an index window [i0, i0+ni) x [j0, j0+nj), all at one time. The
// hydrostatics clips against these numbers only, so one evaluation sees one consistent surface.
struct HeightWindow {
  long i0 = 0, j0 = 0;
  int ni = 0, nj = 0;
  double spacing = 1.0;
  std::vector<double> heights;  // row-major in j: heights[(j - j0) * ni + (i - i0)]
  double at(long i, long j) const { return heights[size_t((j - j0) * ni + (i - i0))]; }
};

class WaterSurface {
 public:
  // Three components with fixed ratios to the dominant one (amplitude 1, 0.45, 0.25; wavelength 1, 0.61,
  // 0.37; heading +0, +0.5, -0.8 rad; phase 0, 1.3, 2.1), which makes a short-crested, non-repeating sea.
  static constexpr int kComponents = 3;

  explicit WaterSurface(const WaveSettings& settings = {});
  const WaveSettings& settings() const { return settings_; }

  bool still() const { return settings_.amplitude == 0.0; }
  // Upper bound of |height|: the sum of the component amplitudes.
  double maxElevation() const;
  // The smooth sea sum_c A_c cos(k_c . (x, y) - w_c t + phi_c), sampled at the grid nodes.
  double smoothHeight(double x, double y, double t) const;
  double nodeHeight(long i, long j, double t) const { return smoothHeight(i * spacing(), j * spacing(), t); }
  // The physical surface: the piecewise-linear interpolant (exactly what is drawn).
  double height(double x, double y, double t) const { return heightT(x, y, t); }
  // The same on a generic scalar (generic_scalar.h): the cell and triangle are chosen on the value part.
  template <class S>
  S heightT(const S& x, const S& y, double t) const;
  // Water velocity at a world point: current + linear (Airy) deep-water orbital velocity of the smooth
  // sea, decaying as exp(k z) below the mean level (z clamped to <= 0 above it). m/s, world frame.
  Vector3d velocity(const Vector3d& p, double t) const { return velocityT(p, t); }
  template <class S>
  Vec3<S> velocityT(const Vec3<S>& p, double t) const;
  // Node heights covering the world rectangle [xmin, xmax] x [ymin, ymax] (one cell of margin).
  HeightWindow window(double xmin, double xmax, double ymin, double ymax, double t) const;
  double spacing() const { return settings_.gridSpacing; }

 private:
  struct Component {
    double amplitude, k, omega, phase;
    Eigen::Vector2d dir;
  };
  WaveSettings settings_;
  Component comp_[kComponents];
};

template <class S>
S WaterSurface::heightT(const S& x, const S& y, double t) const {
  if (still()) return S(0.0);
  const double s = spacing();
  const double fi = std::floor(scalarValue(x) / s), fj = std::floor(scalarValue(y) / s);
  const long i = long(fi), j = long(fj);
  const S u = x / s - fi, v = y / s - fj;
  const double h00 = nodeHeight(i, j, t), h11 = nodeHeight(i + 1, j + 1, t);
  if (scalarValue(u) >= scalarValue(v)) {  // triangle (0,0), (1,0), (1,1)
    const double h10 = nodeHeight(i + 1, j, t);
    return h00 + u * (h10 - h00) + v * (h11 - h10);
  }
  const double h01 = nodeHeight(i, j + 1, t);  // triangle (0,0), (1,1), (0,1)
  return h00 + u * (h11 - h01) + v * (h01 - h00);
}

template <class S>
Vec3<S> WaterSurface::velocityT(const Vec3<S>& p, double t) const {
  using std::cos, std::exp, std::sin;
  Vec3<S> vel = settings_.current.template cast<S>();
  if (still()) return vel;
  const S depth = minByValue(S(p.z()), 0.0);
  for (const auto& c : comp_) {
    // Surface elevation A cos(theta) moves the water with (A w cos(theta) dir, A w sin(theta)) e^{kz}.
    const S theta = c.k * (c.dir.x() * p.x() + c.dir.y() * p.y()) - c.omega * t + c.phase;
    const S a = c.amplitude * c.omega * exp(c.k * depth);
    const S ch = cos(theta);
    vel += Vec3<S>(a * ch * c.dir.x(), a * ch * c.dir.y(), a * sin(theta));
  }
  return vel;
}

}  // namespace varsim
