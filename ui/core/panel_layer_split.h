// Which ImGui draw lists may stay in the window from the last panel redraw, and where the 3-D view
// then goes (ui/app/ui_layer.h uses it): plain rectangles, no GL or ImGui, so tested headless.
#pragma once
#include <vector>

#include "ui/core/view_layout.h"

namespace varsim {

// A rectangle in framebuffer pixels, rows counted from the top (as ImGui's).
struct LayerRect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool empty() const { return x1 <= x0 || y1 <= y0; }
  bool overlaps(const LayerRect& o) const {
    return !empty() && !o.empty() && x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1;
  }
};

// Which lists may stay from the last redraw: those reaching at most `edge` pixels into `view` that
// overlap no earlier list drawn every frame (those are drawn after the kept ones, so draw order is
// kept). 1 = kept, 0 = drawn every frame.
std::vector<char> splitForLayer(const std::vector<LayerRect>& bounds, const LayerRect& view, float edge);

// `view` less the pixels kept lists reach into from its sides (each side moves inwards past the
// kept lists docked to it), so redrawing only the view never paints over a kept panel's edge.
PixelRect viewBesideKept(const PixelRect& view, const std::vector<LayerRect>& bounds, const std::vector<char>& kept);

// Partial redraws (ui_layer.h): the kept lists in `groups` sets of about equal cost (e.g. their index
// counts; largest first into the cheapest set, ties to the lower index), one set redrawn per refresh in
// turn, so no frame pays for all of ImGui's rasterization. Returns each list's set, −1 if not kept.
std::vector<int> panelGroups(const std::vector<long>& cost, const std::vector<char>& kept, int groups);

// The whole pixels a list's bounds touch (rows from the top), within a fbw × fbh framebuffer.
PixelRect coveringPixels(const LayerRect& bounds, int fbw, int fbh);

// A draw command's clip rectangle (framebuffer pixels) redrawn within `region` (whole pixels): the clip
// rectangle whose scissor, rounded as ImGui's OpenGL3 backend rounds it (and opaque_fill.h), covers
// exactly the pixels of the original's scissor inside `region`. Empty (all 0) where they do not meet,
// which the backend skips. Every returned coordinate is a whole number, so the rounding is exact.
LayerRect clipWithin(const LayerRect& clip, const PixelRect& region, int fbHeight);

}  // namespace varsim
