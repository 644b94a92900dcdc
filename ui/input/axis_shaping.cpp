// Axis shaping chain: validate → calibrate/normalize → invert → rescaled dead-zone → expo.
#include "ui/input/axis_shaping.h"

#include <algorithm>
#include <cmath>

namespace varsim {

bool rawAxisValid(double raw) { return std::isfinite(raw) && std::fabs(raw) <= kRawAxisLimit; }

double normalizeAxis(double raw, const AxisCalibration& cal) {
  if (!std::isfinite(raw)) return 0.0;
  const bool unipolar = cal.center <= cal.min;
  if (raw >= cal.center) {
    if (!(cal.max > cal.center)) return 0.0;
    return std::min(1.0, (raw - cal.center) / (cal.max - cal.center));
  }
  if (unipolar) return 0.0;
  return std::max(-1.0, -(cal.center - raw) / (cal.center - cal.min));
}

double applyDeadZone(double x, double deadZone) {
  const double dz = std::clamp(deadZone, 0.0, 0.9);
  const double a = std::fabs(x);
  if (a <= dz) return 0.0;
  return std::copysign(std::min(1.0, (a - dz) / (1.0 - dz)), x);
}

double applyExpo(double x, double expo) {
  const double e = std::clamp(expo, 0.0, 1.0);
  return (1.0 - e) * x + e * x * x * x;
}

double shapeAxis(double raw, const AxisShaping& s) {
  if (!rawAxisValid(raw)) return 0.0;
  double x = normalizeAxis(raw, s.cal);
  if (s.invert) x = -x;
  return applyExpo(applyDeadZone(x, s.deadZone), s.expo);
}

AxisShaping sanitizeShaping(AxisShaping s) {
  auto finiteOr = [](double v, double fallback) { return std::isfinite(v) ? v : fallback; };
  s.deadZone = std::clamp(finiteOr(s.deadZone, 0.08), 0.0, 0.9);
  s.expo = std::clamp(finiteOr(s.expo, 0.0), 0.0, 1.0);
  AxisCalibration& c = s.cal;
  c.min = std::clamp(finiteOr(c.min, -1.0), -kRawAxisLimit, kRawAxisLimit);
  c.max = std::clamp(finiteOr(c.max, 1.0), -kRawAxisLimit, kRawAxisLimit);
  c.center = std::clamp(finiteOr(c.center, 0.0), c.min, c.max);
  if (!(c.max > c.min + 0.2) || !(c.max > c.center)) c = AxisCalibration{};
  return s;
}

void AxisCalibrator::begin(double raw) {
  active_ = true;
  min_ = max_ = rawAxisValid(raw) ? raw : 0.0;
}

void AxisCalibrator::observe(double raw) {
  if (!active_ || !rawAxisValid(raw)) return;
  min_ = std::min(min_, raw);
  max_ = std::max(max_, raw);
}

bool AxisCalibrator::finish(AxisCalibration& cal, bool unipolar) {
  active_ = false;
  if (max_ - min_ < 0.2) return false;
  const double center = unipolar ? min_ : std::clamp(cal.center, min_, max_);
  // A rest point on the edge of a bipolar sweep would make one half degenerate: use the midpoint.
  cal.center = (!unipolar && (center <= min_ || center >= max_)) ? 0.5 * (min_ + max_) : center;
  cal.min = min_;
  cal.max = max_;
  return true;
}

void AxisCalibrator::recentre(AxisCalibration& cal, double raw) {
  if (!rawAxisValid(raw)) return;
  const bool unipolar = cal.center <= cal.min;
  if (unipolar) { cal.min = cal.center = std::min(raw, cal.max - 0.2); return; }
  cal.center = std::clamp(raw, cal.min + 0.05, cal.max - 0.05);
}

}  // namespace varsim
