// Plot axis computations; see header.
#include "ui/plot/plot_range.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace varsim {

double clampPlotWindow(double seconds) {
  double best = kPlotWindows[1];
  if (!std::isfinite(seconds)) return best;
  for (double w : kPlotWindows)
    if (std::fabs(std::log(w / std::max(seconds, 1e-9))) < std::fabs(std::log(best / std::max(seconds, 1e-9))))
      best = w;
  return best;
}

TimeWindow timeWindow(double tNewest, double seconds) {
  if (!std::isfinite(tNewest) || tNewest < seconds) return {0.0, seconds};
  return {tNewest - seconds, tNewest};
}

static bool plotValue(double v, bool logY, double& out) {
  if (!std::isfinite(v)) return false;
  if (!logY) { out = v; return true; }
  if (v == 0.0) return false;
  out = std::log10(std::fabs(v));
  return true;
}

YRange autoscale(const PlotHistory& data, const std::vector<size_t>& series, size_t first, size_t last, bool logY,
                 double scale) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  last = std::min(last, data.size());
  for (size_t s : series) {
    if (s >= data.seriesCount()) continue;
    for (size_t i = first; i < last; ++i) {
      double v;
      if (!plotValue(data.value(s, i), logY, v)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (!(hi >= lo)) return {};
  if (logY) {
    // Pad outward by 5 % of the span (at least a tenth of a decade), snapped to tenths.
    const double pad = std::max(0.05 * (hi - lo), 0.1);
    return {std::floor((lo - pad) * 10.0) / 10.0, std::ceil((hi + pad) * 10.0) / 10.0, true};
  }
  const double declared = std::isfinite(scale) ? std::fabs(scale) : 0.0;
  const double size = std::max(declared, std::max(std::fabs(lo), std::fabs(hi)));
  if (lo == 0.0 && hi == 0.0) {
    const double half = declared > 0.0 ? declared : 1.0;
    return {-half, half, true};
  }
  const double floorHalf = kRoundOffFloor * size, mid = 0.5 * (lo + hi);
  const double half = hi == lo ? std::max(std::fabs(lo) * 1e-3, floorHalf) : 0.55 * (hi - lo);
  if (half <= floorHalf) return {mid - floorHalf, mid + floorHalf, true};
  if (hi == lo) return {lo - half, hi + half, true};
  const double pad = 0.05 * (hi - lo);
  return {lo - pad, hi + pad, true};
}

std::vector<double> niceTicks(double lo, double hi, int target) {
  std::vector<double> ticks;
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(hi > lo) || target < 1) return ticks;
  const double raw = (hi - lo) / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  // The 1-2-5 step whose tick count is closest to the target.
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (std::fabs((hi - lo) / (m * mag) - target) < std::fabs((hi - lo) / step - target)) step = m * mag;
  const double start = std::ceil(lo / step) * step;
  for (int k = 0; k < 1000; ++k) {
    double v = start + k * step;
    if (v > hi + step * 1e-9) break;
    if (std::fabs(v) < step * 1e-9) v = 0.0;  // avoid "-1.3e-17" labels
    ticks.push_back(v);
  }
  return ticks;
}

std::vector<double> logTicks(double lo10, double hi10) {
  std::vector<double> ticks;
  if (!std::isfinite(lo10) || !std::isfinite(hi10) || !(hi10 > lo10)) return ticks;
  for (double d = std::ceil(lo10); d <= hi10 && ticks.size() < 1000; d += 1.0) ticks.push_back(d);
  if (ticks.size() >= 2) {
    // Many decades: thin to about 8 labels.
    const size_t every = (ticks.size() + 7) / 8;
    std::vector<double> thinned;
    for (size_t i = 0; i < ticks.size(); i += every) thinned.push_back(ticks[i]);
    return thinned;
  }
  return niceTicks(lo10, hi10, 4);
}

std::vector<ColumnSpan> decimateMinMax(const PlotHistory& data, size_t series, size_t first, size_t last,
                                       double tMin, double tMax, int columns, bool logY) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<ColumnSpan> out(size_t(std::max(columns, 0)), ColumnSpan{nan, nan});
  if (columns <= 0 || series >= data.seriesCount() || !(tMax > tMin)) return out;
  last = std::min(last, data.size());
  for (size_t i = first; i < last; ++i) {
    double v;
    if (!plotValue(data.value(series, i), logY, v)) continue;
    const double u = (data.time(i) - tMin) / (tMax - tMin);
    if (!(u >= 0.0 && u <= 1.0)) continue;
    const size_t c = std::min(size_t(columns - 1), size_t(u * columns));
    ColumnSpan& span = out[c];
    if (std::isnan(span.lo)) span = {v, v};
    else { span.lo = std::min(span.lo, v); span.hi = std::max(span.hi, v); }
  }
  return out;
}

}  // namespace varsim
