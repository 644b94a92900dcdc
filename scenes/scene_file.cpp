// JSON scene files and `describe` output, both generated from the scene's ParamSpec list. Scene files
// are read strictly: bounded depth, no repeated keys, every number finite, messages never echo a whole value.
#include "scenes/scene_file.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "engine/sim/errors.h"
#include "engine/sim/file_read.h"
#include "engine/sim/number_text.h"
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

// A value quoted in a message: at most ~60 characters, whatever its size (depth is bounded below).
static std::string shown(const json& j) {
  return shortText(j.dump(-1, ' ', false, json::error_handler_t::replace));
}

namespace {

// SAX front end of nlohmann's DOM builder: the parse stays iterative, and three things the plain
// json::parse accepts or reports without a place are refused here with the key path and the line:
// nesting deeper than kMaxSceneJsonDepth, a key repeated in one object (last one would win), and a
// number that overflows a double (nlohmann's out_of_range 406 has no byte offset of its own).
class SceneJsonSax {
 public:
  explicit SceneJsonSax(json& root) : dom_(root, false) {}

  bool null() { return dom_.null(); }
  bool boolean(bool v) { return dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const std::string& s) { return dom_.number_float(v, s); }
  bool string(std::string& v) { return dom_.string(v); }
  bool binary(json::binary_t& v) { return dom_.binary(v); }
  bool start_object(std::size_t n) { return open(true) && dom_.start_object(n); }
  bool start_array(std::size_t n) { return open(false) && dom_.start_array(n); }
  bool end_object() { return close() && dom_.end_object(); }
  bool end_array() { return close() && dom_.end_array(); }
  bool key(std::string& k) {
    Frame& f = frames_.back();
    if (!f.keys.insert(k).second) return fail("key '" + path(k) + "' appears twice in one object; give it once");
    f.key = k;
    return dom_.key(k);
  }
  bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& ex) {
    byte_ = position;
    // "[json.exception.parse_error.101] parse error at line 1, column 32: syntax error ..." -> "syntax error ..."
    std::string msg = ex.what();
    const auto bracket = msg.find("] ");
    if (bracket != std::string::npos) msg = msg.substr(bracket + 2);
    const auto colon = msg.find(": ");
    if (msg.rfind("parse error", 0) == 0 && colon != std::string::npos) msg = msg.substr(colon + 2);
    if (ex.id == 406) msg = "number " + shortText(token, 40) + " is out of the range of a double (|x| < 1.8e308)";
    const std::string here = path(frames_.size(), "");
    const std::string where = here.empty() ? "" : "key '" + here + "': ";
    error_ = where + (ex.id == 406 ? msg : "malformed JSON: " + shortText(msg, 160));
    return false;
  }

  const std::string& error() const { return error_; }
  size_t byte() const { return byte_; }  // set for parse errors only

 private:
  struct Frame {
    bool object;
    std::set<std::string> keys;
    std::string key;  // the key whose value is being read (objects)
  };
  bool open(bool object) {
    if (frames_.size() >= kMaxSceneJsonDepth)
      return fail((path(frames_.size(), "").empty() ? std::string("the document")
                                                     : "the value of key '" + path(frames_.size(), "") + "'") +
                  " nests deeper than " + std::to_string(kMaxSceneJsonDepth) + " levels");
    frames_.push_back({object, {}, {}});
    return true;
  }
  bool close() {
    frames_.pop_back();
    return true;
  }
  // "params.m": the keys of the outer frames, then `last` (array levels add nothing).
  std::string path(const std::string& last) const { return path(frames_.size() - 1, last); }
  std::string path(size_t outer, const std::string& last) const {
    std::string p;
    for (size_t i = 0; i < outer; ++i)
      if (frames_[i].object && !frames_[i].key.empty()) p += (p.empty() ? "" : ".") + shortText(frames_[i].key, 40);
    if (!last.empty()) p += (p.empty() ? "" : ".") + shortText(last, 60);
    return shortText(p, 120);
  }
  bool fail(const std::string& msg) {
    error_ = msg;
    return false;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::vector<Frame> frames_;
  std::string error_;
  size_t byte_ = std::string::npos;
};

}  // namespace

