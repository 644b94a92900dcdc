// The one parser for numbers typed by users (scene files' values go through nlohmann's own lexer;
// `--set`, command-line flags and input files come here): one set of rules and one message style.
// Accepted: a whole decimal literal ([+-]digits[.digits][e[+-]digits]) whose value is a finite
// double, subnormals included. Refused: empty text, spaces, hex, inf/nan, trailing junk, overflow.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace varsim {

struct NumberText {
  bool ok = false;
  double value = 0.0;
  std::string error;  // why it was refused, e.g. "'0x10' is not a number (expected ...)"
};

NumberText parseNumber(std::string_view text);

// A count typed by a user (steps, every K, ...): parseNumber's rules, then a whole number in
// [lo, hi] (checked before any conversion to an integer type, so 1e300 never wraps).
// The error states the limit: "'1e300' is above the maximum 1e+08".
NumberText parseCount(std::string_view text, double lo, double hi);

// A comma list "1,2,3.5": every item through parseNumber; an empty item (trailing comma) is refused.
// Returns the error of the first bad item ("item 4: empty text is not a number"), or "" if all parse.
std::string parseNumberList(std::string_view text, std::vector<double>& out);

// User text quoted in messages is cut to `max` characters ("abc..."), so a megabyte value or a
// 80 000-deep array never floods a message.
std::string shortText(std::string_view text, size_t max = 60);

}  // namespace varsim
