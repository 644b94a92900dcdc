// The one parser for numbers typed by users (scene files' values go through nlohmann's own lexer;
// `--set`, command-line flags and input files come here): one set of rules and one message style.
// Accepted: a whole decimal literal ([+-]digits[.digits][e[+-]digits]) whose value is a finite
// double, subnormals included. Refused: empty text, spaces, hex, inf/nan, trailing junk, overflow.
#pragma once
#include <string>
#include <string_view>

namespace varsim {

struct NumberText {
  bool ok = false;
  double value = 0.0;
  std::string error;  // why it was refused, e.g. "'0x10' is not a decimal number"
};

NumberText parseNumber(std::string_view text);

}  // namespace varsim
