// VARSIM_PANEL_CHECK=1 (ui_layer.h on CPU rasterizers): proof by pixels that the kept-panel layer draws what a
// full redraw would. A partial redraw's pixels are compared with the same frame redrawn in full; a frame that
// keeps the panels must leave every kept pixel as it was. The bench report gives the counts (0 expected).
#pragma once
#include <vector>

#include "render/renderer.h"
#include "ui/core/view_layout.h"

namespace varsim {

struct AppState;

// The back buffer's pixels in `regions` (whole framebuffer pixels, rows from the top), RGBA.
std::vector<unsigned char> readBackRegions(const std::vector<PixelRect>& regions, int fbh);

// After drawSet: redraws the frame in full (view, all of ImGui; it stays in the buffer) and counts the pixels
// of the set's regions that differ.
void checkPartialRedraw(AppState& app, const ViewRect& view, int fbw, int fbh);

// A frame that keeps the panels: `before` holds the kept regions' pixels (readBackRegions of
// UiLayer::keptRegions) read before the frame drew anything; counts those the frame changed.
void checkKeptFrame(AppState& app, const std::vector<PixelRect>& regions, const std::vector<unsigned char>& before, int fbh);

}  // namespace varsim
