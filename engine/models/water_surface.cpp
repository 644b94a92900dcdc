// engine/models/water_surface.cpp — travelling sinusoids, their piecewise-linear grid interpolant (the
// physical surface) and the Airy orbital velocity used as eta in the patch force of seed 000 eq. (15).
#include "engine/models/water_surface.h"

#include <cmath>

namespace varsim {

namespace {
constexpr double kTwoPi = 6.283185307179586;
constexpr double kAmpRatio[WaterSurface::kComponents] = {1.0, 0.45, 0.25};
constexpr double kLengthRatio[WaterSurface::kComponents] = {1.0, 0.61, 0.37};
constexpr double kHeadingOffset[WaterSurface::kComponents] = {0.0, 0.5, -0.8};
constexpr double kPhase[WaterSurface::kComponents] = {0.0, 1.3, 2.1};
}  // namespace

WaterSurface::WaterSurface(const WaveSettings& settings) : settings_(settings) {
  for (int c = 0; c < kComponents; ++c) {
    const double k = kTwoPi / (settings_.wavelength * kLengthRatio[c]);
    const double heading = settings_.direction + kHeadingOffset[c];
    comp_[c].amplitude = settings_.amplitude * kAmpRatio[c];
    comp_[c].k = k;
    comp_[c].omega = std::sqrt(settings_.gravity * k);  // deep water: omega^2 = g k
    comp_[c].phase = kPhase[c];
    comp_[c].dir = Eigen::Vector2d(std::cos(heading), std::sin(heading));
  }
}

double WaterSurface::maxElevation() const {
  double s = 0.0;
  for (const auto& c : comp_) s += c.amplitude;
  return s;
}

double WaterSurface::smoothHeight(double x, double y, double t) const {
  if (still()) return 0.0;
  double z = 0.0;
  for (const auto& c : comp_)
    z += c.amplitude * std::cos(c.k * (c.dir.x() * x + c.dir.y() * y) - c.omega * t + c.phase);
  return z;
}

HeightWindow WaterSurface::window(double xmin, double xmax, double ymin, double ymax, double t) const {
  HeightWindow w;
  const double s = spacing();
  w.spacing = s;
  w.i0 = long(std::floor(xmin / s)) - 1;
  w.j0 = long(std::floor(ymin / s)) - 1;
  w.ni = int(long(std::floor(xmax / s)) + 2 - w.i0 + 1);
  w.nj = int(long(std::floor(ymax / s)) + 2 - w.j0 + 1);
  w.heights.resize(size_t(w.ni) * size_t(w.nj));
  for (int b = 0; b < w.nj; ++b)
    for (int a = 0; a < w.ni; ++a) w.heights[size_t(b * w.ni + a)] = nodeHeight(w.i0 + a, w.j0 + b, t);
  return w;
}

}  // namespace varsim
