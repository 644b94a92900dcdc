// Parameter validation and parsing. Messages always name the key, the offending value and the
// allowed range so a user can fix a scene file or a --set without reading code.
#include "engine/sim/param.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"

namespace varsim {

// Shortest text that reads back as exactly v: "10" rather than "1e+01", "1e+06" rather than "1000000".
std::string formatNumber(double v) {
  std::string best;
  char buf[40];
  // No text with fewer significant digits than the shortest round-trip scientific form (std::to_chars) reads back as
  // v, so the search starts there: the same text, from 2 or 3 tries instead of 17 for the typical plan control (the
  // MPC formats 120 of them per re-plan into its input events).
  int first = 1;
  if (std::isfinite(v)) {
    const std::to_chars_result shortest = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    first = int(std::count_if(buf, std::find(buf, shortest.ptr, 'e'), [](char c) { return c >= '0' && c <= '9'; }));
  }
  for (int precision = std::max(first, 1); precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v && (best.empty() || std::strlen(buf) < best.size())) best = buf;
  }
  return best.empty() ? buf : best;
}

ParamSpec ParamSpec::real(std::string key, double def, double lo, double hi, std::string unit,
                          std::string help, bool loExclusive) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = ParamType::Real;
  s.defaultNumbers = {def};
  s.minValue = lo;
  s.maxValue = hi;
  s.unit = std::move(unit);
  s.help = std::move(help);
  s.minExclusive = loExclusive;
  return s;
}

ParamSpec ParamSpec::integer(std::string key, long def, long lo, long hi, std::string help) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = ParamType::Integer;
  s.defaultNumbers = {double(def)};
  s.minValue = double(lo);
  s.maxValue = double(hi);
  s.help = std::move(help);
  return s;
}

ParamSpec ParamSpec::boolean(std::string key, bool def, std::string help) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = ParamType::Bool;
  s.defaultNumbers = {def ? 1.0 : 0.0};
  s.minValue = 0;
  s.maxValue = 1;
  s.help = std::move(help);
  return s;
}

ParamSpec ParamSpec::choice(std::string key, std::string def, std::vector<std::string> choices,
                            std::string help) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = ParamType::Choice;
  s.defaultChoice = std::move(def);
  s.choices = std::move(choices);
  s.help = std::move(help);
  return s;
}

ParamSpec ParamSpec::vector(std::string key, std::vector<double> def, double lo, double hi,
                            std::string unit, std::string help, bool loExclusive) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = ParamType::Vector;
  s.size = int(def.size());
  s.defaultNumbers = std::move(def);
  s.minValue = lo;
  s.maxValue = hi;
  s.unit = std::move(unit);
  s.help = std::move(help);
  s.minExclusive = loExclusive;
  return s;
}

ParamSpec ParamSpec::list(std::string key, std::vector<double> def, double lo, double hi, std::string unit,
                          std::string help) {
  ParamSpec s = vector(std::move(key), std::move(def), lo, hi, std::move(unit), std::move(help));
  s.size = 0;
  return s;
}

ParamSpec ParamSpec::path(std::string key, std::string def, std::string help) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = ParamType::Path;
  s.defaultChoice = std::move(def);
  s.help = std::move(help);
  return s;
}

std::string ParamSpec::rangeText() const {
  switch (type) {
    case ParamType::Bool: return "true|false";
    case ParamType::Path: return "a file path (relative: to the scene file, the working directory or assets/)";
    case ParamType::Choice: {
      std::string t = "one of:";
      for (size_t i = 0; i < choices.size(); ++i) t += (i ? ", " : " ") + choices[i];
      return t;
    }
    default: {
      std::string t = (minExclusive ? "(" : "[") + formatNumber(minValue) + ", " + formatNumber(maxValue) + "]";
      if (type == ParamType::Integer) t = "integer in " + t;
      if (type == ParamType::Vector) t = (size ? std::to_string(size) : std::string("a list of")) + " numbers, each in " + t;
      return t;
    }
  }
}

