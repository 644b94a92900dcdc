// Key names: letters and digits by their character, the navigation keys by word.
#include "ui/input/key_names.h"

#include <cctype>

namespace varsim {

namespace {
struct NamedKey {
  int code;
  const char* name;
};
constexpr NamedKey kNamedKeys[] = {{key::kSpace, "Space"},   {key::kRight, "Right"},     {key::kLeft, "Left"},
                                   {key::kDown, "Down"},     {key::kUp, "Up"},           {key::kPageUp, "PageUp"},
                                   {key::kPageDown, "PageDown"}, {key::kHome, "Home"},   {key::kEnd, "End"}};
}  // namespace

std::string keyName(int code) {
  if ((code >= 'A' && code <= 'Z') || (code >= '0' && code <= '9')) return std::string(1, char(code));
  for (const auto& k : kNamedKeys)
    if (k.code == code) return k.name;
  return "";
}

int keyFromName(const std::string& name) {
  if (name.size() == 1) {
    const int c = std::toupper(static_cast<unsigned char>(name[0]));
    if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return c;
  }
  for (const auto& k : kNamedKeys) {
    const std::string n = k.name;
    if (n.size() != name.size()) continue;
    bool same = true;
    for (size_t i = 0; i < n.size(); ++i)
      same = same && std::tolower(static_cast<unsigned char>(n[i])) == std::tolower(static_cast<unsigned char>(name[i]));
    if (same) return k.code;
  }
  return key::kNone;
}

}  // namespace varsim
