// One claim per pixel of the view, for parts smaller than a pixel (instance_buckets.h): a rod whose whole extent
// projects inside one pixel adds nothing where another such rod already covers that pixel, and a 10 000-link ladder
// framed whole puts ~75 of its 30 001 rods on every pixel of its line. GL-free.
#pragma once
#include <vector>

#include <glm/glm.hpp>

namespace varsim::render {

class PixelCells {
 public:
  // Forgets every claim; the view is width x height pixels (non-positive: every claim fails).
  void reset(int width, int height);
  // Claims the pixel under `clip` (a point in clip space, viewProj * (p, 1)): true the first time that pixel is
  // claimed since reset, false if it was claimed before or the point is behind the eye or off the view.
  bool claim(const glm::vec4& clip);

 private:
  int width_ = 0, height_ = 0;
  std::vector<unsigned char> claimed_;
};

}  // namespace varsim::render
