// The HUD lines a video frame carries (time, energy, the scene's own HUD lines, warnings), composed from
// plain run state so `varsim run --video` (RunSession) and the app's recorder (SimDriver) write the same
// text for the same state: a replay recorded in the app gives the headless command's frames.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "engine/sim/energy_monitor.h"
#include "render/draw_list.h"
#include "ui/video/hud_text.h"

namespace varsim::video {

struct HudState {
  std::string scene;
  double time = 0.0;                 // s
  std::optional<double> energy;      // J, the diagnostics' "energy" column when the scene has one
  const EnergyMonitor* monitor = nullptr;
  std::string parameterWarning;      // Scene::parameterWarning()
};

// The "energy" entry of a diagnostics row, if the columns name one.
std::optional<double> energyOf(const std::vector<std::string>& columns, const std::vector<double>& row);

// "SCENE  t = 1.250 s  E = -3.21 J", the draw list's HUD lines, then the warnings (the app's wording).
std::vector<HudLine> videoHudLines(const HudState& state, const DrawList& list);

}  // namespace varsim::video
