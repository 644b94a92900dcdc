// XY plot drawing; see header.
#include "ui/app/xy_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/plot/plot_range.h"

namespace varsim {

namespace {

const ImU32 kGrid = IM_COL32(255, 255, 255, 34), kMinorGrid = IM_COL32(255, 255, 255, 14);
const ImU32 kText = IM_COL32(205, 205, 205, 255);

std::string linearLabel(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// Ticks of one axis: major (value in axis units: log10 on log axes) with
// labels, and minor.
struct Ticks {
  std::vector<double> major, minor;
  std::vector<std::string> labels;
};

Ticks axisTicks(const AxisRange& r, bool log, int target) {
  Ticks t;
  if (log) {
    for (double d = std::ceil(r.lo); d <= r.hi; d += 1.0) t.major.push_back(d);
    if (t.major.size() > 8) {  // many decades: label every other (or third) one
      const size_t every = (t.major.size() + 7) / 8;
      std::vector<double> thinned;
      for (size_t i = 0; i < t.major.size(); i += every) thinned.push_back(t.major[i]);
      t.minor = t.major;
      t.major = thinned;
    } else {
      t.minor = minorLogTicks(r.lo, r.hi);
    }
    for (double d : t.major) t.labels.push_back(decadeLabel(d));
  } else {
    t.major = niceTicks(r.lo, r.hi, target);
    for (double v : t.major) t.labels.push_back(linearLabel(v));
  }
  return t;
}

std::vector<double> collect(const std::vector<XySeries>& series, bool x) {
  std::vector<double> v;
  for (const XySeries& s : series)
    for (const CurvePoint& p : s.points)
      if (p.state == PointState::Ok || p.state == PointState::Partial) v.push_back(x ? p.x : p.y);
  return v;
}

// One entry per series, wrapping within `width` from the group's left edge.
void drawLegend(const std::vector<XySeries>& series, float width) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float left = ImGui::GetCursorScreenPos().x;
  for (size_t s = 0; s < series.size(); ++s) {
    const float textW = ImGui::CalcTextSize(series[s].name.c_str()).x + 24.0f;
    if (s > 0) {
      ImGui::SameLine(0.0f, 12.0f);
      if (ImGui::GetCursorScreenPos().x + textW > left + width) ImGui::NewLine();
    }
    const ImVec2 c = ImGui::GetCursorScreenPos();
    dl->AddLine(ImVec2(c.x, c.y + 8), ImVec2(c.x + 16, c.y + 8), series[s].color, 2.0f);
    dl->AddCircleFilled(ImVec2(c.x + 8, c.y + 8), 2.5f, series[s].color);
    ImGui::SetCursorScreenPos(ImVec2(c.x + 20, c.y));
    ImGui::TextUnformatted(series[s].name.c_str());
  }
}

}  // namespace

ImU32 seriesColor(size_t i) {
  static const ImU32 palette[] = {IM_COL32(235, 90, 80, 255),   IM_COL32(80, 160, 240, 255),
                                  IM_COL32(110, 205, 95, 255),  IM_COL32(245, 185, 60, 255),
                                  IM_COL32(195, 125, 235, 255), IM_COL32(70, 215, 205, 255),
                                  IM_COL32(240, 130, 190, 255), IM_COL32(200, 200, 200, 255)};
  return palette[i % std::size(palette)];
}

void drawXyPlot(const XyAxes& axes, const std::vector<XySeries>& series, float width, float height) {
  ImGui::PushID(axes.title.c_str());
  ImGui::BeginGroup();
  ImGui::TextUnformatted(axes.title.c_str());
  const float legendTop = ImGui::GetCursorPosY();
  drawLegend(series, width);
  const float used = ImGui::GetCursorPosY() - legendTop + ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float h = std::max(80.0f, height - used);
  const float axisW = 52.0f, axisH = 34.0f;
  const ImVec2 p0(origin.x + axisW, origin.y + 4.0f), p1(origin.x + width - 8.0f, origin.y + h - axisH);
  ImGui::InvisibleButton("canvas", ImVec2(width, h));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, p1, IM_COL32(22, 24, 30, 255));
  const AxisRange rx = xyAxisRange(collect(series, true), axes.logX);
  const AxisRange ry = xyAxisRange(collect(series, false), axes.logY);
  dl->AddText(ImVec2(0.5f * (p0.x + p1.x) - 0.5f * ImGui::CalcTextSize(axes.xLabel.c_str()).x, p1.y + 17.0f), kText,
              axes.xLabel.c_str());
  if (!rx.valid || !ry.valid) {
    dl->AddText(ImVec2(p0.x + 10, p0.y + 10), kText, "no data to plot");
    dl->AddRect(p0, p1, IM_COL32(255, 255, 255, 60));
    ImGui::EndGroup();
    ImGui::PopID();
    return;
  }
  auto px = [&](double x) { return float(p0.x + axisFraction(x, rx, axes.logX) * (p1.x - p0.x)); };
  auto py = [&](double y) { return float(p1.y - axisFraction(y, ry, axes.logY) * (p1.y - p0.y)); };
  auto fromAxis = [](double u, bool log) { return log ? std::pow(10.0, u) : u; };

