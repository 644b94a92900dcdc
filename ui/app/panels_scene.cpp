// Scene picker (every registered scene: title, name, description), the main menu bar (panels,
// anti-aliasing, simulation, help) and the default panel layout.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "ui/app/app_state.h"
#include "ui/app/autopilot_ui.h"
#include "ui/app/label_fit.h"
#include "ui/app/panels.h"

namespace varsim {

PanelRect panelRect(const char* panel, float w, float h) {
  // At 1280x720: columns of 300 px (left) and 384 px (plots), the 3-D view the 596 px between them, full height
  // unless a scene's own panel (SPOOK tuning, step bound) docks along the bottom.
  const float top = 22.0f, left = std::clamp(0.234f * w, 240.0f, 330.0f), right = std::clamp(0.3f * w, 280.0f, 460.0f);
  if (!std::strcmp(panel, "Scenes")) return {0, top, left, 0.3f * h};
  if (!std::strcmp(panel, "Simulation")) return {0, top + 0.3f * h, left, 0.34f * h};
  if (!std::strcmp(panel, "Parameters")) return {0, top + 0.64f * h, left, h - top - 0.64f * h};
  if (!std::strcmp(panel, "Plots")) return {w - right, top, right, h - top};
  // Over the view only when asked for (View > Input mapping), to the side of its centre.
  if (!std::strcmp(panel, "Input")) return {left + 10, 0.3f * h, std::min(620.0f, w - left - right - 20), 0.68f * h};
  // The Plan panel is the Plots panel's second tab; its own window (Plots hidden) takes the plots column.
  if (!std::strcmp(panel, "Plan")) return {w - right, top, right, h - top};
  // Along the bottom between the columns: the 3-D view keeps the space above it (view_layout.h).
  if (!std::strcmp(panel, "Scene panel")) {
    const float height = std::clamp(0.3f * h, 180.0f, 280.0f);
    return {left, h - height, std::max(380.0f, w - left - right), height};
  }
  return {w * 0.25f, h * 0.15f, w * 0.5f, h * 0.7f};
}

void notePanelBox(AppState& app) {
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  app.panelBoxes.push_back({pos.x, pos.y, size.x, size.y});
}

bool beginPanelWindow(AppState& app, const char* title, bool* open) {
  const bool outside = app.panelOutsideView[title];
  const bool expanded = ImGui::Begin(title, open, outside ? ImGuiWindowFlags_NoBackground : 0);
  notePanelBox(app);  // collapsed panels too: their title bar still covers the view
  const ScreenRect& box = app.panelBoxes.back();
  const ScreenRect& v = app.view;
  app.panelOutsideView[title] = box.x >= v.x + v.w || box.x + box.w <= v.x || box.y >= v.y + v.h || box.y + box.h <= v.y;
  return expanded;
}

bool beginPanel(AppState& app, const char* panel, const char* title, bool* open) {
  const ImGuiIO& io = ImGui::GetIO();
  const PanelRect r = panelRect(panel, io.DisplaySize.x, io.DisplaySize.y);
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_FirstUseEver);
  const bool expanded = beginPanelWindow(app, title, open);
  if (expanded) return true;
  ImGui::End();
  return false;
}

