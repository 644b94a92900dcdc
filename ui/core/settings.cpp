// Settings file; see header. Parsing is per field and forgiving (a settings file is user state, not
// input data): a wrong type or range keeps that field's default and adds a warning.
#include "ui/core/settings.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/sim/param.h"
#include "ui/core/speed_ladder.h"
#include "ui/input/key_names.h"
#include "ui/plot/plot_range.h"

namespace varsim {

using nlohmann::json;

std::string defaultSettingsPath() {
  if (const char* p = std::getenv("VARSIM_SETTINGS"); p && *p) return p;
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return std::string(x) + "/varsim/settings.json";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.config/varsim/settings.json";
  return "varsim_settings.json";
}

std::string panelLayoutPath(const std::string& settingsPath) {
  std::filesystem::path p(settingsPath.empty() ? "varsim_settings.json" : settingsPath);
  p.replace_filename(p.stem().string() + ".imgui.ini");
  return p.string();
}

bool validMsaaChoice(int samples) {
  return samples == Settings::kMsaaAutomatic || samples == 0 || samples == 2 || samples == 4 || samples == 8;
}

namespace {

struct Reader {
  const std::string& source;
  std::vector<std::string>& warnings;

  void warn(const std::string& where, const std::string& what) {
    warnings.push_back(source + ": '" + where + "' " + what + "; using the default");
  }
  // Each reader returns true when the key was present and valid (and then sets `out`).
  bool number(const json& j, const char* key, const std::string& where, double& out, double lo, double hi) {
    if (!j.contains(key)) return false;
    const json& v = j.at(key);
    if (!v.is_number() || !(v.get<double>() >= lo && v.get<double>() <= hi)) {
      warn(where + key, "must be a number in [" + formatNumber(lo) + ", " + formatNumber(hi) + "]");
      return false;
    }
    out = v.get<double>();
    return true;
  }
  bool integer(const json& j, const char* key, const std::string& where, int& out, int lo, int hi) {
    double d = out;
    if (!number(j, key, where, d, lo, hi)) return false;
    out = int(d);
    return true;
  }
  bool flag(const json& j, const char* key, const std::string& where, bool& out) {
    if (!j.contains(key)) return false;
    if (!j.at(key).is_boolean()) { warn(where + key, "must be true or false"); return false; }
    out = j.at(key).get<bool>();
    return true;
  }
  bool text(const json& j, const char* key, const std::string& where, std::string& out) {
    if (!j.contains(key)) return false;
    if (!j.at(key).is_string()) { warn(where + key, "must be a string"); return false; }
    out = j.at(key).get<std::string>();
    return true;
  }
  bool keyField(const json& j, const char* key, const std::string& where, int& out) {
    std::string name;
    if (!text(j, key, where, name)) return false;
    if (name.empty()) { out = -1; return true; }  // explicitly unbound
    const int code = keyFromName(name);
    if (code < 0) { warn(where + key, "is not a known key name ('" + name + "')"); return false; }
    out = code;
    return true;
  }
  // A list of key names (the arrows beside W/A/S/D); [] unbinds them all.
  bool keyList(const json& j, const char* key, const std::string& where, std::vector<int>& out) {
    if (!j.contains(key)) return false;
    const json& v = j.at(key);
    if (!v.is_array() || v.size() > 3) { warn(where + key, "must be a list of at most 3 key names"); return false; }
    std::vector<int> codes;
    for (const json& name : v) {
      const int code = name.is_string() ? keyFromName(name.get<std::string>()) : -1;
      if (code < 0) { warn(where + key, "holds an unknown key name (" + name.dump() + ")"); return false; }
      codes.push_back(code);
    }
    out = codes;
    return true;
  }
  SavedBinding binding(const json& j, const std::string& where) {
    SavedBinding saved;
    saved.fields = 0;
    if (!j.is_object()) { warn(where, "must be an object"); return saved; }
    ControlBinding& b = saved.binding;
    auto mark = [&](bool present, unsigned bit) { if (present) saved.fields |= bit; };
    mark(integer(j, "axis", where, b.axis, -1, kGamepadAxisCount - 1), SavedBinding::kAxis);
    mark(integer(j, "button_pos", where, b.buttonPos, -1, kGamepadButtonCount - 1), SavedBinding::kButtonPos);
    mark(integer(j, "button_neg", where, b.buttonNeg, -1, kGamepadButtonCount - 1), SavedBinding::kButtonNeg);
    mark(keyField(j, "key_pos", where, b.keyPos), SavedBinding::kKeyPos);
    mark(keyField(j, "key_neg", where, b.keyNeg), SavedBinding::kKeyNeg);
    mark(keyList(j, "keys_pos_more", where, b.moreKeysPos), SavedBinding::kKeysPosMore);
    mark(keyList(j, "keys_neg_more", where, b.moreKeysNeg), SavedBinding::kKeysNegMore);
    mark(number(j, "ramp_rate", where, b.rampRate, 0.01, 100.0), SavedBinding::kRampRate);
    mark(number(j, "dead_zone", where, b.shaping.deadZone, 0.0, 0.9), SavedBinding::kDeadZone);
    mark(number(j, "expo", where, b.shaping.expo, 0.0, 1.0), SavedBinding::kExpo);
    mark(flag(j, "invert", where, b.shaping.invert), SavedBinding::kInvert);
    mark(number(j, "cal_min", where, b.shaping.cal.min, -kRawAxisLimit, kRawAxisLimit), SavedBinding::kCalMin);
    mark(number(j, "cal_center", where, b.shaping.cal.center, -kRawAxisLimit, kRawAxisLimit), SavedBinding::kCalCenter);
    mark(number(j, "cal_max", where, b.shaping.cal.max, -kRawAxisLimit, kRawAxisLimit), SavedBinding::kCalMax);
    return saved;
  }
};

json keyNames(const std::vector<int>& codes) {
  json out = json::array();
  for (int c : codes) out.push_back(keyName(c));
  return out;
}

json bindingJson(const SavedBinding& saved) {
  const ControlBinding& b = saved.binding;
  return json{{"axis", b.axis},
              {"button_pos", b.buttonPos},
              {"button_neg", b.buttonNeg},
              {"key_pos", keyName(b.keyPos)},
              {"key_neg", keyName(b.keyNeg)},
              {"keys_pos_more", keyNames(b.moreKeysPos)},
              {"keys_neg_more", keyNames(b.moreKeysNeg)},
              {"ramp_rate", b.rampRate},
              {"dead_zone", b.shaping.deadZone},
              {"expo", b.shaping.expo},
              {"invert", b.shaping.invert},
              {"cal_min", b.shaping.cal.min},
              {"cal_center", b.shaping.cal.center},
              {"cal_max", b.shaping.cal.max}};
}

}  // namespace

Settings parseSettingsJson(const std::string& text, const std::string& source, std::vector<std::string>& warnings) {
  Settings s;
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    warnings.push_back(source + ": not valid JSON (" + e.what() + "); using default settings");
    return s;
  }
  if (!root.is_object()) {
    warnings.push_back(source + ": expected a JSON object; using default settings");
    return s;
  }
  Reader r{source, warnings};
  if (root.contains("window")) {
    const json& w = root["window"];
    if (!w.is_object()) r.warn("window", "must be an object");
    else {
      r.integer(w, "x", "window.", s.windowX, -100000, 100000);
      r.integer(w, "y", "window.", s.windowY, -100000, 100000);
      r.integer(w, "width", "window.", s.windowWidth, 320, 16384);
      r.integer(w, "height", "window.", s.windowHeight, 240, 16384);
    }
  }
  if (root.contains("panels")) {
    const json& p = root["panels"];
    if (!p.is_object()) r.warn("panels", "must be an object");
    else {
      r.flag(p, "scenes", "panels.", s.panels.scenes);
      r.flag(p, "simulation", "panels.", s.panels.simulation);
      r.flag(p, "parameters", "panels.", s.panels.parameters);
      r.flag(p, "plots", "panels.", s.panels.plots);
      r.flag(p, "input", "panels.", s.panels.input);
      r.flag(p, "help", "panels.", s.panels.help);
    }
  }
  r.text(root, "last_scene", "", s.lastScene);
  r.number(root, "speed", "", s.speed, kSpeedLadder.front(), kSpeedLadder.back());
  r.number(root, "plot_window", "", s.plotWindow, kPlotWindows.front(), kPlotWindows.back());
  s.plotWindow = clampPlotWindow(s.plotWindow);
  r.text(root, "gamepad_mappings", "", s.gamepadMappingsFile);
  if (root.contains("msaa_samples")) {
    const json& m = root["msaa_samples"];
    // Read at full width: a huge integer must not wrap around to a valid count.
    long long v = -2;
    if (m.is_number_unsigned()) v = m.get<unsigned long long>() <= 8 ? (long long)m.get<unsigned long long>() : -2;
    else if (m.is_number_integer()) v = m.get<long long>();
    if (v >= -1 && v <= 8 && validMsaaChoice(int(v))) s.msaaSamples = int(v);
    else r.warn("msaa_samples", "must be 0 (off), 2, 4, 8 or -1 (automatic)");
  }
  if (root.contains("input")) {
    const json& in = root["input"];
    if (!in.is_object()) r.warn("input", "must be an object");
    else
      for (const auto& [scene, controls] : in.items()) {
        if (!controls.is_object()) { r.warn("input." + scene, "must be an object"); continue; }
        for (const auto& [control, b] : controls.items())
          s.inputMappings[scene][control] = r.binding(b, "input." + scene + "." + control + ".");
      }
  }
  return s;
}

