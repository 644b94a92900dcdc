// Scene files: JSON `{"scene": "<name>", "params": {"<key>": value, ...}}` with the keys `describe`
// prints. Errors name the file, the line/column (malformed JSON) or the key and its allowed range.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "engine/sim/param.h"

namespace varsim {

struct SceneConfig {
  std::string scene;
  ParamSet params;
};

// Deepest nesting a scene file may use (a scene file needs 3: document, params, a vector value); the
// bound keeps every later step (messages, dumps) away from input-sized recursion.
constexpr size_t kMaxSceneJsonDepth = 64;

SceneConfig loadSceneFile(const std::string& path);  // throws BadInput
// Defaults of a registered scene; an unknown name is refused with the name cut to ~60 characters.
ParamSet sceneDefaults(const std::string& scene);
// Throws BadInput naming `source`, the line:column or key path, and the reason: malformed JSON,
// nesting deeper than kMaxSceneJsonDepth, a repeated key, a number beyond a double, a bad value.
SceneConfig parseSceneJson(const std::string& text, const std::string& source);
// The strict JSON reader behind parseSceneJson, for other files validated alike (plan files): refuses a NUL
// byte, nesting deeper than kMaxSceneJsonDepth, a repeated key and an out-of-range number, naming `source`.
nlohmann::json parseStrictJson(const std::string& text, const std::string& source);
// Sets every key of the JSON object `object` in `params` (a scene file's "params", a plan file's "plan"): each value
// must have its key's JSON type (a number; an array of numbers; a string for a choice or a path; true/false, never
// a number or a string standing for one) and lie in its range. Throws BadInput naming `source`, key, value, range.
void setParamsFromJson(ParamSet& params, const nlohmann::json& object, const std::string& source);
std::string describeSceneJson(const std::string& scene);  // `varsim describe` output
std::string sceneToJson(const SceneConfig& config);       // for saving presets from the app

}  // namespace varsim
