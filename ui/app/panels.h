// The app's ImGui panels, one file each (panels_*.cpp), all free functions over AppState.
#pragma once
#include "engine/sim/param.h"

namespace varsim {

struct AppState;

void drawMainMenu(AppState& app);
void drawFileMenu(AppState& app);         // file_menu.cpp: scene presets, Open file...
void drawOpenFileWindow(AppState& app);   // the ImGui file dialog File > Open file... shows
void drawHelpMenu(AppState& app);         // help_menu.cpp: shortcuts, every scene's keys, documentation pages
void drawSceneKeysWindow(AppState& app);  // Help > Keys of every scene
void drawScenePanel(AppState& app);
void drawSimulationPanel(AppState& app);
void drawParametersPanel(AppState& app);
void drawPlotsPanel(AppState& app);
void drawInputPanel(AppState& app);
// The panels the current scene declares (Scene::panels: e.g. the rod scenes' SPOOK tuning), drawn
// generically by scene_panels.cpp; followScenePanels alone keeps their state on the current scene
// (also on the physics worker, after each step); showScenePanelNotice, on the UI thread, shows what a
// reset dropped.
void followScenePanels(AppState& app);
void showScenePanelNotice(AppState& app);
void drawScenePanels(AppState& app);
// The scene's marks over the 3-D view and picking by click (Scene::pick); after AppState::layoutView,
// as both map pixels through the view rectangle.
void drawSceneViewMarks(AppState& app);
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
// skip the contents. When true the caller ends with ImGui::End(). Records the window's rectangle
// in app.panelBoxes (docked panels shrink the 3-D view).
bool beginPanel(AppState& app, const char* panel, const char* title, bool* open);
// ImGui::Begin of a panel window (always followed by ImGui::End), recorded in app.panelBoxes and
// drawn without a background when it lay wholly outside the 3-D view last frame (over the
// renderer's clear in the same colour: a CPU rasterizer pays per blended panel pixel).
bool beginPanelWindow(AppState& app, const char* title, bool* open = nullptr);
// Adds the current ImGui window's rectangle to app.panelBoxes (between Begin and End).
void notePanelBox(AppState& app);

}  // namespace varsim
