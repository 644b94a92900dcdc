// Line strips -> independent segments, the unit the line shader expands into screen-space quads
// (see assets/shaders/line.vert.glsl). Pure CPU, no GL, unit-tested.
#pragma once
#include <vector>

#include <glm/glm.hpp>

#include "render/draw_list.h"

namespace varsim::render {

struct LineSegment {  // per-instance attributes of line.vert.glsl, tightly packed (11 floats)
  glm::vec3 p0, p1;
  glm::vec4 color;
  float width;  // pixels
};
static_assert(sizeof(LineSegment) == 11 * sizeof(float), "segment layout must be tight");

// Pixel widths are clamped to this range (0 or NaN widths become the minimum).
constexpr float kMinLineWidth = 1.0f;
constexpr float kMaxLineWidth = 64.0f;

// Appends the segments of a strip (one more closing the loop when strip.loop and it has >= 3
// points). A segment with a non-finite end point is dropped, so a NaN in a trail leaves a gap
// instead of a streak across the screen. Returns the number of segments appended.
int appendSegments(const LineStrip& strip, std::vector<LineSegment>& out);

}  // namespace varsim::render
