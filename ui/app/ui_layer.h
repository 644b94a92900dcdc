// Panels kept in the window's back buffer between redraws: on a CPU rasterizer (llvmpipe) ImGui's
// ~18 000 triangles of text, widgets and plots cost ~4.7 ms CPU per 1280x720 frame (N = 1000
// ladder, full UI), more than the 3-D view. Where the buffer survives a swap (copy swap; probed at
// start), frames between panel redraws (capped rate, at once on input) redraw only the 3-D view and
// the ImGui windows over it; the panels around the view stay as the last redraw left them. A timed
// refresh redraws one of two sets of panels of about equal cost in turn (partial redraw), so no frame
// pays for all of ImGui's rasterization; input and layout changes redraw everything.
#pragma once
#include <imgui.h>

#include <utility>
#include <vector>

#include "render/frame_signature.h"
#include "ui/core/panel_layer_split.h"

struct GLFWwindow;

namespace varsim {

// Where a draw list's pixels can be (framebuffer pixels): the union over its commands of the
// vertices' box within the command's clip rectangle (a callback's: the rectangle, opaque_fill.h).
LayerRect drawListBounds(const ImDrawList& list, ImVec2 displayPos, ImVec2 scale);

// true when what the back buffer held before a swap is still there after it (draws, swaps twice,
// reads back). Needs the window's context current; leaves the back buffer undefined.
bool backBufferSurvivesSwap(GLFWwindow* window);

class UiLayer {
 public:
  // What the app's refresh policy asks of a frame: nothing, a timed refresh (one set of panels may do),
  // or a redraw of everything (input, an active widget, a popup, a screenshot).
  enum class Refresh { None, Timed, All };
  static constexpr int kSets = 2;  // panel sets a timed refresh cycles through
  // This frame's plan: whether the whole window is redrawn (clear, 3-D view, all of ImGui) or only
  // `view`, the lists drawn every frame and, if `set` ≥ 0, that set of kept panels.
  struct Plan {
    bool redrawAll = true;
    int set = -1;
    PixelRect view;  // where the 3-D view goes (the given view, or less its kept panels' edges)
  };
  Plan plan(const ImDrawData& data, const PixelRect& view, Refresh wanted);
  // Non-redraw frames: the lists not kept, over the freshly drawn view.
  void drawLive(const ImDrawData& data);
  // A partial redraw (plan's set ≥ 0), after drawLive: every pixel the set's panels cover is cleared to
  // the panels' ground (`ground`, as the renderer clears around the view) and every kept list reaching
  // it is drawn again clipped to it, in ImGui's order, so those pixels are what a full redraw gives.
  // The lists' clip rectangles are cut in place for the draw and put back before it returns.
  void drawSet(const ImDrawData& data, int set, const float ground[3]);
  // The pixel boxes drawSet redrew (whole framebuffer pixels, rows from the top).
  const std::vector<PixelRect>& setRegions() const { return regions_; }
  // The pixel boxes of every kept list as of the last full redraw.
  std::vector<PixelRect> keptRegions() const;
  // Timed refreshes per cycle through the panels: kSets while the last timed refresh was a partial one, else 1
  // (panels that move between redraws, or a scale clipWithin cannot round exactly, get full redraws at the rate).
  int setsPerCycle() const { return timedPartial_ ? kSets : 1; }
  // What drawLive would draw (after plan), into a frame signature.
  void addLive(render::FrameSignature& s, const ImDrawData& data) const;
  long redraws() const { return redraws_; }
  long partialRedraws() const { return partials_; }
  long frames() const { return frames_; }

 private:
  std::vector<LayerRect> bounds_;
  std::vector<char> kept_;
  std::vector<const ImDrawList*> keptLists_, lastKeptLists_;
  std::vector<ImDrawList*> subset_;
  std::vector<LayerRect> lastBounds_;  // kept lists' bounds at the last full redraw, in keptLists_ order
  std::vector<PixelRect> covers_;      // their covering pixels (coveringPixels), what a partial redraw redraws
  std::vector<int> setOf_;             // kept lists' sets (panelGroups), in keptLists_ order
  std::vector<PixelRect> regions_;
  std::vector<ImVec4> savedClips_;
  std::vector<std::pair<int, PixelRect>> clipped_;  // drawClipped's lists and their pixels
  void drawClipped(const ImDrawData& data);
  void rememberFullRedraw(const ImDrawData& data, const PixelRect& view);
  int nextSet_ = 0;
  bool timedPartial_ = false;  // the last timed refresh redrew one set
  PixelRect lastView_{-1, -1, -1, -1};
  ImVec2 lastDisplay_{-1.0f, -1.0f};
  bool liveSpilled_ = true;  // last frame drew a list outside the view: redraw over it
  long redraws_ = 0, frames_ = 0, partials_ = 0;
};

}  // namespace varsim
