// An XY plot on ImGui's draw list (ImGui 1.86 has no ImPlot; Debian packages none): series on log or linear axes
// with decade or 1-2-5 ticks, legend, lines through Ok points, gaps and markers where a method blew up
// (ui/plot/xy_plot_math.h) and a hover read-out. Used by the integrator-study window.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

#include "ui/plot/xy_plot_math.h"

namespace varsim {

struct XySeries {
  std::string name;
  ImU32 color = IM_COL32(255, 255, 255, 255);
  std::vector<CurvePoint> points;
  bool markers = true;  // filled circles at Ok points (off for dense traces)
};

struct XyAxes {
  std::string title, xLabel, yLabel;
  bool logX = true, logY = true;
};

// Draws the plot at the cursor, `width` x `height` logical pixels (legend
// included).
void drawXyPlot(const XyAxes& axes, const std::vector<XySeries>& series, float width, float height);

// Colour of series i in a fixed palette, so a method keeps its colour in every
// plot.
ImU32 seriesColor(size_t i);

}  // namespace varsim
