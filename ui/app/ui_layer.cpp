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

// ImGui's GL backend drawing `lists` (some of data's, in its order) with data's display and scale.
void renderLists(const ImDrawData& data, std::vector<ImDrawList*>& lists) {
  if (lists.empty()) return;
  ImDrawData part = data;
  part.TotalIdxCount = part.TotalVtxCount = 0;
  for (const ImDrawList* l : lists) {
    part.TotalIdxCount += l->IdxBuffer.Size;
    part.TotalVtxCount += l->VtxBuffer.Size;
  }
  part.CmdLists = lists.data();
  part.CmdListsCount = int(lists.size());
  ImGui_ImplOpenGL3_RenderDrawData(&part);
}

// The lists of `data` with fromLayer[i] == want.
void renderSubset(const ImDrawData& data, const std::vector<char>& fromLayer, char want,
                  std::vector<ImDrawList*>& subset) {
  subset.clear();
  for (int i = 0; i < data.CmdListsCount; ++i)
    if (fromLayer[size_t(i)] == want) subset.push_back(data.CmdLists[i]);
  renderLists(data, subset);
}

bool sameRect(const LayerRect& a, const LayerRect& b) { return a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1; }

bool meet(const PixelRect& a, const PixelRect& b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

PixelRect within(const PixelRect& a, const PixelRect& b) {
  const int x0 = std::max(a.x, b.x), y0 = std::max(a.y, b.y);
  const int x1 = std::min(a.x + a.width, b.x + b.width), y1 = std::min(a.y + a.height, b.y + b.height);
  return {x0, y0, x1 - x0, y1 - y0};
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

UiLayer::Plan UiLayer::plan(const ImDrawData& data, const PixelRect& view, Refresh wanted) {
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
  bool moved = false;   // a kept list's bounds changed since the last full redraw
  const LayerRect inner{float(p.view.x), float(p.view.y), float(p.view.x + p.view.width),
                        float(p.view.y + p.view.height)};
  for (int i = 0; i < data.CmdListsCount; ++i) {
    const LayerRect& b = bounds_[size_t(i)];
    if (kept_[size_t(i)]) {
      const size_t k = keptLists_.size();
      moved = moved || k >= lastBounds_.size() || !sameRect(b, lastBounds_[k]);
      keptLists_.push_back(data.CmdLists[i]);
    } else if (!b.empty() && (b.x0 < inner.x0 || b.y0 < inner.y0 || b.x1 > inner.x1 || b.y1 > inner.y1)) {
      spills = true;
    }
  }
  const bool sameView = p.view.x == lastView_.x && p.view.y == lastView_.y && p.view.width == lastView_.width &&
                        p.view.height == lastView_.height;
  // A resized window's buffer holds nothing of the last redraw.
  const bool sameSize = data.DisplaySize.x == lastDisplay_.x && data.DisplaySize.y == lastDisplay_.y;
  // clipWithin's whole-pixel clip rectangles reach the backend unchanged only at these scales.
  const ImVec2 sc = data.FramebufferScale;
  const bool exact = data.DisplayPos.x == 0 && data.DisplayPos.y == 0 && sc.x == sc.y && (sc.x == 1 || sc.x == 2);
  p.redrawAll = wanted == Refresh::All || spills || liveSpilled_ || !sameView || !sameSize || keptLists_.empty() ||
                keptLists_ != lastKeptLists_;
  // A timed refresh redraws one set of panels where they lie as at the last full redraw; else everything.
  if (wanted == Refresh::Timed) timedPartial_ = !p.redrawAll && exact && !moved;
  if (!p.redrawAll && wanted == Refresh::Timed) {
    if (timedPartial_) {
      p.set = nextSet_;
      nextSet_ = (nextSet_ + 1) % kSets;
      ++partials_;
    } else {
      p.redrawAll = true;
    }
  }
  liveSpilled_ = spills;
  if (p.redrawAll) rememberFullRedraw(data, p.view);
  return p;
}

// What the buffer holds after a full redraw: the kept lists, where they lie, their sets for partial redraws.
void UiLayer::rememberFullRedraw(const ImDrawData& data, const PixelRect& view) {
  ++redraws_;
  lastKeptLists_ = keptLists_;
  lastView_ = view;
  lastDisplay_ = data.DisplaySize;
  lastBounds_.clear();
  covers_.clear();
  const int fbw = int(data.DisplaySize.x * data.FramebufferScale.x);
  const int fbh = int(data.DisplaySize.y * data.FramebufferScale.y);
  std::vector<long> cost;
  for (int i = 0; i < data.CmdListsCount; ++i) {
    cost.push_back(data.CmdLists[i]->IdxBuffer.Size);
    if (!kept_[size_t(i)]) continue;
    lastBounds_.push_back(bounds_[size_t(i)]);
    covers_.push_back(coveringPixels(bounds_[size_t(i)], fbw, fbh));
  }
  const std::vector<int> sets = panelGroups(cost, kept_, kSets);
  setOf_.clear();
  for (size_t i = 0; i < sets.size(); ++i)
    if (kept_[i]) setOf_.push_back(sets[i]);
  nextSet_ = 0;
}

// Draws the lists clipped_[j].first, each clipped to the pixels clipped_[j].second, in one backend call.
void UiLayer::drawClipped(const ImDrawData& data) {
  const int fbh = int(data.DisplaySize.y * data.FramebufferScale.y);
  const ImVec2 pos = data.DisplayPos, sc = data.FramebufferScale;
  subset_.clear();
  savedClips_.clear();
  for (const auto& [i, r] : clipped_) {
    ImDrawList* list = data.CmdLists[i];
    subset_.push_back(list);
    for (ImDrawCmd& cmd : list->CmdBuffer) {
      savedClips_.push_back(cmd.ClipRect);
      const LayerRect c{(cmd.ClipRect.x - pos.x) * sc.x, (cmd.ClipRect.y - pos.y) * sc.y,
                        (cmd.ClipRect.z - pos.x) * sc.x, (cmd.ClipRect.w - pos.y) * sc.y};
      const LayerRect w = clipWithin(c, r, fbh);
      cmd.ClipRect = ImVec4(w.x0 / sc.x + pos.x, w.y0 / sc.y + pos.y, w.x1 / sc.x + pos.x, w.y1 / sc.y + pos.y);
    }
  }
  renderLists(data, subset_);
  size_t c = 0;  // the lists are ImGui's: their clip rectangles go back as they were
  for (ImDrawList* list : subset_)
    for (ImDrawCmd& cmd : list->CmdBuffer) cmd.ClipRect = savedClips_[c++];
}

void UiLayer::drawSet(const ImDrawData& data, int set, const float ground[3]) {
  const int fbh = int(data.DisplaySize.y * data.FramebufferScale.y);
  regions_.clear();
  for (size_t k = 0; k < setOf_.size(); ++k)
    if (setOf_[k] == set && covers_[k].width > 0) regions_.push_back(covers_[k]);
  auto clear = [&](const PixelRect& r) {
    glEnable(GL_SCISSOR_TEST);
    glScissor(r.x, fbh - r.y - r.height, r.width, r.height);
    glClearColor(ground[0], ground[1], ground[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
  };
  // One pass: the set's lists whole, every other kept list within the one region it reaches (the
  // docked panels of the default layouts share at most an edge with one region).
  for (const PixelRect& r : regions_) clear(r);
  clipped_.clear();
  bool onePass = true;
  for (int i = 0, k = 0; i < data.CmdListsCount; ++i) {
    if (!kept_[size_t(i)]) continue;
    const PixelRect& cover = covers_[size_t(k)];
    if (setOf_[size_t(k++)] == set) {
      clipped_.push_back({i, cover});
      continue;
    }
    int reached = 0;
    for (const PixelRect& r : regions_)
      if (meet(cover, r) && ++reached == 1) clipped_.push_back({i, within(cover, r)});
    onePass = onePass && reached <= 1;
  }
  if (onePass) {
    drawClipped(data);
    return;
  }
  // Else region after region, each from its clear: a pixel two regions share ends as the later one draws it.
  for (const PixelRect& r : regions_) {
    clear(r);
    clipped_.clear();
    for (int i = 0, k = 0; i < data.CmdListsCount; ++i)
      if (kept_[size_t(i)] && meet(covers_[size_t(k++)], r)) clipped_.push_back({i, r});
    drawClipped(data);
  }
}

std::vector<PixelRect> UiLayer::keptRegions() const {
  std::vector<PixelRect> regions;
  for (const PixelRect& r : covers_)
    if (r.width > 0) regions.push_back(r);
  return regions;
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
