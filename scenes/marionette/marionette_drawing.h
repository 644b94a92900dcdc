// scenes/marionette/marionette_drawing.h — what the marionette scene draws: the puppet's bodies from its tree (capsule limbs, box
// torso and feet, sphere head, hands and joints), the control bar as wooden slats, the strings as lines, the
// puppeteer's handle, and the HUD. Plain data (render/draw_list.h), no GL.
#pragma once

#include <vector>

#include "engine/sim/param.h"
#include "render/draw_list.h"
#include "scenes/marionette/marionette_model.h"
#include "scenes/marionette/marionette_strings.h"

namespace varsim {

// The model's tree must be at the state to draw (q and the bar's kinematic values). Slack strings sag.
void drawMarionette(const MarionetteModel& model, const SlackStrings& strings, DrawList& out);
// HUD lines from a diagnostics row (columns of the marionette scene) and the camera hint.
void marionetteHud(const std::vector<double>& row, const ParamSet& params, DrawList& out);

}  // namespace varsim
