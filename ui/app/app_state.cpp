// AppState helpers: notices, scene loading with the saved input mapping, settings and panel layout
// persistence, the 3-D view's rectangle.
#include "ui/app/app_state.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cstdio>
#include <filesystem>

#include "engine/sim/errors.h"
#include "scenes/scene_file.h"
#include "ui/app/label_fit.h"

namespace varsim {

void AppState::notify(const std::string& text, bool error) {
  std::fprintf(stderr, "varsim: %s\n", text.c_str());
  notices.push_back(Notice{text, wallTime, error});
  while (notices.size() > 6) notices.pop_front();
}

bool AppState::loadScene(const std::string& name, const ParamSet& params) {
  if (driver.loaded()) storeBindings(settings, driver.sceneName(), live.controls(), live.bindings());
  if (driver.recording()) {  // a recording holds one scene: switching ends it, saved first
    try {
      driver.saveRecording(recordPath);
      notify("scene switch ends the recording: saved to " + recordPath);
    } catch (const BadInput& e) {
      notify(e.what(), true);
    }
  }
  try {
    driver.load(name, params);
  } catch (const BadInput& e) {
    notify(e.what(), true);
    return false;
  }
  onSceneLoaded();
  return true;
}

void AppState::onSceneLoaded() {
  const std::string& name = driver.sceneName();
  live.configure(driver.controls(), bindingsFor(settings, name, driver.controls()));
  if (autopilot.active()) autopilot.disengage();  // its plans belong to the scene it was engaged on
  driver.setLiveInput(&autopilotInput);
  if (driver.replaying()) driver.stopReplay();
  if (std::string summary; videoRecording.active()) {  // a video holds one scene, as an input recording does
    const bool ok = endVideoRecording(*this, summary);
    notify(summary, !ok);
  }
  settings.lastScene = name;
  reframeView = true;  // the new scene's default view is taken next frame (render/subject_framing.h)
  paramErrors.clear();
  calibratingControl = -1;
  presetName.clear();  // loadPreset names it again after this
  updateTitle();
}

bool AppState::loadPreset(const std::string& path) {
  SceneConfig config;
  try {
    config = loadSceneFile(path);
  } catch (const BadInput& e) {
    notify(std::string("preset not loaded (the running scene stays): ") + e.what(), true);
    return false;
  }
  if (!loadScene(config.scene, config.params)) return false;
  presetName = std::filesystem::path(path).stem().string();
  updateTitle();
  notify("loaded preset " + presetName + " (" + path + ")");
  return true;
}

void AppState::updateTitle() {
  if (!window || !driver.loaded()) return;
  const SceneInfo* info = SceneRegistry::find(driver.sceneName());
  const std::string scene = info ? plainTitle(info->title) : driver.sceneName();
  const std::string title = "varsim \u2014 " + (presetName.empty() ? scene : presetName + " (" + scene + ")");
  glfwSetWindowTitle(window, title.c_str());
}

void AppState::resetSavedSettings() {
  Settings fresh;
  fresh.windowX = settings.windowX;
  fresh.windowY = settings.windowY;
  fresh.windowWidth = settings.windowWidth;
  fresh.windowHeight = settings.windowHeight;
  settings = fresh;
  driver.setSpeed(settings.speed);
  if (driver.loaded()) {
    settings.lastScene = driver.sceneName();  // the scene on screen is the last one used from now on
    live.configure(driver.controls(), bindingsFor(settings, driver.sceneName(), driver.controls()));
  }
  notify("saved settings reset: speed 100 %, default panels, plot window and input mappings");
}

void AppState::resetScene() {
  try {
    driver.reset();
    live.resetRamps();
    reframeView = true;
  } catch (const std::exception& e) {
    notify(std::string("reset failed: ") + e.what(), true);
  }
}

void AppState::setFollow(bool on) {
  if (!camera.setFollow(on, drawList.camera)) {
    notify("follow: nothing in this scene moves away from the default view");
    return;
  }
  cameraMoved = true;  // a resized view keeps the chosen mode; Home restores the scene's default
}

void AppState::saveSettings() {
  if (driver.loaded()) storeBindings(settings, driver.sceneName(), live.controls(), live.bindings());
  settings.speed = driver.speed();
  std::string error;
  if (!varsim::saveSettings(settingsPath, settings, error)) std::fprintf(stderr, "varsim: settings not saved: %s\n", error.c_str());
}

void AppState::usePanelLayoutFile() {
  panelLayoutFile = panelLayoutPath(settingsPath);
  // ImGui writes the file with fopen, which does not create the directory (the first run has none).
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::path(panelLayoutFile).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  ImGui::GetIO().IniFilename = panelLayoutFile.c_str();
}

void AppState::layoutView() {
  const ImGuiIO& io = ImGui::GetIO();
  view = freeViewRect(io.DisplaySize.x, io.DisplaySize.y, hideUi ? 0.0f : menuBarHeight, hideUi ? std::vector<ScreenRect>{} : panelBoxes);
}

void AppState::setPhysicsThread(bool on) {
  physicsThread = on;
  driver.setStepBudget(physicsBudget());
}

}  // namespace varsim
