// Pixel claims of sub-pixel parts (see pixel_cells.h).
#include "render/pixel_cells.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace varsim::render {

void PixelCells::reset(int width, int height) {
  width_ = std::max(width, 0);
  height_ = std::max(height, 0);
  claimed_.assign(std::size_t(width_) * std::size_t(height_), 0);
}

bool PixelCells::claim(const glm::vec4& clip) {
  if (!(clip.w > 0.0f)) return false;  // behind the eye (or NaN)
  const float x = (0.5f + 0.5f * clip.x / clip.w) * float(width_), y = (0.5f + 0.5f * clip.y / clip.w) * float(height_);
  if (!(x >= 0.0f && x < float(width_) && y >= 0.0f && y < float(height_))) return false;
  unsigned char& cell = claimed_[std::size_t(int(y)) * std::size_t(width_) + std::size_t(int(x))];
  if (cell) return false;
  cell = 1;
  return true;
}

}  // namespace varsim::render