  // Grid, ticks and labels (tick values are in axis units: log10 on log axes).
  const Ticks tx = axisTicks(rx, axes.logX, 5), ty = axisTicks(ry, axes.logY, 4);
  for (double u : tx.minor)
    dl->AddLine(ImVec2(px(fromAxis(u, axes.logX)), p0.y), ImVec2(px(fromAxis(u, axes.logX)), p1.y), kMinorGrid);
  for (double u : ty.minor)
    dl->AddLine(ImVec2(p0.x, py(fromAxis(u, axes.logY))), ImVec2(p1.x, py(fromAxis(u, axes.logY))), kMinorGrid);
  for (size_t i = 0; i < tx.major.size(); ++i) {
    const float x = px(fromAxis(tx.major[i], axes.logX));
    dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), kGrid);
    const float w = ImGui::CalcTextSize(tx.labels[i].c_str()).x;
    dl->AddText(ImVec2(x - 0.5f * w, p1.y + 2.0f), kText, tx.labels[i].c_str());
  }
  for (size_t i = 0; i < ty.major.size(); ++i) {
    const float y = py(fromAxis(ty.major[i], axes.logY));
    dl->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), kGrid);
    const float w = ImGui::CalcTextSize(ty.labels[i].c_str()).x;
    dl->AddText(ImVec2(p0.x - w - 4.0f, y - 7.0f), kText, ty.labels[i].c_str());
  }
  dl->AddText(ImVec2(p0.x + 4.0f, p0.y + 2.0f), IM_COL32(170, 170, 170, 255), axes.yLabel.c_str());

  // Curves: lines through the Ok runs, hollow circles at partial cells (some
  // runs blew up), a cross on the bottom edge where every run blew up.
  dl->PushClipRect(ImVec2(p0.x - 6, p0.y - 6), ImVec2(p1.x + 6, p1.y + 6), true);
  std::vector<ImVec2> line;
  for (const XySeries& s : series) {
    for (const auto& [begin, end] : curveSegments(s.points, axes.logX, axes.logY)) {
      line.clear();
      for (size_t i = begin; i < end; ++i) line.push_back(ImVec2(px(s.points[i].x), py(s.points[i].y)));
      if (line.size() >= 2) dl->AddPolyline(line.data(), int(line.size()), s.color, 0, 2.0f);
      if (s.markers || line.size() == 1)
        for (const ImVec2& p : line) dl->AddCircleFilled(p, 3.0f, s.color);
    }
    for (const CurvePoint& p : s.points) {
      if (p.state == PointState::Partial && std::isfinite(axisFraction(p.y, ry, axes.logY)))
        dl->AddCircle(ImVec2(px(p.x), py(p.y)), 4.5f, s.color, 0, 1.5f);
      if (p.state == PointState::BlownUp && std::isfinite(axisFraction(p.x, rx, axes.logX))) {
        const ImVec2 c(px(p.x), p1.y - 6.0f);
        dl->AddLine(ImVec2(c.x - 4, c.y - 4), ImVec2(c.x + 4, c.y + 4), s.color, 2.0f);
        dl->AddLine(ImVec2(c.x - 4, c.y + 4), ImVec2(c.x + 4, c.y - 4), s.color, 2.0f);
      }
    }
  }
  dl->PopClipRect();
  dl->AddRect(p0, p1, IM_COL32(255, 255, 255, 60));

  // Hover: the nearest plotted point within 12 px.
  if (hovered) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const XySeries* best = nullptr;
    const CurvePoint* bestPoint = nullptr;
    float bestD = 144.0f;
    for (const XySeries& s : series)
      for (const CurvePoint& p : s.points) {
        if (p.state != PointState::Ok && p.state != PointState::Partial) continue;
        const float dx = px(p.x) - m.x, dy = py(p.y) - m.y;
        if (std::isfinite(dx) && std::isfinite(dy) && dx * dx + dy * dy < bestD)
          bestD = dx * dx + dy * dy, best = &s, bestPoint = &p;
      }
    if (best) {
      ImGui::BeginTooltip();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(best->color), "%s", best->name.c_str());
      ImGui::Text("%s = %.6g", axes.xLabel.c_str(), bestPoint->x);
      ImGui::Text("%s = %.6g%s", axes.yLabel.c_str(), bestPoint->y,
                  bestPoint->state == PointState::Partial ? "  (some runs blew up)" : "");
      ImGui::EndTooltip();
    }
  }
  ImGui::EndGroup();
  ImGui::PopID();
}

}  // namespace varsim
