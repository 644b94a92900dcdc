// Text cut at a window's edge, found in ImGui's draw data: a glyph quad (textured with the font atlas, not its
// white pixel) that crosses the left or right edge of its command's clip rectangle on a row that is otherwise
// visible. ImGui draws a label past its widget and lets the window's scissor cut it, so this is where a cut label
// ("(rese", "preset scen") can be seen without looking at pixels. The smoke test reports it for every scene.
#pragma once
#include <imgui.h>

#include <string>

namespace varsim {

struct ClippedText {
  long glyphs = 0;      // glyph quads cut at a clip rectangle's left or right edge
  std::string windows;  // the windows they are in ("Parameters, Plan")
};

ClippedText findClippedText(const ImDrawData& data);

}  // namespace varsim
