// Kept and redrawn draw lists; see header.
#include "ui/core/panel_layer_split.h"

#include <algorithm>
#include <cmath>

namespace varsim {

std::vector<char> splitForLayer(const std::vector<LayerRect>& bounds, const LayerRect& view, float edge) {
  std::vector<char> kept(bounds.size(), 0);
  std::vector<LayerRect> live;
  const LayerRect inner{view.x0 + edge, view.y0 + edge, view.x1 - edge, view.y1 - edge};
  for (size_t i = 0; i < bounds.size(); ++i) {
    bool keep = !bounds[i].overlaps(inner);
    for (const LayerRect& l : live) keep = keep && !bounds[i].overlaps(l);
    kept[i] = keep ? 1 : 0;
    if (!keep) live.push_back(bounds[i]);
  }
  return kept;
}

PixelRect viewBesideKept(const PixelRect& view, const std::vector<LayerRect>& bounds, const std::vector<char>& kept) {
  float x0 = float(view.x), y0 = float(view.y), x1 = float(view.x + view.width), y1 = float(view.y + view.height);
  const LayerRect v{x0, y0, x1, y1};
  for (size_t i = 0; i < bounds.size(); ++i) {
    const LayerRect& b = bounds[i];
    if (!kept[i] || !b.overlaps(v)) continue;
    // The side the list reaches in from is the one it penetrates least.
    const float left = b.x1 - v.x0, right = v.x1 - b.x0, top = b.y1 - v.y0, bottom = v.y1 - b.y0;
    const float least = std::min({left, right, top, bottom});
    if (least == left)
      x0 = std::max(x0, std::ceil(b.x1));
    else if (least == right)
      x1 = std::min(x1, std::floor(b.x0));
    else if (least == top)
      y0 = std::max(y0, std::ceil(b.y1));
    else
      y1 = std::min(y1, std::floor(b.y0));
  }
  if (x1 <= x0 || y1 <= y0) return view;
  return {int(x0), int(y0), int(x1 - x0), int(y1 - y0)};
}

std::vector<int> panelGroups(const std::vector<long>& cost, const std::vector<char>& kept, int groups) {
  std::vector<int> group(cost.size(), -1);
  std::vector<size_t> order;
  for (size_t i = 0; i < cost.size(); ++i)
    if (kept[i]) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return cost[a] > cost[b]; });
  std::vector<long> load(size_t(std::max(groups, 1)), 0);
  for (size_t i : order) {
    const auto g = size_t(std::min_element(load.begin(), load.end()) - load.begin());
    group[i] = int(g);
    load[g] += cost[i];
  }
  return group;
}

PixelRect coveringPixels(const LayerRect& b, int fbw, int fbh) {
  if (b.empty()) return {};
  const int x0 = std::clamp(int(std::floor(b.x0)), 0, fbw), x1 = std::clamp(int(std::ceil(b.x1)), 0, fbw);
  const int y0 = std::clamp(int(std::floor(b.y0)), 0, fbh), y1 = std::clamp(int(std::ceil(b.y1)), 0, fbh);
  if (x1 <= x0 || y1 <= y0) return {};
  return {x0, y0, x1 - x0, y1 - y0};
}

LayerRect clipWithin(const LayerRect& clip, const PixelRect& region, int fbHeight) {
  if (clip.empty()) return {};
  // The backend's scissor: glScissor((int)x0, (int)(H − y1), (int)(x1 − x0), (int)(y1 − y0)), rows from
  // the bottom; as rows from the top it spans [H − Y − height, H − Y).
  const int x = int(clip.x0), width = int(clip.x1 - clip.x0);
  const int yGl = int(float(fbHeight) - clip.y1), height = int(clip.y1 - clip.y0);
  const int x0 = std::max(x, region.x), x1 = std::min(x + width, region.x + region.width);
  const int y0 = std::max(fbHeight - yGl - height, region.y), y1 = std::min(fbHeight - yGl, region.y + region.height);
  if (x1 <= x0 || y1 <= y0) return {};
  return {float(x0), float(y0), float(x1), float(y1)};
}

}  // namespace varsim
