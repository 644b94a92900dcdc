// Widget labels that fit their panel: the widget takes the width the label leaves (at least `minWidget` px), and a
// label longer than the rest is shortened with "..." (the caller's tooltip has it in full), so no label is cut at
// the panel's edge at 1280x720. Between ImGui::Begin and End.
#pragma once
#include <string>

namespace varsim {

// Sets the next item's width and returns the label to pass to the widget ("shortened...##full" when elided, so the
// widget's ID stays the full label's).
std::string fitLabel(const std::string& label, float minWidget = 90.0f);
// `text` shortened with "..." to at most `width` px in the current font ("" if not even "..." fits).
std::string elideText(const std::string& text, float width);

// A title without its trailing parenthesis (a method or paper reference, shown in a tooltip or the docs): plain
// names first. "Helicopter (seed 000 Sec. 4.3.1)" -> "Helicopter", "Step bound (seed 002)" -> "Step bound".
std::string plainTitle(const std::string& title);

}  // namespace varsim
