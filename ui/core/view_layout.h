// Where the 3-D view goes: the window minus the panels docked to its left, right and bottom edges
// and the menu bar. Pure geometry on the panels' screen rectangles (no ImGui, no GL), so the
// renderer's viewport, camera input, picking and overlays all agree on one rectangle.
#pragma once
#include <vector>

namespace varsim {

// Screen rectangle in logical pixels (ImGui's units), from the top-left corner of the window.
struct ScreenRect {
  float x = 0.0f, y = 0.0f, w = 0.0f, h = 0.0f;
  bool contains(float px, float py) const { return px >= x && px < x + w && py >= y && py < y + h; }
};

// Framebuffer rectangle in device pixels from the top-left (what Renderer::render takes as ViewRect).
struct PixelRect {
  int x = 0, y = 0, width = 0, height = 0;
};

struct ViewLayoutRules {
  float dockTolerance = 12.0f;  // px: a panel this close to an edge counts as docked to it
  float minWidth = 160.0f;      // px: a narrower or lower free region is useless as a view,
  float minHeight = 120.0f;     //     so the view falls back to the whole window
};

// The free region of a displayW x displayH window whose top `topInset` pixels are taken (menu bar).
// A panel docked to the left edge pushes the view's left side right, one docked to the right edge
// pushes its right side left; a panel touching the bottom edge that spans at least half of the
// remaining width lifts its bottom. Floating panels (moved away from the edges) overlay the view.
// Panels with non-finite or non-positive sizes are ignored. Never negative or empty for a non-empty
// window: when too little is left, the whole window.
ScreenRect freeViewRect(float displayW, float displayH, float topInset, const std::vector<ScreenRect>& panels,
                        const ViewLayoutRules& rules = {});

// `r` in framebuffer pixels (HiDPI: scale = framebuffer size / window size), rounded outward to whole
// pixels and clamped to the framebuffer; the whole framebuffer when the result would be empty.
PixelRect toFramebufferPixels(const ScreenRect& r, float scaleX, float scaleY, int framebufferW, int framebufferH);

}  // namespace varsim
