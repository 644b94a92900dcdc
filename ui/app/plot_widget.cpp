// Plot widget drawing; see header. Each series is decimated to one min/max span per pixel column
// (ui/plot/plot_range.h) so a 10-minute window of 60 Hz data costs the same as a 5-second one.
#include "ui/app/plot_widget.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "ui/app/opaque_fill.h"

namespace varsim {

namespace {

const ImU32 kSeriesColors[] = {IM_COL32(230, 85, 75, 255),  IM_COL32(80, 160, 235, 255), IM_COL32(110, 200, 90, 255),
                               IM_COL32(240, 180, 60, 255), IM_COL32(190, 120, 230, 255), IM_COL32(70, 210, 200, 255)};

std::string tickLabel(double v, bool logY) {
  char buf[32];
  if (logY) std::snprintf(buf, sizeof buf, "1e%g", v);
  else std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// Scratch for series polylines, reused across plots and frames (the UI runs on one thread).
std::vector<ImVec2> polyline_;

}  // namespace

PlotResult drawPlot(const PlotSpec& spec, const PlotHistory& data, const TimeWindow& window, PlotView& view,
                    double markerTime, float height) {
  PlotResult result;
  ImGui::PushID(spec.title.c_str());
  if (!view.initialized) {
    view.logY = spec.logY;
    view.initialized = true;
  }
  view.hidden.resize(spec.columns.size(), false);

  // Series indices into the data, and the visible sample range.
  std::vector<int> index(spec.columns.size());
  for (size_t s = 0; s < spec.columns.size(); ++s) index[s] = data.seriesIndex(spec.columns[s]);
  const auto [first, last] = data.range(window.tMin, window.tMax);
  std::vector<size_t> shown;
  for (size_t s = 0; s < index.size(); ++s)
    if (index[s] >= 0 && !view.hidden[s]) shown.push_back(size_t(index[s]));
  result.visibleSeries = shown;

  // Toolbar: autoscale, log-y, export.
  if (ImGui::Checkbox("auto", &view.autoscale) && !view.autoscale) {
    const YRange r = autoscale(data, shown, first, last, view.logY, spec.scale);
    if (r.valid) { view.yLo = r.lo; view.yHi = r.hi; }
  }
  ImGui::SameLine();
  if (ImGui::Checkbox("log |y|", &view.logY)) view.autoscale = true;
  ImGui::SameLine();
  if (ImGui::SmallButton("export CSV")) result.exportRequested = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("write the visible window and series to a CSV file");
  if (!view.autoscale) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(150);
    float range[2] = {float(view.yLo), float(view.yHi)};
    if (ImGui::DragFloat2("y", range, 0.01f * std::max(1e-6f, std::fabs(range[1] - range[0])), 0, 0, "%.3g") &&
        range[1] > range[0]) {
      view.yLo = range[0];
      view.yHi = range[1];
    }
  }

  YRange y{view.yLo, view.yHi, true};
  if (view.autoscale) {
    y = autoscale(data, shown, first, last, view.logY, spec.scale);
    if (!y.valid) y = {0.0, 1.0, false};
  }

  // Legend above the canvas (click toggles a series), so it never hides data.
  ImDrawList* legendDl = ImGui::GetWindowDrawList();
  for (size_t s = 0; s < spec.columns.size(); ++s) {
    const ImU32 col = kSeriesColors[s % std::size(kSeriesColors)];
    const float textW = ImGui::CalcTextSize(spec.columns[s].c_str()).x + 11.0f;
    if (s > 0) {
      ImGui::SameLine();
      if (ImGui::GetCursorPosX() + textW > ImGui::GetWindowContentRegionMax().x) ImGui::NewLine();
    }
    const ImVec2 c = ImGui::GetCursorScreenPos();
    legendDl->AddRectFilled(ImVec2(c.x, c.y + 4), ImVec2(c.x + 8, c.y + 12), view.hidden[s] ? IM_COL32(90, 90, 90, 255) : col);
    ImGui::SetCursorScreenPos(ImVec2(c.x + 11, c.y));
    ImGui::PushStyleColor(ImGuiCol_Text, view.hidden[s] ? IM_COL32(120, 120, 120, 255) : IM_COL32(230, 230, 230, 255));
    ImGui::TextUnformatted(spec.columns[s].c_str());
    ImGui::PopStyleColor();
    if (ImGui::IsItemClicked()) view.hidden[s] = !view.hidden[s];
    if (ImGui::IsItemHovered()) ImGui::SetTooltip(index[s] < 0 ? "not recorded by this scene" : "click to show/hide");
  }

  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(100.0f, ImGui::GetContentRegionAvail().x);
  const float axisW = 58.0f, axisH = 16.0f;
  const ImVec2 p0(origin.x + axisW, origin.y + 2.0f);
  const ImVec2 p1(origin.x + width - 4.0f, origin.y + height - axisH);
  ImGui::InvisibleButton("canvas", ImVec2(width, height));
  if (!ImGui::IsItemVisible()) {  // scrolled out of the panel: nothing to draw
    ImGui::PopID();
    return result;
  }
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  addOpaqueFill(dl, p0, p1, IM_COL32(22, 24, 30, 255));  // a clear, not a blended fill (opaque_fill.h)
  const double tSpan = window.tMax - window.tMin, ySpan = y.hi - y.lo;
  auto xOf = [&](double t) { return float(p0.x + (t - window.tMin) / tSpan * (p1.x - p0.x)); };
  auto yOf = [&](double v) { return float(p1.y - (v - y.lo) / ySpan * (p1.y - p0.y)); };

