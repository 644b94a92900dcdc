// Panels kept between redraws; see header.
#include "ui/app/ui_layer.h"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace varsim {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
// Docked panels reach a pixel or two into the view (outward rounding, anti-aliased window edges):
// such a panel is still kept, and the view gives up those pixels (viewBesideKept).
constexpr float kViewEdge = 3.0f;

void grow(LayerRect& r, const ImVec4& clip) {
  r.x0 = std::min(r.x0, clip.x);
  r.y0 = std::min(r.y0, clip.y);
  r.x1 = std::max(r.x1, clip.z);
  r.y1 = std::max(r.y1, clip.w);
}

// ImGui's GL backend draws every list of `data`; this draws those with fromLayer[i] == want.
void renderSubset(const ImDrawData& data, const std::vector<char>& fromLayer, char want,
                  std::vector<ImDrawList*>& subset) {
  subset.clear();
  ImDrawData part = data;
  part.TotalIdxCount = part.TotalVtxCount = 0;
  for (int i = 0; i < data.CmdListsCount; ++i) {
    if (fromLayer[size_t(i)] != want) continue;
    subset.push_back(data.CmdLists[i]);
    part.TotalIdxCount += data.CmdLists[i]->IdxBuffer.Size;
    part.TotalVtxCount += data.CmdLists[i]->VtxBuffer.Size;
  }
  if (subset.empty()) return;
  part.CmdLists = subset.data();
  part.CmdListsCount = int(subset.size());
  ImGui_ImplOpenGL3_RenderDrawData(&part);
}

}  // namespace

LayerRect drawListBounds(const ImDrawList& list, ImVec2 displayPos, ImVec2 scale) {
  LayerRect r{kInf, kInf, -kInf, -kInf};
  for (const ImDrawCmd& cmd : list.CmdBuffer) {
    if (cmd.UserCallback) {
      if (cmd.UserCallback != ImDrawCallback_ResetRenderState) grow(r, cmd.ClipRect);
      continue;
    }
    // What the command's triangles cover: their vertices' box within its clip rectangle; a pixel
    // whose centre lies on an edge of the box may still be drawn, hence the half pixel of margin.
    LayerRect box{kInf, kInf, -kInf, -kInf};
    for (unsigned e = 0; e < cmd.ElemCount; ++e) {
      const ImDrawVert& v = list.VtxBuffer[int(cmd.VtxOffset + list.IdxBuffer[int(cmd.IdxOffset + e)])];
      grow(box, ImVec4(v.pos.x, v.pos.y, v.pos.x, v.pos.y));
    }
    const LayerRect clipped{std::max(box.x0 - 0.5f, cmd.ClipRect.x), std::max(box.y0 - 0.5f, cmd.ClipRect.y),
                            std::min(box.x1 + 0.5f, cmd.ClipRect.z), std::min(box.y1 + 0.5f, cmd.ClipRect.w)};
    if (!clipped.empty()) grow(r, ImVec4(clipped.x0, clipped.y0, clipped.x1, clipped.y1));
  }
  if (r.empty()) return LayerRect{};
  return {(r.x0 - displayPos.x) * scale.x, (r.y0 - displayPos.y) * scale.y, (r.x1 - displayPos.x) * scale.x,
          (r.y1 - displayPos.y) * scale.y};
}

bool backBufferSurvivesSwap(GLFWwindow* window) {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window, &w, &h);
  if (w <= 0 || h <= 0) return false;
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDisable(GL_SCISSOR_TEST);
  glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glfwSwapBuffers(window);
  glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glfwSwapBuffers(window);  // an exchanging swap now leaves red (or anything) in
                            // the back buffer
  glReadBuffer(GL_BACK);
  bool green = true;
  for (const auto& [x, y] : {std::pair{0, 0}, std::pair{w / 2, h / 2}, std::pair{w - 1, h - 1}}) {
    unsigned char px[4] = {0, 0, 0, 0};
    glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    green = green && px[0] < 8 && px[1] > 247 && px[2] < 8;
  }
  return green && glGetError() == GL_NO_ERROR;
}

UiLayer::Plan UiLayer::plan(const ImDrawData& data, const PixelRect& view, bool wanted) {
  ++frames_;
  Plan p;
  p.view = view;
  if (!data.Valid || data.CmdListsCount == 0) {
    ++redraws_;
    liveSpilled_ = true;
    return p;
  }
  bounds_.resize(size_t(data.CmdListsCount));
  for (int i = 0; i < data.CmdListsCount; ++i)
    bounds_[size_t(i)] = drawListBounds(*data.CmdLists[i], data.DisplayPos, data.FramebufferScale);
  const LayerRect v{float(view.x), float(view.y), float(view.x + view.width), float(view.y + view.height)};
  kept_ = splitForLayer(bounds_, v, kViewEdge);
  p.view = viewBesideKept(view, bounds_, kept_);
  keptLists_.clear();
  bool spills = false;  // a list drawn every frame reaching out of the view
                        // covers kept pixels
  const LayerRect inner{float(p.view.x), float(p.view.y), float(p.view.x + p.view.width),
                        float(p.view.y + p.view.height)};
  for (int i = 0; i < data.CmdListsCount; ++i) {
    const LayerRect& b = bounds_[size_t(i)];
    if (kept_[size_t(i)])
      keptLists_.push_back(data.CmdLists[i]);
    else if (!b.empty() && (b.x0 < inner.x0 || b.y0 < inner.y0 || b.x1 > inner.x1 || b.y1 > inner.y1))
      spills = true;
  }
  const bool sameView = p.view.x == lastView_.x && p.view.y == lastView_.y && p.view.width == lastView_.width &&
                        p.view.height == lastView_.height;
  // A resized window's buffer holds nothing of the last redraw.
  const bool sameSize = data.DisplaySize.x == lastDisplay_.x && data.DisplaySize.y == lastDisplay_.y;
  p.redrawAll = wanted || spills || liveSpilled_ || !sameView || !sameSize || keptLists_.empty() ||
                keptLists_ != lastKeptLists_;
  liveSpilled_ = spills;
  if (p.redrawAll) {
    ++redraws_;
    lastKeptLists_ = keptLists_;
    lastView_ = p.view;
    lastDisplay_ = data.DisplaySize;
  }
  return p;
}

void UiLayer::drawLive(const ImDrawData& data) { renderSubset(data, kept_, 0, subset_); }

void UiLayer::addLive(render::FrameSignature& s, const ImDrawData& data) const {
  for (int i = 0; i < data.CmdListsCount && size_t(i) < kept_.size(); ++i) {
    if (kept_[size_t(i)]) continue;
    const ImDrawList& list = *data.CmdLists[i];
    s.add(list.VtxBuffer.Data, size_t(list.VtxBuffer.Size) * sizeof(ImDrawVert));
    s.add(list.IdxBuffer.Data, size_t(list.IdxBuffer.Size) * sizeof(ImDrawIdx));
    for (const ImDrawCmd& cmd : list.CmdBuffer) {  // field by field: the struct has padding bytes
      s.addValue(cmd.ClipRect);
      s.addValue(cmd.TextureId);
      s.addValue(cmd.VtxOffset);
      s.addValue(cmd.IdxOffset);
      s.addValue(cmd.ElemCount);
      s.addValue(cmd.UserCallback);
      s.addValue(cmd.UserCallbackData);
    }
  }
}

}  // namespace varsim
