// A 64-bit signature of what a frame draws, so a frame that would draw exactly what the last one left
// in the buffer can be skipped (a paused simulation under a still camera costs no rendering; on a CPU
// rasterizer the 3-D view of a 1000-link ladder is ~3 ms of CPU per frame). Equal inputs give equal
// signatures; a collision would keep one stale frame (2^-64 per frame).
#pragma once
#include <cstddef>
#include <cstdint>

#include "render/draw_list.h"

namespace varsim::render {

class FrameSignature {
 public:
  // Bytes as they are (callers pass plain values without padding: floats, ints, vertex arrays).
  void add(const void* data, std::size_t bytes);
  template <typename T>
  void addValue(const T& v) {
    add(&v, sizeof v);
  }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 0x9E3779B97F4A7C15ull;
};

// Every field the renderer reads from the list (shapes, lines, meshes, the camera hint's ground);
// labels and HUD lines are drawn by the UI and not included.
void addDrawList(FrameSignature& s, const DrawList& list);

}  // namespace varsim::render
