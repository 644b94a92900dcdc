// Scene picker (every registered scene: title, name, description), the main menu bar and the
// default panel layout.
#include <imgui.h>

#include <cstring>

#include "ui/app/app_state.h"
#include "ui/app/panels.h"

namespace varsim {

PanelRect panelRect(const char* panel, float w, float h) {
  const float top = 22.0f, left = 330.0f, right = std::min(460.0f, 0.36f * w);
  if (!std::strcmp(panel, "Scenes")) return {0, top, left, 0.22f * h};
  if (!std::strcmp(panel, "Simulation")) return {0, top + 0.22f * h, left, 0.36f * h};
  if (!std::strcmp(panel, "Parameters")) return {0, top + 0.58f * h, left, h - top - 0.58f * h};
  if (!std::strcmp(panel, "Plots")) return {w - right, top, right, h - top};
  if (!std::strcmp(panel, "Input")) return {left + 10, 0.3f * h, std::min(620.0f, w - left - right - 20), 0.68f * h};
  return {w * 0.25f, h * 0.15f, w * 0.5f, h * 0.7f};
}

bool beginPanel(const char* panel, const char* title, bool* open) {
  const ImGuiIO& io = ImGui::GetIO();
  const PanelRect r = panelRect(panel, io.DisplaySize.x, io.DisplaySize.y);
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_FirstUseEver);
  if (ImGui::Begin(title, open)) return true;
  ImGui::End();
  return false;
}

void drawScenePanel(AppState& app) {
  if (!beginPanel("Scenes", "Scenes", &app.settings.panels.scenes)) return;
  const auto& scenes = SceneRegistry::all();
  if (scenes.empty()) ImGui::TextWrapped("No scenes are registered in this build.");
  const SceneInfo* current = nullptr;
  for (const auto& info : scenes) {
    const bool selected = app.driver.loaded() && app.driver.sceneName() == info.name;
    if (selected) current = &info;
    const std::string label = info.title + "  (" + info.name + ")";
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

void drawMainMenu(AppState& app) {
  if (!ImGui::BeginMainMenuBar()) return;
  PanelVisibility& p = app.settings.panels;
  if (ImGui::BeginMenu("View")) {
    ImGui::MenuItem("Scenes", nullptr, &p.scenes);
    ImGui::MenuItem("Simulation", nullptr, &p.simulation);
    ImGui::MenuItem("Parameters", nullptr, &p.parameters);
    ImGui::MenuItem("Plots", nullptr, &p.plots);
    ImGui::MenuItem("Input mapping", nullptr, &p.input);
    ImGui::Separator();
    ImGui::MenuItem("Hide all panels", "Tab", &app.hideUi);
    ImGui::MenuItem("Screenshot", "F12 / P", &app.screenshotRequested);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Simulation")) {
    SimDriver& d = app.driver;
    if (ImGui::MenuItem(d.paused() ? "Run" : "Pause", "Space")) d.setPaused(!d.paused());
    if (ImGui::MenuItem("Step", "Right")) { d.setPaused(true); d.stepOnce(); }
    if (ImGui::MenuItem("Step back", "Left")) d.stepBack();
    if (ImGui::MenuItem("Reset", "Backspace")) {
      try { d.reset(); } catch (const std::exception& e) { app.notify(std::string("reset failed: ") + e.what(), true); }
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    ImGui::MenuItem("Shortcuts", "F1", &p.help);
    ImGui::EndMenu();
  }
  if (app.driver.loaded()) {
    ImGui::SameLine(ImGui::GetWindowWidth() - 360.0f);
    ImGui::TextDisabled("%s   t = %.3f s   %s", app.driver.sceneName().c_str(), app.driver.scene().time(),
                        app.driver.paused() ? "paused" : "running");
  }
  ImGui::EndMainMenuBar();
}

}  // namespace varsim
