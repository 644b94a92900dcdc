// Scene files: JSON `{"scene": "<name>", "params": {"<key>": value, ...}}` with the keys `describe`
// prints. Errors name the file, the line/column (malformed JSON) or the key and its allowed range.
#pragma once
#include <string>

#include "engine/sim/param.h"

namespace varsim {

struct SceneConfig {
  std::string scene;
  ParamSet params;
};

SceneConfig loadSceneFile(const std::string& path);       // throws BadInput
SceneConfig parseSceneJson(const std::string& text, const std::string& source);
std::string describeSceneJson(const std::string& scene);  // `varsim describe` output
std::string sceneToJson(const SceneConfig& config);       // for saving presets from the app

}  // namespace varsim
