// See ground_grid.h. Each line is cut where its fade or haze changes: pieces grow with distance
// from the eye's foot point, and colours are evaluated at the vertices (GL interpolates between).
#include "render/ground_grid.h"

#include <algorithm>
#include <cmath>

namespace varsim::render {
namespace {

float smoothstep(float edge0, float edge1, float x) {
  const float t = std::clamp((x - edge0) / (edge1 - edge0), 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

// Cohen-Sutherland outcode in clip space: one bit per frustum plane the point is outside of.
unsigned outcode(const glm::mat4& viewProj, const glm::vec3& p) {
  const glm::vec4 c = viewProj * glm::vec4(p, 1.0f);
  return (c.x < -c.w ? 1u : 0u) | (c.x > c.w ? 2u : 0u) | (c.y < -c.w ? 4u : 0u) | (c.y > c.w ? 8u : 0u) |
         (c.z < -c.w ? 16u : 0u) | (c.z > c.w ? 32u : 0u);
}

struct Family {
  float spacing;
  long skipEvery;  // lines at multiples of skipEvery*spacing belong to another family (or an axis)
  float strength;  // 0: an axis (never fades, full opacity)
  glm::vec3 color;
};

// Colour of a line of `family` at ground point p.
glm::vec4 lineColor(const GroundGridView& view, const GroundGridStyle& style, const Family& family, float eyeHeight,
                    const glm::vec3& p) {
  const float r = std::hypot(p.x - view.eye.x, p.y - view.eye.y);
  const float alpha = family.strength > 0.0f
                          ? family.strength * gridFamilyFade(family.spacing, view.pixelsPerRadian, eyeHeight, r)
                          : 1.0f;
  const float fog = groundFog(view.fadeEnd, glm::length(p - view.eye));
  return glm::vec4(glm::mix(family.color, groundHaze(style, view.eye, p), fog), alpha);
}

// The line {p[axis] = position} inside the disc of `radius` around the eye's foot point.
int appendLine(const GroundGridView& view, const GroundGridStyle& style, const Family& family, float eyeHeight,
               int axis, float position, float radius, std::vector<GridVertex>& out) {
  const glm::vec2 foot(view.eye.x, view.eye.y);
  const float offset = position - foot[axis];
  if (std::abs(offset) >= radius) return 0;
  const float halfChord = std::sqrt(radius * radius - offset * offset);
  auto point = [&](float s) {
    glm::vec3 p(0.0f, 0.0f, view.groundHeight);
    p[axis] = position;
    p[1 - axis] = foot[1 - axis] + s;
    return p;
  };
  int segments = 0;
  for (int direction = -1; direction <= 1; direction += 2) {
    float s = 0.0f;
    while (s < halfChord) {
      const float r = std::hypot(offset, s);
      const float next = std::min(halfChord, s + std::max(2.0f * family.spacing, 0.5f * r));
      const glm::vec3 a = point(float(direction) * s), b = point(float(direction) * next);
      s = next;
      if (view.cullToView && (outcode(view.viewProj, a) & outcode(view.viewProj, b)) != 0) continue;
      const glm::vec4 ca = lineColor(view, style, family, eyeHeight, a), cb = lineColor(view, style, family, eyeHeight, b);
      if (ca.a > 0.004f || cb.a > 0.004f) {
        out.push_back({a, ca});
        out.push_back({b, cb});
        ++segments;
      }
    }
  }
  return segments;
}

}  // namespace

glm::vec3 groundHaze(const GroundGridStyle& style, const glm::vec3& eye, const glm::vec3& point) {
  const glm::vec3 toPoint = point - eye;
  const float dist = std::max(glm::length(toPoint), 1e-6f);
  return glm::mix(style.horizon, style.groundFar, std::clamp(-toPoint.z / dist * 25.0f, 0.0f, 1.0f));
}

float groundFog(float fadeEnd, float distance) { return smoothstep(0.15f * fadeEnd, 0.9f * fadeEnd, distance); }

float gridFamilyFade(float spacing, float pixelsPerRadian, float eyeHeight, float horizontalDistance) {
  const float h = std::max(eyeHeight, 1e-3f);
  const float cellPixels = spacing * pixelsPerRadian * h / (horizontalDistance * horizontalDistance + h * h);
  return std::clamp(cellPixels * 0.125f - 0.5f, 0.0f, 1.0f);
}

float gridFamilyRadius(float spacing, float pixelsPerRadian, float eyeHeight, float fadeEnd) {
  const float h = std::max(eyeHeight, 1e-3f);
  const float slantSquared = spacing * pixelsPerRadian * h / 4.0f;  // where cells span 4 px
  return std::min(std::sqrt(std::max(slantSquared - h * h, 0.0f)), fadeEnd);
}

int appendGroundGrid(const GroundGridView& view, const GroundGridStyle& style, std::vector<GridVertex>& out) {
  if (!std::isfinite(view.eye.x) || !std::isfinite(view.eye.y) || !std::isfinite(view.eye.z) ||
      !std::isfinite(view.groundHeight) || !std::isfinite(view.fadeEnd) || !(view.fadeEnd > 0.0f) ||
      !std::isfinite(view.pixelsPerRadian) || !(view.pixelsPerRadian > 0.0f) || !(style.minorSpacing > 0.0f) ||
      !(style.majorSpacing >= style.minorSpacing))
    return 0;
  const float eyeHeight = std::max(std::abs(view.eye.z - view.groundHeight), 1e-3f);
  const long majorEvery = std::max(1L, std::lround(style.majorSpacing / style.minorSpacing));
  const Family minor{style.minorSpacing, majorEvery, style.minorStrength, style.minorColor};
  const Family major{style.majorSpacing, 0, style.majorStrength, style.majorColor};
  int segments = 0;
  for (const Family& family : {minor, major}) {
    const float radius = gridFamilyRadius(family.spacing, view.pixelsPerRadian, eyeHeight, view.fadeEnd);
    for (int axis = 0; axis < 2; ++axis) {
      const float centre = axis == 0 ? view.eye.x : view.eye.y;
      const long first = long(std::ceil((centre - radius) / family.spacing));
      const long last = long(std::floor((centre + radius) / family.spacing));
      for (long k = first; k <= last; ++k) {
        if (k == 0 || (family.skipEvery > 0 && k % family.skipEvery == 0)) continue;
        segments += appendLine(view, style, family, eyeHeight, axis, float(k) * family.spacing, radius, out);
      }
    }
  }
  // Axes last (drawn over the other lines): x axis is the line y = 0, y axis the line x = 0.
  segments += appendLine(view, style, Family{style.majorSpacing, 0, 0.0f, style.axisXColor}, eyeHeight, 1, 0.0f,
                         view.fadeEnd, out);
  segments += appendLine(view, style, Family{style.majorSpacing, 0, 0.0f, style.axisYColor}, eyeHeight, 0, 0.0f,
                         view.fadeEnd, out);
  return segments;
}

}  // namespace varsim::render