json parseStrictJson(const std::string& text, const std::string& source) {
  refuseNulBytes(text, source);
  json doc;
  SceneJsonSax sax(doc);
  if (json::sax_parse(text, &sax)) return doc;
  if (sax.error().empty()) throw BadInput(source + ": malformed JSON");
  if (sax.byte() == std::string::npos) throw BadInput(source + ": " + sax.error());
  throw BadInput(source + ":" + lineColumn(text, sax.byte() ? sax.byte() - 1 : 0) + ": " + sax.error());
}

static ParamValue paramValueFromJson(const ParamSpec& spec, const json& j, const std::string& where) {
  ParamValue v;
  auto typeError = [&](const char* expected) {
    return BadInput(where + ": expected " + expected + ", got " + shown(j) + "; allowed " + spec.rangeText());
  };
  switch (spec.type) {
    case ParamType::Choice:
    case ParamType::Path:
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

void setParamsFromJson(ParamSet& params, const json& object, const std::string& source) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    const ParamSpec* spec = params.spec(it.key());
    if (!spec) params.set(it.key(), {}, source);  // throws the unknown-key message
    params.set(it.key(), paramValueFromJson(*spec, it.value(), source + ": key '" + it.key() + "'"), source);
  }
}

// Scene names are lower case and matched exactly; a name that differs only in case gets the right spelling.
static std::string caseHint(const std::string& name) {
  const auto lower = [](std::string x) {
    for (char& c : x) c = char(std::tolower(static_cast<unsigned char>(c)));
    return x;
  };
  for (const SceneInfo& s : SceneRegistry::all())
    if (lower(s.name) == lower(name)) return " (names are case-sensitive: did you mean '" + s.name + "'?)";
  return "";
}

ParamSet sceneDefaults(const std::string& scene) {
  if (!SceneRegistry::find(scene)) return SceneRegistry::defaults(shortText(scene));  // throws, listing the scenes
  return SceneRegistry::defaults(scene);
}

SceneConfig parseSceneJson(const std::string& text, const std::string& source) {
  const json doc = parseStrictJson(text, source);
  if (!doc.is_object() || !doc.contains("scene") || !doc["scene"].is_string())
    throw BadInput(source + ": key 'scene' missing or not a string (expected {\"scene\": name, \"params\": {...}})");
  SceneConfig config;
  config.scene = doc["scene"].get<std::string>();
  try {
    config.params = sceneDefaults(config.scene);
  } catch (const BadInput& e) {  // the registry's list of names, with the file and key it came from
    throw BadInput(source + ": key 'scene': " + e.what() + caseHint(config.scene));
  }
  for (auto it = doc.begin(); it != doc.end(); ++it)
    if (it.key() != "scene" && it.key() != "params")
      throw BadInput(source + ": unknown top-level key '" + shortText(it.key()) + "'; allowed: scene, params");
  if (doc.contains("params")) {
    if (!doc["params"].is_object())
      throw BadInput(source + ": key 'params' must be an object, got " + shown(doc["params"]));
    setParamsFromJson(config.params, doc["params"], source);
  }
  return config;
}

SceneConfig loadSceneFile(const std::string& path) {
  SceneConfig config = parseSceneJson(readUserFile(path, "scene file", kMaxJsonFileBytes), path);
  // A relative file path names a file beside the scene file (presets travel with their models); when no
  // such file exists it is left for the scene to resolve (working directory, assets/).
  namespace fs = std::filesystem;
  for (const ParamSpec& s : config.params.specs()) {
    if (s.type != ParamType::Path) continue;
    const fs::path value = config.params.path(s.key);
    std::error_code ec;
    const fs::path beside = fs::path(path).parent_path() / value;
    if (value.is_relative() && fs::is_regular_file(beside, ec))
      config.params.set(s.key, ParamValue{{}, beside.lexically_normal().string()}, path);
  }
  return config;
}

static const char* typeName(ParamType t) {
  switch (t) {
    case ParamType::Real: return "real";
    case ParamType::Integer: return "integer";
    case ParamType::Bool: return "bool";
    case ParamType::Choice: return "choice";
    case ParamType::Vector: return "vector";
    case ParamType::Path: return "path";
  }
  return "?";
}

static json valueToJson(const ParamSpec& spec, const ParamValue& v) {
  switch (spec.type) {
    case ParamType::Choice:
    case ParamType::Path: return v.choice;
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
    else if (s.type != ParamType::Bool && s.type != ParamType::Path) { p["min"] = s.minValue; p["max"] = s.maxValue; p["min_exclusive"] = s.minExclusive; }
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