  // Grid and tick labels.
  const ImU32 gridCol = IM_COL32(255, 255, 255, 28), textCol = IM_COL32(200, 200, 200, 255);
  for (double v : view.logY ? logTicks(y.lo, y.hi) : niceTicks(y.lo, y.hi, 4)) {
    const float py = yOf(v);
    dl->AddLine(ImVec2(p0.x, py), ImVec2(p1.x, py), gridCol);
    const std::string label = tickLabel(v, view.logY);
    dl->AddText(ImVec2(origin.x, py - 7.0f), textCol, label.c_str());
  }
  for (double t : niceTicks(window.tMin, window.tMax, 5)) {
    const float px = xOf(t);
    dl->AddLine(ImVec2(px, p0.y), ImVec2(px, p1.y), gridCol);
    const std::string label = tickLabel(t, false) + (view.xUnit.empty() ? "" : " " + view.xUnit);
    dl->AddText(ImVec2(px - 12.0f, p1.y + 1.0f), textCol, label.c_str());
  }
  if (!y.valid) dl->AddText(ImVec2(p0.x + 8, p0.y + 8), textCol, view.logY ? "no nonzero data" : "no data");

  // Series: one vertical min/max span per pixel column, joined column to column, as one polyline
  // per series (a zig-zag through each span): a few vertices per column instead of two separate
  // lines, which keeps ten plots cheap to build.
  dl->PushClipRect(p0, p1, true);
  const int columns = std::max(1, int(p1.x - p0.x));
  if (y.valid)
    for (size_t s = 0; s < index.size(); ++s) {
      if (index[s] < 0 || view.hidden[s]) continue;
      const ImU32 col = kSeriesColors[s % std::size(kSeriesColors)];
      const auto spans = decimateMinMax(data, size_t(index[s]), first, last, window.tMin, window.tMax, columns, view.logY);
      polyline_.clear();
      // A whole-pixel width takes ImGui's textured anti-aliased lines: 2 triangles per segment instead of
      // the 6 of a fractional width (1.5 px before). The N = 1000 ladder's UI fell from 19 653 to 9 129
      // triangles, and llvmpipe's p99 frame work by ~1 ms (README, app at scale).
      auto flush = [&] {
        if (polyline_.size() >= 2) dl->AddPolyline(polyline_.data(), int(polyline_.size()), col, 0, 2.0f);
        polyline_.clear();
      };
      for (int c = 0; c < columns; ++c) {
        const ColumnSpan& sp = spans[size_t(c)];
        if (std::isnan(sp.lo)) continue;  // no sample in this column: joined across, as before
        const float px = p0.x + float(c) + 0.5f;
        const float yLo = yOf(sp.lo), yHi = yOf(sp.hi);
        if (yLo - yHi <= 1.0f) {
          polyline_.push_back(ImVec2(px, 0.5f * (yLo + yHi)));
        } else if (!polyline_.empty() && std::fabs(polyline_.back().y - yHi) < std::fabs(polyline_.back().y - yLo)) {
          polyline_.push_back(ImVec2(px, yHi));  // enter the span at the end nearer the previous point
          polyline_.push_back(ImVec2(px, yLo));
        } else {
          polyline_.push_back(ImVec2(px, yLo));
          polyline_.push_back(ImVec2(px, yHi));
        }
      }
      flush();
    }
  if (markerTime >= window.tMin && markerTime <= window.tMax)
    dl->AddLine(ImVec2(xOf(markerTime), p0.y), ImVec2(xOf(markerTime), p1.y), IM_COL32(255, 255, 255, 140), 1.0f);
  dl->PopClipRect();
  dl->AddRect(p0, p1, IM_COL32(255, 255, 255, 60));

  // Hover read-out: nearest sample to the mouse time, values of every series.
  if (hovered && data.size() > 0) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const double t = window.tMin + (m.x - p0.x) / (p1.x - p0.x) * tSpan;
    const size_t i = data.nearest(t);
    if (i < data.size() && data.time(i) >= window.tMin && data.time(i) <= window.tMax) {
      dl->AddLine(ImVec2(xOf(data.time(i)), p0.y), ImVec2(xOf(data.time(i)), p1.y), IM_COL32(255, 255, 0, 90));
      ImGui::BeginTooltip();
      ImGui::Text("%s = %.6g %s", view.xName.c_str(), data.time(i), view.xUnit.c_str());
      for (size_t s = 0; s < index.size(); ++s)
        if (index[s] >= 0) {
          ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kSeriesColors[s % std::size(kSeriesColors)]), "%s = %.10g",
                             spec.columns[s].c_str(), data.value(size_t(index[s]), i));
        }
      ImGui::EndTooltip();
    }
  }
  ImGui::PopID();
  return result;
}

}  // namespace varsim
