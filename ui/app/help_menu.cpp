// Help menu: the shortcuts (F1), every scene's keys (generated from the scenes' control specs, ui/core/
// scene_help.h, so they cannot drift from the bindings) and the documentation pages of the source tree, opened
// with the desktop's viewer (xdg-open) and their path put on the clipboard.
#include <imgui.h>

#include <algorithm>
#include <cstdlib>

#include "ui/app/app_state.h"
#include "ui/app/label_fit.h"
#include "ui/app/panels.h"
#include "ui/core/scene_help.h"

namespace varsim {

namespace {

const std::vector<SceneHelp>& sceneHelpList() {
  static const std::vector<SceneHelp> all = allSceneHelp();  // built once, the first time Help is opened
  return all;
}

void openDocsPage(AppState& app, const std::string& path) {
  if (path.empty()) return;
  ImGui::SetClipboardText(path.c_str());
  // The path comes from the build's source directory; a quote in it would end the shell word, so then only copy.
  const bool viewer = path.find('\'') == std::string::npos && std::system("command -v xdg-open >/dev/null 2>&1") == 0;
  const bool opened = viewer && std::system(("xdg-open '" + path + "' >/dev/null 2>&1 &").c_str()) == 0;
  app.notify((opened ? "opened " : "path copied: ") + path);
}

void docsItem(AppState& app, const char* label, const std::string& relative) {
  const std::string path = docsPage(relative);
  if (ImGui::MenuItem(label, nullptr, false, !path.empty())) openDocsPage(app, path);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s", path.empty() ? ("docs/" + relative + " is not in this tree").c_str() : path.c_str());
}

}  // namespace

void drawHelpMenu(AppState& app) {
  if (!ImGui::BeginMenu("Help")) return;
  ImGui::MenuItem("Shortcuts", "F1", &app.settings.panels.help);
  ImGui::MenuItem("Keys of every scene", nullptr, &app.sceneKeysOpen);
  ImGui::Separator();
  if (app.driver.loaded()) {
    const std::string label = "This scene's page (" + app.driver.sceneName() + ")";
    docsItem(app, label.c_str(), "scenes/" + app.driver.sceneName() + ".md");
  }
  docsItem(app, "Getting started", "getting-started.md");
  docsItem(app, "Planning (the Plan panel)", "planning.md");
  docsItem(app, "Autopilot (MPC)", "app-autopilot.md");
  docsItem(app, "Integrator study (F4)", "study.md");
  docsItem(app, "Numerics", "numerics.md");
  docsItem(app, "Command line", "cli.md");
  if (ImGui::BeginMenu("Scene pages")) {
    for (const SceneHelp& h : sceneHelpList()) {
      if (ImGui::MenuItem(plainTitle(h.title).c_str(), h.name.c_str(), false, !h.docsPage.empty()))
        openDocsPage(app, h.docsPage);
    }
    ImGui::EndMenu();
  }
  ImGui::EndMenu();
}

void drawSceneKeysWindow(AppState& app) {
  if (!app.sceneKeysOpen) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(720.0f, io.DisplaySize.x - 40.0f), io.DisplaySize.y * 0.8f), ImGuiCond_Appearing);
  if (!ImGui::Begin("Keys of every scene", &app.sceneKeysOpen, ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::End();
    return;
  }
  notePanelBox(app);
  ImGui::TextWrapped("Default keys from each scene's controls (remap in View > Input mapping). Every scene also "
                     "takes the shortcuts of Help > Shortcuts (F1) and the mouse: left drag orbits, right drag pans, "
                     "the wheel zooms, Home frames the scene.");
  for (const SceneHelp& h : sceneHelpList()) {
    const bool current = app.driver.loaded() && app.driver.sceneName() == h.name;
    const std::string header = plainTitle(h.title) + " (" + h.name + ")###keys " + h.name;
    if (!ImGui::CollapsingHeader(header.c_str(), current ? ImGuiTreeNodeFlags_DefaultOpen : 0)) continue;
    if (h.keys.empty()) {
      ImGui::TextDisabled("%s", sceneHelpText(h).c_str());
      continue;
    }
    if (!ImGui::BeginTable(h.name.c_str(), 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) continue;
    ImGui::TableSetupColumn("keys");
    ImGui::TableSetupColumn("control");
    ImGui::TableSetupColumn("what it does", ImGuiTableColumnFlags_WidthStretch);
    for (const SceneKeyRow& r : h.keys) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextColored(ImVec4(1, 0.85f, 0.4f, 1), "%s", r.keys.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(r.control.c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::TextWrapped("%s", r.help.c_str());
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace varsim
