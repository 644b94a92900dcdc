// Opaque UI rectangles (plot canvases) filled by a scissored glClear run from the ImGui draw list
// instead of two blended, textured triangles: on a CPU rasterizer a clear costs next to nothing,
// while ImGui's fill costs ~10 ns per pixel (llvmpipe), and the canvases of the plots and the SPOOK
// panel covered ~170 000 px of a 1280x720 frame. The clear runs where the fill would have been
// drawn, so what is drawn later (lines, text, windows on top) still covers it.
#pragma once
#include <imgui.h>

namespace varsim {

// Fills [p0, p1] (screen pixels, clipped by the current clip rectangle) with an opaque colour.
void addOpaqueFill(ImDrawList* dl, const ImVec2& p0, const ImVec2& p1, ImU32 color);

}  // namespace varsim
