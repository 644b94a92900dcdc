// Shape -> part expansion and level-of-detail choice (see shape_instances.h).
// Size conventions follow ShapeKind in render/draw_list.h.
#include "render/shape_instances.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

namespace varsim::render {
namespace {

bool allFinite(const float* v, int n) {
  for (int i = 0; i < n; ++i)
    if (!std::isfinite(v[i])) return false;
  return true;
}

ShapePart makePart(Primitive primitive, const glm::mat4& model, glm::vec3 scale, float halfLength, const glm::vec4& color, float localBound,
                   float curvatureRadius) {
  ShapePart p;
  p.primitive = primitive;
  p.instance = ShapeInstance{model, scale, halfLength, color};
  p.centre = glm::vec3(model[3]);
  // The bound grows with the largest axis stretch of the transform (1 for rigid transforms).
  const float stretch = std::max({glm::length(glm::vec3(model[0])), glm::length(glm::vec3(model[1])),
                                  glm::length(glm::vec3(model[2]))});
  p.boundingRadius = localBound * stretch;
  p.curvatureRadius = curvatureRadius * stretch;
  return p;
}

}  // namespace

bool expandShape(const ShapeItem& item, std::vector<ShapePart>& out) {
  if (!allFinite(item.transform.data(), 16) || !allFinite(item.size.data(), 3)) return false;
  if (!allFinite(&item.color.r, 4)) return false;
  const glm::mat4 model = glm::make_mat4(item.transform.data());
  const glm::mat3 linear(model);
  const float det = glm::determinant(linear);
  if (!(std::abs(det) > 1e-12f)) return false;
  const glm::vec4 color(std::clamp(item.color.r, 0.0f, 1.0f), std::clamp(item.color.g, 0.0f, 1.0f),
                        std::clamp(item.color.b, 0.0f, 1.0f), std::clamp(item.color.a, 0.0f, 1.0f));
  const glm::vec3 s(item.size[0], item.size[1], item.size[2]);

  switch (item.kind) {
    case ShapeKind::Box:
      if (!(s.x > 0 && s.y > 0 && s.z > 0)) return false;
      out.push_back(makePart(Primitive::Box, model, s, 0.0f, color, 0.5f * glm::length(s), 0.0f));
      return true;
    case ShapeKind::Sphere:
      if (!(s.x > 0)) return false;
      out.push_back(makePart(Primitive::Sphere, model, glm::vec3(s.x), 0.0f, color, s.x, s.x));
      return true;
    case ShapeKind::Cylinder: {
      if (!(s.x > 0 && s.y > 0 && s.z > 0)) return false;
      const float r = std::max(s.x, s.y);
      out.push_back(makePart(Primitive::Cylinder, model, glm::vec3(s.x, s.y, 1.0f), 0.5f * s.z,
                             color, std::hypot(r, 0.5f * s.z), r));
      return true;
    }
    case ShapeKind::Capsule: {
      // Radius from size.x (size.y repeats it); the hemispherical caps must stay round, so the
      // length is applied as the cap shift rather than as a scale.
      if (!(s.x > 0 && s.z >= 0)) return false;
      out.push_back(makePart(Primitive::Capsule, model, glm::vec3(s.x), 0.5f * s.z, color,
                             s.x + 0.5f * s.z, s.x));
      return true;
    }
    case ShapeKind::Disc:
      if (!(s.x > 0)) return false;
      out.push_back(makePart(Primitive::Disc, model, glm::vec3(s.x, s.x, 1.0f), 0.0f, color, s.x, s.x));
      return true;
    case ShapeKind::Arrow: {
      const float shaftRadius = s.x, headRadius = s.y, length = s.z;
      if (!(shaftRadius >= 0 && headRadius > 0 && length > 0)) return false;
      const float headLength = std::min(kArrowHeadLengthPerRadius * headRadius, kArrowMaxHeadFraction * length);
      const float shaftLength = length - headLength;
      if (shaftRadius > 0 && shaftLength > 0) {
        const glm::mat4 shaftModel = glm::translate(model, glm::vec3(0, 0, 0.5f * shaftLength));
        out.push_back(makePart(Primitive::Cylinder, shaftModel, glm::vec3(shaftRadius, shaftRadius, 1.0f),
                               0.5f * shaftLength, color, std::hypot(shaftRadius, 0.5f * shaftLength), shaftRadius));
      }
      const glm::mat4 headModel = glm::translate(model, glm::vec3(0, 0, shaftLength));
      // Cone bound: centre at the base; the apex is headLength away, the rim headRadius away.
      out.push_back(makePart(Primitive::Cone, headModel, glm::vec3(headRadius, headRadius, headLength),
                             0.0f, color, std::max(headRadius, headLength), headRadius));
      return true;
    }
  }
  return false;
}

bool useRibbon(ShapePart& part, float distanceToEye, float pixelsPerRadian) {
  if (part.primitive != Primitive::Cylinder && part.primitive != Primitive::Capsule) return false;
  const float pixels = part.curvatureRadius * pixelsPerRadian / std::max(distanceToEye, 1e-6f);
  if (pixels > kRibbonMaxPixels) return false;
  ShapeInstance& in = part.instance;
  const float radius = std::max(in.scale.x, in.scale.y);
  if (part.primitive == Primitive::Capsule) in.halfLength += radius;
  const float minRadius = kRibbonMinPixels * std::max(distanceToEye, 1e-6f) / std::max(pixelsPerRadian, 1e-6f);
  in.scale = glm::vec3(std::max(radius, minRadius), std::max(radius, minRadius), 1.0f);
  part.primitive = Primitive::Ribbon;
  return true;
}

glm::vec3 ribbonVertex(const ShapeInstance& instance, const MeshVertex& vertex, const glm::vec3& eye) {
  const glm::vec3 axis = glm::normalize(glm::vec3(instance.model[2]));
  const glm::vec3 end = glm::vec3(instance.model[3]) + axis * (vertex.cap * instance.halfLength);
  const glm::vec3 toEye = eye - end;
  glm::vec3 side = glm::cross(toEye, axis);
  const float length = glm::length(side);
  // Looking straight down the axis the strip has no preferred turn: the instance's x axis.
  side = length > 1e-6f * glm::length(toEye) ? side / length : glm::normalize(glm::vec3(instance.model[0]));
  return end + side * (vertex.position.x * instance.scale.x);
}

int chooseLod(float curvatureRadius, float distanceToEye, float pixelsPerRadian) {
  // Projected radius in pixels; a ring of n segments deviates from the circle by r (1 - cos(pi/n)),
  // so these thresholds keep that sag below 0.6 pixel at every level.
  const float pixels = curvatureRadius * pixelsPerRadian / std::max(distanceToEye, 1e-6f);
  if (pixels > 48.0f) return 0;
  if (pixels > 12.0f) return 1;
  if (pixels > 3.0f) return 2;
  if (pixels > 1.2f) return 3;
  return 4;
}

}  // namespace varsim::render
