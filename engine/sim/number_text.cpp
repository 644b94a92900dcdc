// Strict decimal number parsing; see number_text.h for the rules.
#include "engine/sim/number_text.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

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

NumberText parseNumber(std::string_view text) {
  NumberText out;
  const std::string shown = text.size() > 40 ? std::string(text.substr(0, 40)) + "..." : std::string(text);
  if (text.empty()) {
    out.error = "empty text is not a number";
    return out;
  }
  if (!isDecimalLiteral(text)) {
    out.error = "'" + shown + "' is not a decimal number";
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

}  // namespace varsim
