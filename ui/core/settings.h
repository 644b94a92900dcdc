// Settings persisted between runs (window, panels, last scene, speed, plot window, MSAA, input
// mapping per scene, gamepad mapping file) in a small JSON file: $VARSIM_SETTINGS, else
// $XDG_CONFIG_HOME/varsim/settings.json, else ~/.config/varsim/settings.json. A missing or corrupt
// file never stops the app: every unreadable field is reported and falls back to its default.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "ui/input/control_binding.h"

namespace varsim {

struct PanelVisibility {
  bool scenes = true, simulation = true, parameters = true, plots = true, input = false, help = false;
};

// A saved binding and which of its fields the file set: a hand-edited entry may set only some
// (say the dead-zone); the others come from the scene's default binding.
struct SavedBinding {
  enum Field : unsigned {
    kAxis = 1u << 0, kButtonPos = 1u << 1, kButtonNeg = 1u << 2, kKeyPos = 1u << 3, kKeyNeg = 1u << 4,
    kRampRate = 1u << 5, kDeadZone = 1u << 6, kExpo = 1u << 7, kInvert = 1u << 8, kCalMin = 1u << 9,
    kCalCenter = 1u << 10, kCalMax = 1u << 11, kKeysPosMore = 1u << 12, kKeysNegMore = 1u << 13,
    kAll = (1u << 14) - 1
  };
  ControlBinding binding;
  unsigned fields = kAll;
  ControlBinding over(const ControlBinding& defaults) const;  // sanitized
};

struct Settings {
  int windowX = -1, windowY = -1;  // -1: let the window manager place it
  int windowWidth = 1280, windowHeight = 720;
  PanelVisibility panels;
  std::string lastScene;
  double speed = 1.0;
  double plotWindow = 10.0;  // seconds
  std::string gamepadMappingsFile;
  // Anti-aliasing samples the user chose: 0 (off), 2, 4 or 8; kMsaaAutomatic keeps the renderer's
  // default (4x on GPUs, off on CPU rasterizers, where it costs about twice the frame time).
  static constexpr int kMsaaAutomatic = -1;
  int msaaSamples = kMsaaAutomatic;
  // scene name → control name → binding
  std::map<std::string, std::map<std::string, SavedBinding>> inputMappings;
};

std::string defaultSettingsPath();
// ImGui's panel layout file next to the settings file: settings.json -> settings.imgui.ini.
std::string panelLayoutPath(const std::string& settingsPath);
// True for the sample counts the MSAA control offers (kMsaaAutomatic, 0, 2, 4, 8).
bool validMsaaChoice(int samples);
// Never throws: problems go to `warnings` ("settings.json: 'speed' is not a number; using 1").
Settings loadSettings(const std::string& path, std::vector<std::string>& warnings);
Settings parseSettingsJson(const std::string& text, const std::string& source, std::vector<std::string>& warnings);
std::string settingsToJson(const Settings& s);
// Creates the directory if needed and replaces the file atomically; false + error on failure.
bool saveSettings(const std::string& path, const Settings& s, std::string& error);

// What a start restored from the settings file that a user would notice, said once:
// "restored speed 250 %, last scene car — reset in View > Reset saved settings"; "" when nothing differs from the
// defaults. `lastSceneUsed`: the start took the saved last scene (no --scene on the command line).
std::string restoredSettingsNote(const Settings& s, bool lastSceneUsed);

// Bindings for a scene's controls: saved ones by control name, defaults for the rest.
std::vector<ControlBinding> bindingsFor(const Settings& s, const std::string& scene,
                                        const std::vector<ControlSpec>& controls);
void storeBindings(Settings& s, const std::string& scene, const std::vector<ControlSpec>& controls,
                   const std::vector<ControlBinding>& bindings);

}  // namespace varsim
