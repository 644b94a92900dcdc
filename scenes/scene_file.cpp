// JSON scene files and `describe` output, both generated from the scene's ParamSpec list.
#include "scenes/scene_file.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/sim/errors.h"
#include "scenes/scene.h"

namespace varsim {

using nlohmann::json;

static std::string lineColumn(const std::string& text, size_t byte) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') { ++line; col = 1; } else { ++col; }
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

static ParamValue jsonToValue(const ParamSpec& spec, const json& j, const std::string& where) {
  ParamValue v;
  auto typeError = [&](const char* expected) {
    return BadInput(where + ": expected " + expected + ", got " + j.dump() + "; allowed " + spec.rangeText());
  };
  switch (spec.type) {
    case ParamType::Choice:
      if (!j.is_string()) throw typeError("a string");
      v.choice = j.get<std::string>();
      break;
    case ParamType::Bool:
      if (!j.is_boolean()) throw typeError("true or false");
      v.numbers = {j.get<bool>() ? 1.0 : 0.0};
      break;
    case ParamType::Vector:
      if (!j.is_array()) throw typeError("an array of numbers");
      for (const auto& e : j) {
        if (!e.is_number()) throw typeError("an array of numbers");
        v.numbers.push_back(e.get<double>());
      }
      break;
    default:
      if (!j.is_number()) throw typeError("a number");
      v.numbers = {j.get<double>()};
  }
  return v;
}

SceneConfig parseSceneJson(const std::string& text, const std::string& source) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    std::string msg = e.what();
    const auto colon = msg.find("]: ");
    throw BadInput(source + ":" + lineColumn(text, e.byte ? e.byte - 1 : 0) +
                   ": malformed JSON: " + (colon == std::string::npos ? msg : msg.substr(colon + 3)));
  }
  if (!doc.is_object() || !doc.contains("scene") || !doc["scene"].is_string())
    throw BadInput(source + ": key 'scene' missing or not a string (expected {\"scene\": name, \"params\": {...}})");
  SceneConfig config;
  config.scene = doc["scene"].get<std::string>();
  config.params = SceneRegistry::defaults(config.scene);
  for (auto it = doc.begin(); it != doc.end(); ++it)
    if (it.key() != "scene" && it.key() != "params")
      throw BadInput(source + ": unknown top-level key '" + it.key() + "'; allowed: scene, params");
  if (doc.contains("params")) {
    if (!doc["params"].is_object()) throw BadInput(source + ": key 'params' must be an object");
    for (auto it = doc["params"].begin(); it != doc["params"].end(); ++it) {
      const ParamSpec* spec = config.params.spec(it.key());
      if (!spec) config.params.set(it.key(), {}, source);  // throws the unknown-key message
      config.params.set(it.key(), jsonToValue(*spec, it.value(), source + ": key '" + it.key() + "'"), source);
    }
  }
  return config;
}

SceneConfig loadSceneFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw BadInput(path + ": cannot read scene file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parseSceneJson(ss.str(), path);
}

static const char* typeName(ParamType t) {
  switch (t) {
    case ParamType::Real: return "real";
    case ParamType::Integer: return "integer";
    case ParamType::Bool: return "bool";
    case ParamType::Choice: return "choice";
    case ParamType::Vector: return "vector";
  }
  return "?";
}

static json valueToJson(const ParamSpec& spec, const ParamValue& v) {
  switch (spec.type) {
    case ParamType::Choice: return v.choice;
    case ParamType::Bool: return v.numbers.at(0) != 0.0;
    case ParamType::Integer: return long(v.numbers.at(0));
    case ParamType::Vector: return v.numbers;
    default: return v.numbers.at(0);
  }
}

std::string describeSceneJson(const std::string& scene) {
  const SceneInfo* info = SceneRegistry::find(scene);
  if (!info) SceneRegistry::defaults(scene);  // throws the unknown-scene message
  json out;
  out["scene"] = info->name;
  out["title"] = info->title;
  out["description"] = info->description;
  json params = json::array();
  for (const ParamSpec& s : info->params()) {
    json p;
    p["key"] = s.key;
    p["type"] = typeName(s.type);
    p["default"] = valueToJson(s, ParamValue{s.defaultNumbers, s.defaultChoice});
    p["unit"] = s.unit;
    p["range"] = s.rangeText();
    if (s.type == ParamType::Choice) p["choices"] = s.choices;
    else if (s.type != ParamType::Bool) { p["min"] = s.minValue; p["max"] = s.maxValue; p["min_exclusive"] = s.minExclusive; }
    if (s.type == ParamType::Vector) p["size"] = s.size;
    p["live"] = s.live;
    p["description"] = s.help;
    params.push_back(p);
  }
  out["params"] = params;
  auto scene_ = SceneRegistry::create(scene, SceneRegistry::defaults(scene));
  json controls = json::array();
  for (const auto& c : scene_->controls())
    controls.push_back({{"name", c.name}, {"min", c.min}, {"max", c.max}, {"neutral", c.neutral}, {"description", c.help}});
  out["controls"] = controls;
  out["columns"] = scene_->columns();
  return out.dump(2);
}

std::string sceneToJson(const SceneConfig& config) {
  json out;
  out["scene"] = config.scene;
  json params = json::object();
  for (const auto& s : config.params.specs()) params[s.key] = valueToJson(s, config.params.value(s.key));
  out["params"] = params;
  return out.dump(2);
}

}  // namespace varsim
