// The whiplash profile plot of the SPOOK tuning panel: speed against link (or body) index as bars
// coloured on the rods' speed scale, the running peak since release as a line, hover read-out.
#pragma once
#include "ui/core/rod_panel_data.h"

namespace varsim {

// Draws into the current ImGui window, full width, `height` pixels tall.
void drawSpeedBars(const SpeedProfile& profile, const SpeedEnvelope& envelope, float height);

}  // namespace varsim