Settings loadSettings(const std::string& path, std::vector<std::string>& warnings) {
  std::ifstream in(path);
  if (!in) return Settings{};  // first run: no file yet, not a problem
  std::stringstream ss;
  ss << in.rdbuf();
  return parseSettingsJson(ss.str(), path, warnings);
}

std::string settingsToJson(const Settings& s) {
  json root;
  root["window"] = {{"x", s.windowX}, {"y", s.windowY}, {"width", s.windowWidth}, {"height", s.windowHeight}};
  root["panels"] = {{"scenes", s.panels.scenes},     {"simulation", s.panels.simulation},
                    {"parameters", s.panels.parameters}, {"plots", s.panels.plots},
                    {"input", s.panels.input},       {"help", s.panels.help}};
  root["last_scene"] = s.lastScene;
  root["speed"] = s.speed;
  root["plot_window"] = s.plotWindow;
  root["gamepad_mappings"] = s.gamepadMappingsFile;
  root["msaa_samples"] = validMsaaChoice(s.msaaSamples) ? s.msaaSamples : Settings::kMsaaAutomatic;
  json input = json::object();
  for (const auto& [scene, controls] : s.inputMappings)
    for (const auto& [control, b] : controls) input[scene][control] = bindingJson(b);
  root["input"] = input;
  return root.dump(2) + "\n";
}

