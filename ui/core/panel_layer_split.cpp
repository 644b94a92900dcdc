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

}  // namespace varsim
