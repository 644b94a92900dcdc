// Labels fitted to their panel's width; see the header.
#include "ui/app/label_fit.h"

#include <imgui.h>

#include <algorithm>

namespace varsim {

std::string elideText(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  const float dots = ImGui::CalcTextSize("...").x;
  size_t n = text.size();
  // Shorten by whole UTF-8 characters (continuation bytes are 10xxxxxx).
  while (n > 0) {
    do --n;
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80);
    if (ImGui::CalcTextSize(text.c_str(), text.c_str() + n).x + dots <= width) return text.substr(0, n) + "...";
  }
  return dots <= width ? "..." : "";
}

std::string plainTitle(const std::string& title) {
  if (title.empty() || title.back() != ')') return title;
  int depth = 0;
  for (size_t i = title.size(); i-- > 0;) {
    depth += title[i] == ')' ? 1 : title[i] == '(' ? -1 : 0;
    if (depth == 0) return i > 1 && title[i - 1] == ' ' ? title.substr(0, i - 1) : title;
  }
  return title;
}

std::string fitLabel(const std::string& label, float minWidget) {
  const float avail = ImGui::GetContentRegionAvail().x, gap = ImGui::GetStyle().ItemInnerSpacing.x;
  const float labelW = ImGui::CalcTextSize(label.c_str(), nullptr, true).x;
  // At most 62 % of the row for the widget (short labels: the usual proportion), at least minWidget.
  const float widget = std::clamp(avail - labelW - gap, std::min(minWidget, 0.62f * avail), 0.62f * avail);
  ImGui::SetNextItemWidth(widget);
  const float room = avail - widget - gap;
  if (labelW <= room) return label;
  return elideText(label, room) + "##" + label;
}

}  // namespace varsim