bool saveSettings(const std::string& path, const Settings& s, std::string& error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p(path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) { error = tmp + ": cannot write settings"; return false; }
    out << settingsToJson(s);
    if (!out) { error = tmp + ": write failed"; return false; }
  }
  fs::rename(tmp, p, ec);
  if (ec) { error = path + ": " + ec.message(); return false; }
  return true;
}

ControlBinding SavedBinding::over(const ControlBinding& d) const {
  ControlBinding b = d;
  auto take = [&](unsigned bit, auto& field, const auto& value) { if (fields & bit) field = value; };
  take(kAxis, b.axis, binding.axis);
  take(kButtonPos, b.buttonPos, binding.buttonPos);
  take(kButtonNeg, b.buttonNeg, binding.buttonNeg);
  take(kKeyPos, b.keyPos, binding.keyPos);
  take(kKeyNeg, b.keyNeg, binding.keyNeg);
  take(kKeysPosMore, b.moreKeysPos, binding.moreKeysPos);
  take(kKeysNegMore, b.moreKeysNeg, binding.moreKeysNeg);
  take(kRampRate, b.rampRate, binding.rampRate);
  take(kDeadZone, b.shaping.deadZone, binding.shaping.deadZone);
  take(kExpo, b.shaping.expo, binding.shaping.expo);
  take(kInvert, b.shaping.invert, binding.shaping.invert);
  take(kCalMin, b.shaping.cal.min, binding.shaping.cal.min);
  take(kCalCenter, b.shaping.cal.center, binding.shaping.cal.center);
  take(kCalMax, b.shaping.cal.max, binding.shaping.cal.max);
  return sanitizeBinding(b);
}

std::vector<ControlBinding> bindingsFor(const Settings& s, const std::string& scene,
                                        const std::vector<ControlSpec>& controls) {
  std::vector<ControlBinding> out = defaultBindings(controls);
  const auto it = s.inputMappings.find(scene);
  if (it == s.inputMappings.end()) return out;
  for (size_t i = 0; i < controls.size(); ++i)
    if (auto b = it->second.find(controls[i].name); b != it->second.end()) out[i] = b->second.over(out[i]);
  return out;
}

void storeBindings(Settings& s, const std::string& scene, const std::vector<ControlSpec>& controls,
                   const std::vector<ControlBinding>& bindings) {
  auto& m = s.inputMappings[scene];
  for (size_t i = 0; i < controls.size() && i < bindings.size(); ++i) m[controls[i].name] = SavedBinding{bindings[i]};
}

std::string restoredSettingsNote(const Settings& s, bool lastSceneUsed) {
  const Settings defaults;
  std::vector<std::string> parts;
  char buf[64];
  if (s.speed != defaults.speed) {
    std::snprintf(buf, sizeof buf, "speed %.0f %%", 100.0 * s.speed);
    parts.push_back(buf);
  }
  if (lastSceneUsed && !s.lastScene.empty()) parts.push_back("last scene " + s.lastScene);
  if (s.plotWindow != defaults.plotWindow) {
    std::snprintf(buf, sizeof buf, "plot window %g s", s.plotWindow);
    parts.push_back(buf);
  }
  if (!s.inputMappings.empty()) parts.push_back("input mappings of " + std::to_string(s.inputMappings.size()) + " scene(s)");
  if (parts.empty()) return {};
  std::string out = "restored ";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out + " \u2014 reset in View > Reset saved settings";
}

}  // namespace varsim
