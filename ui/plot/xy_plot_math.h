// XY plots (the integrator study's log-log error curves and orbit traces), data side: axis ranges (log axes: whole
// decades), decade labels and minor ticks, and splitting a curve where its method blew up, so the plot shows a gap
// there as the paper's Figs. 4-5 do.
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace varsim {

struct AxisRange {
  double lo = 0.0, hi = 1.0;  // log axes: log10 of the bounds
  bool valid = false;         // false when no drawable value was given
};
// Log: from floor(log10 min) to ceil(log10 max) over the finite positive
// values, at least one decade. Linear: over the finite values, padded by 5 % of
// the span (a constant gets ±max(|v|·1e-3, 1e-12)).
AxisRange xyAxisRange(const std::vector<double>& values, bool log);

// Position of v along the axis, 0 at lo and 1 at hi (log axes: of log10 v); NaN
// when v cannot be drawn.
double axisFraction(double v, const AxisRange& range, bool log);

// Minor ticks of a log axis: log10(m·10^k) for m = 2..9 inside [lo10, hi10].
std::vector<double> minorLogTicks(double lo10, double hi10);
// Label of the tick at 10^decade: plain for 10^-2 ... 10^3 ("0.01", "1",
// "1000"), else "1e-5", "1e+06".
std::string decadeLabel(double decade);

// A curve point: Ok points join into lines; Partial (some runs of the cell blew
// up: the mean is over the survivors) and BlownUp (every run blew up: no value)
// points break the line.
enum class PointState { Ok, Partial, BlownUp, Missing };
struct CurvePoint {
  double x = 0.0, y = 0.0;
  PointState state = PointState::Missing;
};
// Index ranges [begin, end) of the maximal runs of consecutive Ok points that
// can be drawn on the axes (finite; positive on a log axis). A range of one
// point is a lone marker.
std::vector<std::pair<size_t, size_t>> curveSegments(const std::vector<CurvePoint>& points, bool logX, bool logY);

}  // namespace varsim
