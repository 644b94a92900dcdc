// A small time-series plot on ImGui's draw list (ImPlot is not packaged in Debian): several series,
// autoscale or fixed y range, log-y (of |y|), hover read-out, legend (click toggles a series),
// a marker for the history cursor, and export of the visible data to CSV. The data side (ring
// buffer, ranges, ticks, decimation, export) lives in ui/plot and is tested there.
#pragma once
#include <string>
#include <vector>

#include "engine/sim/system.h"
#include "ui/plot/plot_history.h"
#include "ui/plot/plot_range.h"

namespace varsim {

struct PlotView {
  bool autoscale = true;
  bool logY = false;
  bool initialized = false;
  double yLo = 0.0, yHi = 1.0;  // manual range (log: decades), taken from the autoscale when switched off
  std::vector<bool> hidden;     // per series of the spec
  std::string xName = "t", xUnit = "s";  // the x axis (the Plan panel's: "iteration", no unit)
};

struct PlotResult {
  bool exportRequested = false;  // the caller writes the file (it knows the directory and notices)
  std::vector<size_t> visibleSeries;
};

// Draws one plot of `spec` over `window`; markerTime < 0 draws no marker.
PlotResult drawPlot(const PlotSpec& spec, const PlotHistory& data, const TimeWindow& window, PlotView& view,
                    double markerTime, float height);

}  // namespace varsim
