// Free 3-D view region from docked panel rectangles; see header. Docking is judged from geometry
// alone (ImGui 1.86 has no docking), so a panel the user drags away from an edge stops shrinking
// the view, and one dragged back to an edge starts again.
#include "ui/core/view_layout.h"

#include <algorithm>
#include <cmath>

namespace varsim {

namespace {

bool usable(const ScreenRect& r) {
  return std::isfinite(r.x) && std::isfinite(r.y) && std::isfinite(r.w) && std::isfinite(r.h) && r.w > 0.0f && r.h > 0.0f;
}

}  // namespace

ScreenRect freeViewRect(float displayW, float displayH, float topInset, const std::vector<ScreenRect>& panels,
                        const ViewLayoutRules& rules) {
  const float W = std::isfinite(displayW) ? std::max(displayW, 0.0f) : 0.0f;
  const float H = std::isfinite(displayH) ? std::max(displayH, 0.0f) : 0.0f;
  const ScreenRect whole{0.0f, 0.0f, W, H};
  if (W <= 0.0f || H <= 0.0f) return whole;
  const float tol = rules.dockTolerance;
  float left = 0.0f, right = W;
  float top = std::isfinite(topInset) ? std::clamp(topInset, 0.0f, H) : 0.0f, bottom = H;
  std::vector<const ScreenRect*> centre;  // neither left- nor right-docked: bottom candidates
  for (const ScreenRect& p : panels) {
    if (!usable(p)) continue;
    const bool atLeft = p.x <= tol, atRight = p.x + p.w >= W - tol;
    // A panel reaching both side edges is a full-width bar, not a column.
    if (atLeft && !atRight) left = std::max(left, p.x + p.w);
    else if (atRight && !atLeft) right = std::min(right, p.x);
    else centre.push_back(&p);
  }
  for (const ScreenRect* p : centre) {
    if (p->y + p->h < H - tol) continue;
    const float overlap = std::min(p->x + p->w, right) - std::max(p->x, left);
    if (overlap >= 0.5f * (right - left)) bottom = std::min(bottom, p->y);
  }
  if (right - left < rules.minWidth || bottom - top < rules.minHeight) return whole;
  return {left, top, right - left, bottom - top};
}

PixelRect toFramebufferPixels(const ScreenRect& r, float scaleX, float scaleY, int framebufferW, int framebufferH) {
  const PixelRect whole{0, 0, std::max(framebufferW, 0), std::max(framebufferH, 0)};
  if (!(scaleX > 0.0f) || !(scaleY > 0.0f) || !std::isfinite(scaleX) || !std::isfinite(scaleY) || !usable(r))
    return whole;
  // Outward rounding: the view never leaves a one-pixel seam of clear colour next to a panel.
  // Clamped as floats first: a huge rectangle must not overflow the int conversion.
  auto pixel = [](float v, int limit) { return int(std::clamp(v, 0.0f, float(limit))); };
  const int x0 = pixel(std::floor(r.x * scaleX), whole.width), x1 = pixel(std::ceil((r.x + r.w) * scaleX), whole.width);
  const int y0 = pixel(std::floor(r.y * scaleY), whole.height), y1 = pixel(std::ceil((r.y + r.h) * scaleY), whole.height);
  if (x1 <= x0 || y1 <= y0) return whole;
  return {x0, y0, x1 - x0, y1 - y0};
}

}  // namespace varsim
