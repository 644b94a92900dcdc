// File menu: open a scene preset from the assets list (assets/scenes/*.json, each named with the scene it loads)
// or any scene file through an ImGui file dialog (a path entry and the folders and .json files of a directory).
// A file that is refused is an error notice naming file, key and value; the running scene stays.
#include <imgui.h>

#include <cstdio>
#include <filesystem>

#include "ui/app/app_state.h"
#include "ui/app/panels.h"
#include "ui/core/asset_files.h"

namespace varsim {

void drawFileMenu(AppState& app) {
  if (!ImGui::BeginMenu("File")) return;
  if (ImGui::BeginMenu("Open scene preset")) {
    static const std::vector<ScenePresetFile> presets = scenePresetFiles();  // the assets do not change while running
    if (presets.empty()) ImGui::TextDisabled("no presets in %s", assetPath("scenes").c_str());
    for (const ScenePresetFile& f : presets) {
      const bool current = f.name == app.presetName;
      if (ImGui::MenuItem(f.name.c_str(), f.scene.c_str(), current, f.error.empty())) app.loadPreset(f.path);
      if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", f.error.empty() ? f.path.c_str() : f.error.c_str());
    }
    ImGui::EndMenu();
  }
  if (ImGui::MenuItem("Open file...")) {
    app.openFileOpen = true;
    if (app.openDir.empty()) app.openDir = assetPath("scenes");
  }
  ImGui::EndMenu();
}

void drawOpenFileWindow(AppState& app) {
  if (!app.openFileOpen) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(560.0f, 420.0f), ImGuiCond_Appearing);
  if (!ImGui::Begin("Open scene file", &app.openFileOpen, ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::End();
    return;
  }
  notePanelBox(app);
  char path[1024];
  std::snprintf(path, sizeof path, "%s", app.openPath.c_str());
  ImGui::SetNextItemWidth(-70.0f);
  const bool enter = ImGui::InputTextWithHint("##path", "path of a scene file (.json)", path, sizeof path,
                                              ImGuiInputTextFlags_EnterReturnsTrue);
  app.openPath = path;
  ImGui::SameLine();
  if ((ImGui::Button("Open") || enter) && !app.openPath.empty()) {
    std::error_code ec;
    if (std::filesystem::is_directory(app.openPath, ec)) app.openDir = app.openPath;
    else if (app.loadPreset(app.openPath)) app.openFileOpen = false;
  }
  ImGui::TextDisabled("%s", app.openDir.c_str());
  std::string error;
  const std::vector<DirEntry> entries = listJsonDirectory(app.openDir, error);
  if (!error.empty()) ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "%s", error.c_str());
  if (ImGui::BeginChild("entries", ImVec2(0, 0), true)) {
    for (const DirEntry& e : entries) {
      if (!ImGui::Selectable(e.name.c_str(), e.path == app.openPath, ImGuiSelectableFlags_AllowDoubleClick)) continue;
      if (e.folder) {
        app.openDir = e.path;
      } else {
        app.openPath = e.path;
        if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) && app.loadPreset(e.path)) app.openFileOpen = false;
      }
    }
  }
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace varsim
