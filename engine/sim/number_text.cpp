// Strict decimal number parsing; see number_text.h for the rules.
#include "engine/sim/number_text.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "engine/sim/param.h"

namespace varsim {

// Checks the decimal-literal grammar before strtod sees the text, because strtod alone also takes
// hex, "inf", "nan" and leading spaces, and reports subnormals as range errors.
static bool isDecimalLiteral(std::string_view s) {
  size_t i = 0;
  auto digits = [&] {
    size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    return i - start;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  size_t mantissa = digits();
  if (i < s.size() && s[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

// inf/nan get their own message: they are numbers to strtod, just never valid ones here.
static bool isInfOrNan(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  std::string lower;
  for (char c : s) lower += char(std::tolower(static_cast<unsigned char>(c)));
  return lower == "inf" || lower == "infinity" || lower == "nan";
}

NumberText parseNumber(std::string_view text) {
  NumberText out;
  const std::string shown = shortText(text, 40);
  if (text.empty()) {
    out.error = "empty text is not a number (expected a decimal literal such as -1.5e-3)";
    return out;
  }
  if (!isDecimalLiteral(text)) {
    out.error = "'" + shown + "' is not a number (expected a decimal literal such as -1.5e-3)";
    if (isInfOrNan(text)) out.error = "'" + shown + "' is not finite (expected a decimal literal such as -1.5e-3)";
    return out;
  }
  const std::string copy(text);
  const double v = std::strtod(copy.c_str(), nullptr);
  if (!std::isfinite(v)) {
    out.error = "'" + shown + "' is out of the range of a double (|x| < 1.8e308)";
    return out;
  }
  out.ok = true;
  out.value = v;
  return out;
}

NumberText parseCount(std::string_view text, double lo, double hi) {
  NumberText out = parseNumber(text);
  if (!out.ok) return out;
  const std::string shown = "'" + shortText(text, 40) + "'";
  out.ok = false;
  if (out.value != std::floor(out.value))
    out.error = shown + " is not a whole number";
  else if (out.value < lo)
    out.error = shown + " is below the minimum " + formatNumber(lo);
  else if (out.value > hi)
    out.error = shown + " is above the maximum " + formatNumber(hi);
  else
    out.ok = true;
  return out;
}

std::string parseNumberList(std::string_view text, std::vector<double>& out) {
  out.clear();
  size_t start = 0;
  for (size_t item = 1;; ++item) {
    const size_t comma = text.find(',', start);
    const std::string_view part = text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    const NumberText n = parseNumber(part);
    if (!n.ok) return "item " + std::to_string(item) + ": " + n.error;
    out.push_back(n.value);
    if (comma == std::string_view::npos) return "";
    start = comma + 1;
  }
}

std::string shortText(std::string_view text, size_t max) {
  if (text.size() <= max) return std::string(text);
  return std::string(text.substr(0, max)) + "... (" + std::to_string(text.size()) + " characters)";
}

}  // namespace varsim
