// ui/core/scene_help.h — the Help menu's per-scene key list and documentation pages, generated from what the
// scenes declare (each scene's control specs and the default key bindings of ui/input/control_binding.h), so the
// help cannot drift from the keys the app actually binds. No ImGui: the tests read the same text the menu shows.
#pragma once

#include <string>
#include <vector>

namespace varsim {

struct SceneKeyRow {
  std::string control;  // the control's name ("throttle")
  std::string keys;     // "W/↑" (unipolar) or "S/↓ | W/↑" (negative | positive)
  std::string help;     // what the control does (ControlSpec::help)
};

struct SceneHelp {
  std::string name, title;
  std::string docsPage;  // absolute path of docs/scenes/<name>.md, "" when there is none
  std::vector<SceneKeyRow> keys;  // one row per control with a key; empty for scenes without keyboard controls
  std::string error;  // why the scene could not be built at its defaults ("" normally)
};

// The scene at its defaults (built once to read its controls).
SceneHelp sceneHelp(const std::string& scene);
// Every registered scene, in the registry's order.
std::vector<SceneHelp> allSceneHelp();
// One scene's keys as plain lines ("throttle  W/↑  — rear-wheel torque ..."), what the Help window lists.
std::string sceneHelpText(const SceneHelp& h);
// docs/<relative> in the source tree ($VARSIM_DOCS overrides the directory); "" when the file does not exist.
std::string docsPage(const std::string& relative);

}  // namespace varsim
