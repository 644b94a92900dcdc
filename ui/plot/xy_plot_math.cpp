// XY plot axes and curve gaps; see header.
#include "ui/plot/xy_plot_math.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace varsim {

namespace {

bool drawable(double v, bool log) { return std::isfinite(v) && (!log || v > 0.0); }

}  // namespace

AxisRange xyAxisRange(const std::vector<double>& values, bool log) {
  AxisRange r;
  double lo = INFINITY, hi = -INFINITY;
  for (double v : values)
    if (drawable(v, log)) {
      const double u = log ? std::log10(v) : v;
      lo = std::min(lo, u), hi = std::max(hi, u);
    }
  if (!(lo <= hi)) return r;
  r.valid = true;
  if (log) {
    r.lo = std::floor(lo), r.hi = std::ceil(hi);
    if (r.hi <= r.lo) r.hi = r.lo + 1.0;
    return r;
  }
  const double pad = hi > lo ? 0.05 * (hi - lo) : std::max(std::fabs(lo) * 1e-3, 1e-12);
  r.lo = lo - pad, r.hi = hi + pad;
  return r;
}

double axisFraction(double v, const AxisRange& range, bool log) {
  if (!drawable(v, log) || !(range.hi > range.lo)) return NAN;
  return ((log ? std::log10(v) : v) - range.lo) / (range.hi - range.lo);
}

std::vector<double> minorLogTicks(double lo10, double hi10) {
  std::vector<double> ticks;
  if (!std::isfinite(lo10) || !std::isfinite(hi10) || !(hi10 > lo10) || hi10 - lo10 > 60) return ticks;
  for (double k = std::floor(lo10); k < hi10; k += 1.0)
    for (int m = 2; m <= 9; ++m) {
      const double t = k + std::log10(double(m));
      if (t >= lo10 && t <= hi10) ticks.push_back(t);
    }
  return ticks;
}

std::string decadeLabel(double decade) {
  const int k = int(std::lround(decade));
  char buf[32];
  if (k >= -2 && k <= 3)
    std::snprintf(buf, sizeof buf, "%.*f", k < 0 ? -k : 0, std::pow(10.0, k));
  else
    std::snprintf(buf, sizeof buf, "1e%+03d", k);
  return buf;
}

std::vector<std::pair<size_t, size_t>> curveSegments(const std::vector<CurvePoint>& points, bool logX, bool logY) {
  std::vector<std::pair<size_t, size_t>> segments;
  size_t begin = 0;
  for (size_t i = 0; i <= points.size(); ++i) {
    const bool ok = i < points.size() && points[i].state == PointState::Ok && drawable(points[i].x, logX) &&
                    drawable(points[i].y, logY);
    if (ok) continue;
    if (i > begin) segments.emplace_back(begin, i);
    begin = i + 1;
  }
  return segments;
}

}  // namespace varsim
