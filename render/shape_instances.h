// Expands DrawList shapes into instanced primitive parts (an arrow is a cylinder shaft plus a cone
// head) and picks a level of detail from the projected size; pure CPU, no GL, unit-tested.
// The instance layout is what shape.vert.glsl reads as per-instance attributes.
#pragma once
#include <vector>

#include <glm/glm.hpp>

#include "render/draw_list.h"
#include "render/primitive_mesh.h"

namespace varsim::render {

// Per-instance data, tightly packed floats (24 floats = 96 bytes), uploaded as-is.
struct ShapeInstance {
  glm::mat4 model;   // part frame -> world (the item's transform times the part offset)
  glm::vec3 scale;   // unit mesh -> part size (see placeVertex)
  float halfLength;  // cap shift for cylinders and capsules, m
  glm::vec4 color;   // straight (non-premultiplied) RGBA
};
static_assert(sizeof(ShapeInstance) == 24 * sizeof(float), "instance layout must be tight");

// World normal of a local normal under model's linear part L: the cofactor matrix of L equals
// det(L) L^-T, so three cross products give the inverse-transpose direction without an inverse
// (exact for scaled and sheared transforms too); sign(det) keeps mirrored transforms outward.
// shape.vert.glsl computes exactly this per vertex (keep them in sync).
inline glm::vec3 worldNormal(const glm::mat4& model, const glm::vec3& localNormal) {
  const glm::vec3 c0(model[0]), c1(model[1]), c2(model[2]);
  const glm::mat3 cofactor(glm::cross(c1, c2), glm::cross(c2, c0), glm::cross(c0, c1));
  const float sign = glm::dot(c0, glm::cross(c1, c2)) < 0.0f ? -1.0f : 1.0f;
  return glm::normalize(sign * (cofactor * localNormal));
}

struct ShapePart {
  Primitive primitive;
  ShapeInstance instance;
  glm::vec3 centre;        // world centre of the part's bounds
  float boundingRadius;    // m, sphere around centre enclosing the part
  float curvatureRadius;   // m, radius of the round cross-section (drives the level of detail)
};

// Arrow head proportions: the head is headLengthPerRadius times its radius long, but never more
// than maxHeadFraction of the whole arrow (short arrows stay arrows, not cones).
constexpr float kArrowHeadLengthPerRadius = 2.6f;
constexpr float kArrowMaxHeadFraction = 0.5f;

// Appends the parts of one shape; returns false (appending nothing) when the item cannot be drawn:
// non-finite numbers, a non-positive size or a singular transform. Such items are skipped silently
// by the renderer (a scene's bad frame never crashes the app).
bool expandShape(const ShapeItem& item, std::vector<ShapePart>& out);

// Level of detail (0 = finest) for a round cross-section of this radius seen at this distance;
// pixelsPerRadian = viewportHeight / fovY roughly (use lodPixelsPerRadian).
int chooseLod(float curvatureRadius, float distanceToEye, float pixelsPerRadian);
inline float lodPixelsPerRadian(int viewportHeight, float fovY) {
  return 0.5f * float(viewportHeight) / std::tan(0.5f * fovY);
}

// Rods (cylinders, capsules) whose cross-section projects to at most this radius in pixels are drawn
// as ribbons facing the eye: at that width a 3-segment ring and a flat strip look alike, and the
// strip costs 4 vertices and 2 triangles instead of 12 and 12 (a 5000-link ladder has 15001 rods).
constexpr float kRibbonMaxPixels = 1.2f;
// A ribbon is never narrower than twice this (px): the rods of a ladder framed whole project below a
// pixel and would vanish between the samples of the rasterizer.
constexpr float kRibbonMinPixels = 0.75f;
// Turns a thin cylinder or capsule part into a Ribbon (a capsule's strip runs on over its round
// ends: half length + radius), at least 2 kRibbonMinPixels wide at distanceToEye; false, leaving the
// part alone, for anything else.
bool useRibbon(ShapePart& part, float distanceToEye, float pixelsPerRadian);
// World position of a ribbon vertex as shape.vert.glsl places it (keep them in sync): the strip
// spans the instance's z axis (cap * halfLength from its origin) and is turned about that axis to
// face the eye, radius scale.x to each side; counter-clockwise seen from the eye.
glm::vec3 ribbonVertex(const ShapeInstance& instance, const MeshVertex& vertex, const glm::vec3& eye);

}  // namespace varsim::render
