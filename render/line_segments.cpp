// Strip -> segment expansion (see line_segments.h).
#include "render/line_segments.h"

#include <algorithm>
#include <cmath>

namespace varsim::render {
namespace {
bool finite(const Vec3f& p) { return std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2]); }
glm::vec3 toGlm(const Vec3f& p) { return {p[0], p[1], p[2]}; }
float clamp01(float v) { return std::isfinite(v) ? std::clamp(v, 0.0f, 1.0f) : 0.0f; }
}  // namespace

int appendSegments(const LineStrip& strip, std::vector<LineSegment>& out) {
  const std::size_t n = strip.points.size();
  if (n < 2) return 0;
  const glm::vec4 color(clamp01(strip.color.r), clamp01(strip.color.g), clamp01(strip.color.b), clamp01(strip.color.a));
  const float width = std::isfinite(strip.width) ? std::clamp(strip.width, kMinLineWidth, kMaxLineWidth) : kMinLineWidth;
  const std::size_t segments = (strip.loop && n >= 3) ? n : n - 1;
  int appended = 0;
  for (std::size_t i = 0; i < segments; ++i) {
    const Vec3f& a = strip.points[i];
    const Vec3f& b = strip.points[(i + 1) % n];
    if (!finite(a) || !finite(b)) continue;
    out.push_back({toGlm(a), toGlm(b), color, width});
    ++appended;
  }
  return appended;
}

}  // namespace varsim::render
