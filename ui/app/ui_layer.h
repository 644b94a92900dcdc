// Panels kept in the window's back buffer between redraws: on a CPU rasterizer (llvmpipe) ImGui's
// ~18 000 triangles of text, widgets and plots cost ~4.7 ms CPU per 1280x720 frame (N = 1000
// ladder, full UI), more than the 3-D view. Where the buffer survives a swap (copy swap; probed at
// start), frames between panel redraws (capped rate, at once on input) redraw only the 3-D view and
// the ImGui windows over it; the panels around the view stay as the last redraw left them.
#pragma once
#include <imgui.h>

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
  // This frame's plan: whether the whole window is redrawn (clear, 3-D view, all of ImGui) or only
  // `view` and the lists drawn every frame. `wanted`: the app's refresh policy asks for a redraw.
  struct Plan {
    bool redrawAll = true;
    PixelRect view;  // where the 3-D view goes (the given view, or less its kept panels' edges)
  };
  Plan plan(const ImDrawData& data, const PixelRect& view, bool wanted);
  // Non-redraw frames: the lists not kept, over the freshly drawn view.
  void drawLive(const ImDrawData& data);
  // What drawLive would draw (after plan), into a frame signature.
  void addLive(render::FrameSignature& s, const ImDrawData& data) const;
  long redraws() const { return redraws_; }
  long frames() const { return frames_; }

 private:
  std::vector<LayerRect> bounds_;
  std::vector<char> kept_;
  std::vector<const ImDrawList*> keptLists_, lastKeptLists_;
  std::vector<ImDrawList*> subset_;
  PixelRect lastView_{-1, -1, -1, -1};
  ImVec2 lastDisplay_{-1.0f, -1.0f};
  bool liveSpilled_ = true;  // last frame drew a list outside the view: redraw over it
  long redraws_ = 0, frames_ = 0;
};

}  // namespace varsim
