// See video_hud.h. Numbers are printed with fixed formats, so equal doubles give equal pixels.
#include "ui/video/video_hud.h"

#include <cstdio>

namespace varsim::video {

std::optional<double> energyOf(const std::vector<std::string>& columns, const std::vector<double>& row) {
  for (size_t c = 0; c < columns.size() && c < row.size(); ++c)
    if (columns[c] == "energy") return row[c];
  return std::nullopt;
}

std::vector<HudLine> videoHudLines(const HudState& s, const DrawList& list) {
  std::vector<HudLine> lines;
  char text[160];
  if (s.energy) std::snprintf(text, sizeof text, "%s  t = %.3f s  E = %.6g J", s.scene.c_str(), s.time, *s.energy);
  else std::snprintf(text, sizeof text, "%s  t = %.3f s", s.scene.c_str(), s.time);
  lines.push_back({text});
  for (const std::string& l : list.hud) lines.push_back({l});
  if (!s.parameterWarning.empty()) lines.push_back({s.parameterWarning, {255, 200, 90}});
  if (s.monitor && s.monitor->flagged()) {  // as the app's HUD line (ui/app/overlays.cpp)
    std::snprintf(text, sizeof text, "ENERGY GAIN up to %+.3g J without input, since t = %.3f s", s.monitor->peakGain(),
                  s.monitor->flag().time);
    lines.push_back({text, {255, 77, 77}});
  }
  return lines;
}

}  // namespace varsim::video