void drawScenePanel(AppState& app) {
  if (!beginPanel(app, "Scenes", "Scenes", &app.settings.panels.scenes)) return;
  const auto& scenes = SceneRegistry::all();
  if (scenes.empty()) ImGui::TextWrapped("No scenes are registered in this build.");
  const SceneInfo* current = nullptr;
  for (const auto& info : scenes) {
    const bool selected = app.driver.loaded() && app.driver.sceneName() == info.name;
    if (selected) current = &info;
    // Plain names first: the paper reference and the command-line name are in the tooltip.
    const std::string label = elideText(plainTitle(info.title), ImGui::GetContentRegionAvail().x) + "##" + info.name;
    if (ImGui::Selectable(label.c_str(), selected) && !selected) {
      try {
        app.loadScene(info.name, SceneRegistry::defaults(info.name));
      } catch (const std::exception& e) {
        app.notify(e.what(), true);
      }
    }
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(420.0f);
      ImGui::Text("%s  (varsim run %s)", info.title.c_str(), info.name.c_str());
      ImGui::TextUnformatted(info.description.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
  if (current) {
    ImGui::Separator();
    ImGui::TextWrapped("%s", current->description.c_str());
  }
  ImGui::End();
}

namespace {

// Off/2x/4x/8x for the 3-D view; counts above the context's limit are disabled. The choice is saved
// in the settings file (VARSIM_MSAA still overrides it at start).
void drawMsaaMenu(AppState& app) {
  if (!ImGui::BeginMenu("Anti-aliasing (MSAA)")) return;
  const int limit = app.renderer.maxMsaaSamples();
  for (int samples : {0, 2, 4, 8}) {
    char label[16];
    std::snprintf(label, sizeof label, samples ? "%dx" : "Off", samples);
    if (ImGui::MenuItem(label, nullptr, app.renderer.style.msaaSamples == samples, samples <= limit)) {
      app.renderer.style.msaaSamples = samples;
      app.settings.msaaSamples = samples;
    }
  }
  if (app.renderer.softwareRasterizer()) ImGui::TextDisabled("(software rasterizer: off by default, costs ~2x per frame)");
  ImGui::TextDisabled("drawn with %dx; this context allows up to %dx", app.renderer.stats().msaaSamples, limit);
  ImGui::EndMenu();
}

}  // namespace

void drawMainMenu(AppState& app) {
  // The bar's own MenuBarBg covers its window: a transparent window background is skipped by ImGui,
  // which saves filling the strip twice (blended pixels are what a CPU rasterizer pays for).
  ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(0, 0, 0, 0));
  const bool open = ImGui::BeginMainMenuBar();
  ImGui::PopStyleColor();
  if (!open) return;
  app.menuBarHeight = ImGui::GetWindowSize().y;
  PanelVisibility& p = app.settings.panels;
  drawFileMenu(app);
  if (ImGui::BeginMenu("View")) {
    ImGui::MenuItem("Scenes", nullptr, &p.scenes);
    ImGui::MenuItem("Simulation", nullptr, &p.simulation);
    ImGui::MenuItem("Parameters", nullptr, &p.parameters);
    ImGui::MenuItem("Plots", nullptr, &p.plots);
    ImGui::MenuItem("Input mapping", nullptr, &p.input);
    if (ImGui::MenuItem("Integrator study", "F4", app.study.open))
      app.study.toggle(app.driver.loaded() ? app.driver.sceneName() : "");
    ImGui::MenuItem("Plan", nullptr, &app.plan.open);
    ImGui::Separator();
    drawMsaaMenu(app);
    ImGui::Separator();
    if (ImGui::MenuItem("Reset view", "Home")) app.reframeView = true;
    bool follow = app.camera.follow;
    if (ImGui::MenuItem("Follow subject", "C", &follow, OrbitCamera::canFollow(app.drawList.camera))) app.setFollow(follow);
    ImGui::MenuItem("Hide all panels", "Tab", &app.hideUi);
    ImGui::MenuItem("Screenshot", "F12 / P", &app.screenshotRequested);
    if (ImGui::MenuItem("Record video", "F9", app.videoRecording.active())) toggleVideoRecording(app);
    ImGui::Separator();
    if (ImGui::MenuItem("Reset saved settings")) app.resetSavedSettings();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("speed, last scene, panels shown, plot window and input mappings back to their defaults");
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Simulation")) {
    SimDriver& d = app.driver;
    if (ImGui::MenuItem(d.paused() ? "Run" : "Pause", "Space")) d.setPaused(!d.paused());
    if (ImGui::MenuItem("Step", ".")) { d.setPaused(true); d.stepOnce(); }
    if (ImGui::MenuItem("Step back", ",")) d.stepBack();
    if (ImGui::MenuItem("Reset", "Backspace")) app.resetScene();
    if (ImGui::MenuItem("Autopilot (MPC)", "M", app.autopilot.active(), Autopilot::available(d.sceneName())))
      toggleAutopilot(app);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("car, helicopter: model-predictive control re-plans 10 times a second towards a goal;\n"
                        "Ctrl+drag on the ground or T/G, F/H move the goal; any control takes the vehicle back");
    ImGui::Separator();
    // Off = --sync-physics: the steps run before the frame is drawn (for comparison; same trajectory).
    bool worker = app.physicsThread;
    if (ImGui::MenuItem("Physics on a worker thread", nullptr, &worker)) app.setPhysicsThread(worker);
    ImGui::EndMenu();
  }
  drawHelpMenu(app);
  if (app.driver.loaded()) {
    ImGui::SameLine(ImGui::GetWindowWidth() - 360.0f);
    ImGui::TextDisabled("%s   t = %.3f s   %s", app.driver.sceneName().c_str(), app.driver.scene().time(),
                        app.driver.paused() ? "paused" : "running");
  }
  ImGui::EndMainMenuBar();
}

}  // namespace varsim
