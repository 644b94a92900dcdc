// Plot axes, data side: the selectable time windows (5 s … 10 min), autoscaled y ranges (linear, and
// log-y of |y| in decades), "nice" tick positions, and min/max decimation so a 10-minute window of
// 60 Hz samples draws as one vertical span per pixel column.
#pragma once
#include <array>
#include <cstddef>
#include <vector>

#include "ui/plot/plot_history.h"

namespace varsim {

constexpr std::array<double, 7> kPlotWindows = {5, 10, 30, 60, 120, 300, 600};  // seconds
double clampPlotWindow(double seconds);  // nearest entry of kPlotWindows

struct TimeWindow {
  double tMin = 0.0, tMax = 0.0;
};
// The last `seconds` ending at tNewest; before that much time has passed: [0, seconds].
TimeWindow timeWindow(double tNewest, double seconds);

struct YRange {
  double lo = 0.0, hi = 1.0;  // for log scale: log10 of the bounds
  bool valid = false;         // false when no finite (for log: no nonzero) sample is visible
};
// Range over the given series and index range, padded by 5 % of the span. Linear: the half-span is at
// least kRoundOffFloor × size, size the larger of `scale` (PlotSpec::scale) and the largest |v| shown, so
// round-off (|q| - 1 at 1e-16) draws as a flat line instead of filling the plot with noise; a constant
// signal gets at least ±|v|·1e-3; all samples exactly 0 give [-size, size] (a flat line at 0; size 1
// when both are 0). Log: over log10|v| for v ≠ 0, padded outward to whole tenths of a decade.
constexpr double kRoundOffFloor = 1e-9;
YRange autoscale(const PlotHistory& data, const std::vector<size_t>& series, size_t first, size_t last, bool logY,
                 double scale = 1.0);

// Ticks at 1, 2 or 5 × 10^k inside [lo, hi], about `target` of them.
std::vector<double> niceTicks(double lo, double hi, int target);
// For log axes (bounds in decades): integer decades inside [lo10, hi10]; if fewer than two, niceTicks.
std::vector<double> logTicks(double lo10, double hi10);

// One (min, max) pair per output column over samples [first, last) of a series, columns spanning
// [tMin, tMax] evenly; empty columns are NaN. Non-finite samples are skipped; logY uses log10|v|.
struct ColumnSpan {
  double lo, hi;
};
std::vector<ColumnSpan> decimateMinMax(const PlotHistory& data, size_t series, size_t first, size_t last,
                                       double tMin, double tMax, int columns, bool logY);

}  // namespace varsim