std::optional<std::string> validateParam(const ParamSpec& spec, const ParamValue& value) {
  if (spec.type == ParamType::Choice) {
    for (const auto& c : spec.choices)
      if (c == value.choice) return std::nullopt;
    return "'" + shortText(value.choice) + "' is not allowed; " + spec.rangeText();
  }
  if (spec.type == ParamType::Path) {
    if (value.choice.empty()) return "empty path; allowed " + spec.rangeText();
    if (value.choice.size() >= 4096) return "path of " + std::to_string(value.choice.size()) + " characters (at most 4095)";
    if (value.choice.find('\0') != std::string::npos) return "path contains a NUL byte";
    return std::nullopt;
  }
  const size_t expected = spec.type == ParamType::Vector ? size_t(spec.size) : 1;
  if (!(spec.type == ParamType::Vector && spec.size == 0) && value.numbers.size() != expected)
    return "expected " + std::to_string(expected) + " number(s), got " + std::to_string(value.numbers.size());
  for (double v : value.numbers) {
    if (!std::isfinite(v)) return "value is not finite; allowed " + spec.rangeText();
    const bool belowMin = spec.minExclusive ? v <= spec.minValue : v < spec.minValue;
    if (belowMin || v > spec.maxValue)
      return formatNumber(v) + " is out of range; allowed " + spec.rangeText();
    if (spec.type == ParamType::Integer && v != std::floor(v))
      return formatNumber(v) + " is not an integer; allowed " + spec.rangeText();
    if (spec.type == ParamType::Bool && v != 0.0 && v != 1.0) return "expected true or false";
  }
  return std::nullopt;
}

ParamSet::ParamSet(std::vector<ParamSpec> specs) : specs_(std::move(specs)) {
  for (const auto& s : specs_) values_[s.key] = ParamValue{s.defaultNumbers, s.defaultChoice};
}

const ParamSpec* ParamSet::spec(const std::string& key) const {
  for (const auto& s : specs_)
    if (s.key == key) return &s;
  return nullptr;
}

const ParamValue& ParamSet::value(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) throw BadInput("unknown parameter '" + shortText(key) + "'");
  return it->second;
}

double ParamSet::real(const std::string& key) const { return value(key).numbers.at(0); }
long ParamSet::integer(const std::string& key) const { return long(value(key).numbers.at(0)); }
bool ParamSet::flag(const std::string& key) const { return value(key).numbers.at(0) != 0.0; }
const std::string& ParamSet::choice(const std::string& key) const { return value(key).choice; }
const std::vector<double>& ParamSet::vector(const std::string& key) const { return value(key).numbers; }

Eigen::Vector3d ParamSet::vec3(const std::string& key) const {
  const auto& v = vector(key);
  if (v.size() != 3) throw BadInput("parameter '" + key + "' is not a 3-vector");
  return {v[0], v[1], v[2]};
}

void ParamSet::set(const std::string& key, const ParamValue& v, const std::string& source) {
  const ParamSpec* s = spec(key);
  if (!s) {
    std::string known;
    for (const auto& sp : specs_) known += (known.empty() ? "" : ", ") + sp.key;
    throw BadInput(source + ": unknown key '" + shortText(key) + "'; known keys: " + known);
  }
  if (auto err = validateParam(*s, v)) throw BadInput(source + ": key '" + key + "': " + *err);
  values_[key] = v;
}

void ParamSet::setFromString(const std::string& key, const std::string& text, const std::string& source) {
  const ParamSpec* s = spec(key);
  if (!s) return set(key, {}, source);  // produces the unknown-key message
  ParamValue v;
  const std::string where = source + ": key '" + shortText(key) + "': ";
  if (s->type == ParamType::Choice || s->type == ParamType::Path) {
    v.choice = text;
  } else if (s->type == ParamType::Vector && s->size == 0 && text.empty()) {
    v.numbers.clear();  // the empty list
  } else if (s->type == ParamType::Bool) {
    if (text == "true" || text == "1" || text == "on") v.numbers = {1.0};
    else if (text == "false" || text == "0" || text == "off") v.numbers = {0.0};
    else throw BadInput(where + "'" + shortText(text) + "' is not a boolean; allowed true|false");
  } else if (s->type == ParamType::Vector) {
    // The same rules as one number (number_text.h), item by item; "2,4,5," has an empty 4th item.
    const std::string err = parseNumberList(text, v.numbers);
    if (!err.empty()) throw BadInput(where + err + "; allowed " + s->rangeText());
  } else {
    const NumberText n = parseNumber(text);
    if (!n.ok) throw BadInput(where + n.error + "; allowed " + s->rangeText());
    v.numbers = {n.value};
  }
  set(key, v, source);
}

std::string ParamSet::valueText(const std::string& key) const {
  const ParamSpec* s = spec(key);
  const ParamValue& v = value(key);
  if (s && (s->type == ParamType::Choice || s->type == ParamType::Path)) return v.choice;
  if (s && s->type == ParamType::Bool) return v.numbers.at(0) != 0.0 ? "true" : "false";
  std::string t;
  for (size_t i = 0; i < v.numbers.size(); ++i) t += (i ? "," : "") + formatNumber(v.numbers[i]);
  return t;
}

}  // namespace varsim
