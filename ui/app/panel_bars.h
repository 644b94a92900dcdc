// Bars widget of scene-declared panels (PanelWidget::Kind::Bars), e.g. the ladder's whiplash profile:
// one bar per index in the scene's colours, the running peak as a line, hover read-out.
#pragma once
#include <string>
#include <vector>

#include "render/draw_list.h"
#include "ui/core/scene_panel_state.h"

namespace varsim {

// Draws into the current ImGui window, full width, `height` pixels tall. `peak` may be nullptr;
// `axis` names one bar ("link"), `format` prints one value (printf, e.g. "%.4g m/s").
void drawBars(const std::vector<double>& values, const std::vector<Rgba>& colors, const ProfilePeak* peak,
              const std::string& axis, const std::string& format, float height);

}  // namespace varsim
