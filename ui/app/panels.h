// The app's ImGui panels, one file each (panels_*.cpp), all free functions over AppState.
#pragma once
#include "engine/sim/param.h"

namespace varsim {

struct AppState;

void drawMainMenu(AppState& app);
void drawScenePanel(AppState& app);
void drawSimulationPanel(AppState& app);
void drawParametersPanel(AppState& app);
void drawPlotsPanel(AppState& app);
void drawInputPanel(AppState& app);
// SPOOK tuning (ε, τ, conventions, picked joint, whiplash profile, ghosts); only for rod scenes.
void drawRodPanel(AppState& app);
void drawHelpOverlay(AppState& app);
// HUD lines of the scene and the rates (hidden by Tab), world labels and the notice area (always).
void drawOverlays(AppState& app);
// One generated widget for a parameter of the current scene (shared by the simulation and
// parameter panels): range from the spec, live or "applies on reset", rejection message.
void drawParamWidget(AppState& app, const ParamSpec& spec);

// Default panel layout for a display of this size (applied on first use).
struct PanelRect {
  float x, y, w, h;
};
PanelRect panelRect(const char* panel, float displayW, float displayH);
// ImGui::Begin at the default layout of `panel`; false (window collapsed, End already called) means
// skip the contents. When true the caller ends with ImGui::End().
bool beginPanel(const char* panel, const char* title, bool* open);

}  // namespace varsim
