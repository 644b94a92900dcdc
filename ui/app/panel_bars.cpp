// Bars widget of scene panels; see header.
#include "ui/app/panel_bars.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "ui/app/opaque_fill.h"
#include "ui/plot/plot_range.h"

namespace varsim {

namespace {
ImU32 toU32(const Rgba& c) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, c.a)); }
std::string valueText(const std::string& format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format.c_str(), v);
  return buf;
}
}  // namespace

void drawBars(const std::vector<double>& v, const std::vector<Rgba>& colors, const ProfilePeak* envelope,
              const std::string& axis, const std::string& format, float height) {
  static const std::vector<double> none;
  const std::vector<double>& peak = envelope ? envelope->peak() : none;
  const size_t n = v.size();
  if (n == 0) return;
  double top = 0.0;
  for (size_t k = 0; k < n; ++k) top = std::max({top, v[k], k < peak.size() ? peak[k] : 0.0});
  const double yHi = top > 0 ? 1.05 * top : 1.0;

  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(120.0f, ImGui::GetContentRegionAvail().x), axisW = 44.0f, axisH = 16.0f;
  const ImVec2 p0(origin.x + axisW, origin.y + 2.0f), p1(origin.x + width - 4.0f, origin.y + height - axisH);
  ImGui::InvisibleButton("bars", ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  addOpaqueFill(dl, p0, p1, IM_COL32(22, 24, 30, 255));  // a clear, not a blended fill (opaque_fill.h)
  const float slot = (p1.x - p0.x) / float(n);
  auto yOf = [&](double s) { return float(p1.y - s / yHi * (p1.y - p0.y)); };
  const ImU32 gridCol = IM_COL32(255, 255, 255, 28), textCol = IM_COL32(200, 200, 200, 255);
  char buf[32];
  for (double s : niceTicks(0.0, yHi, 4)) {
    dl->AddLine(ImVec2(p0.x, yOf(s)), ImVec2(p1.x, yOf(s)), gridCol);
    std::snprintf(buf, sizeof buf, "%.3g", s);
    dl->AddText(ImVec2(origin.x, yOf(s) - 7.0f), textCol, buf);
  }
  for (double k : niceTicks(1.0, double(n), 6)) {
    if (k != std::floor(k)) continue;
    const float x = p0.x + (float(k) - 0.5f) * slot;
    std::snprintf(buf, sizeof buf, "%.0f", k);
    dl->AddText(ImVec2(x - 4.0f, p1.y + 1.0f), textCol, buf);
  }
  // Bars: one per index with a gap while they are wide; below a pixel each they merge into columns.
  const float gap = slot > 4.0f ? 0.2f * slot : 0.0f;
  for (size_t k = 0; k < n; ++k) {
    const float x0 = p0.x + float(k) * slot + 0.5f * gap, x1 = std::max(x0 + 1.0f, p0.x + float(k + 1) * slot - 0.5f * gap);
    dl->AddRectFilled(ImVec2(x0, yOf(v[k])), ImVec2(x1, p1.y), toU32(k < colors.size() ? colors[k] : Rgba{}));
  }
  if (peak.size() == n) {
    std::vector<ImVec2> line(n);
    for (size_t k = 0; k < n; ++k) line[k] = ImVec2(p0.x + (float(k) + 0.5f) * slot, yOf(peak[k]));
    dl->AddPolyline(line.data(), int(n), IM_COL32(255, 230, 120, 220), 0, 1.5f);
  }
  dl->AddRect(p0, p1, IM_COL32(255, 255, 255, 60));
  if (hovered) {
    const float mx = ImGui::GetIO().MousePos.x;
    const size_t k = size_t(std::clamp((mx - p0.x) / slot, 0.0f, float(n) - 1.0f));
    ImGui::BeginTooltip();
    ImGui::Text("%s %zu: %s now", axis.c_str(), k + 1, valueText(format, v[k]).c_str());
    if (peak.size() == n)
      ImGui::Text("peak %s at t = %.3f s", valueText(format, peak[k]).c_str(), envelope->peakTime()[k]);
    ImGui::EndTooltip();
  }
}

}  // namespace varsim
