// Subject framing: a conservative box around the draw list's shapes and lines, then the camera
// distance from the box's bounding sphere and the narrower of the two fields of view.
#include "render/subject_framing.h"

#include <algorithm>
#include <cmath>

namespace {
constexpr float kPi = 3.14159265358979f;
constexpr float kMargin = 1.15f;     // bounding sphere at 87 % of the narrower half-field
constexpr float kFlatRatio = 0.15f;  // an extent below this fraction of the largest one is "flat"

// Radius of a sphere about the shape's origin that holds the whole shape.
float shapeRadius(const varsim::ShapeItem& s) {
  const float x = std::fabs(s.size[0]), y = std::fabs(s.size[1]), z = std::fabs(s.size[2]);
  switch (s.kind) {
    case varsim::ShapeKind::Box: return 0.5f * std::sqrt(x * x + y * y + z * z);
    case varsim::ShapeKind::Sphere:
    case varsim::ShapeKind::Disc: return x;
    case varsim::ShapeKind::Cylinder: return std::sqrt(x * x + 0.25f * z * z);
    case varsim::ShapeKind::Capsule: return x + 0.5f * z;
    case varsim::ShapeKind::Arrow: return std::max(y, z);  // from the origin along z: head and length
  }
  return 0.0f;
}

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

struct BoxBuilder {
  SubjectBounds b;
  bool restricted = false;
  glm::vec3 centre{0.0f};
  float reach = 0.0f;
  void add(const glm::vec3& p, float r) {
    if (!finite(p) || !std::isfinite(r)) return;
    if (restricted && glm::length(p - centre) > reach) return;
    const glm::vec3 e(r);
    b.lo = b.valid ? glm::min(b.lo, p - e) : p - e;
    b.hi = b.valid ? glm::max(b.hi, p + e) : p + e;
    b.valid = true;
  }
};
}  // namespace

SubjectBounds subjectBounds(const varsim::DrawList& list) {
  BoxBuilder box;
  const varsim::CameraHint& hint = list.camera;
  if (hint.follow) {
    box.restricted = true;
    box.centre = glm::vec3(hint.target[0], hint.target[1], hint.target[2]);
    box.reach = std::isfinite(hint.distance) && hint.distance > 0.0f ? 0.5f * hint.distance : 1.0f;
  }
  for (const varsim::ShapeItem& s : list.shapes)
    box.add(glm::vec3(s.transform[12], s.transform[13], s.transform[14]), shapeRadius(s));
  if (hint.hasReach) {
    box.add(glm::vec3(hint.reachLo[0], hint.reachLo[1], hint.reachLo[2]), 0.0f);
    box.add(glm::vec3(hint.reachHi[0], hint.reachHi[1], hint.reachHi[2]), 0.0f);
  }
  // A vehicle's lines are its trail and planned path (they grow as it drives), not the vehicle.
  if (!hint.follow)
    for (const varsim::LineStrip& l : list.lines)
      for (const varsim::Vec3f& p : l.points) box.add(glm::vec3(p[0], p[1], p[2]), 0.0f);
  return box.b;
}

void frameSubject(OrbitCamera& camera, const varsim::DrawList& list, float aspect) {
  if (!(aspect > 0.0f) || !std::isfinite(aspect)) aspect = 1.0f;
  const varsim::CameraHint& hint = list.camera;
  const SubjectBounds b = subjectBounds(list);
  camera.adoptedHint = false;
  camera.follow = false;
  camera.update(hint, 0.0f);  // the hint's follow, target, distance and angles first
  if (!b.valid) return;
  const glm::vec3 ext = b.hi - b.lo;
  const float largest = std::max({ext.x, ext.y, ext.z});
  if (!hint.setsAngles && !hint.follow && largest > 0.0f) {
    camera.yaw = 0.8f, camera.pitch = 0.45f;
    // A planar subject is seen from its open side, slightly from above so depth still reads.
    if (ext.y < kFlatRatio * largest) camera.yaw = -0.5f * kPi, camera.pitch = 0.12f;
    else if (ext.x < kFlatRatio * largest) camera.yaw = 0.0f, camera.pitch = 0.12f;
  }
  // A follow camera looks at the vehicle's reference point, not the box's centre: the sphere about
  // that point through the farthest corner holds the box.
  const glm::vec3 centre = hint.follow ? camera.target : 0.5f * (b.lo + b.hi);
  const glm::vec3 reach = glm::max(glm::abs(b.hi - centre), glm::abs(b.lo - centre));
  const float radius = std::max(glm::length(reach), 1e-3f);
  const float halfY = 0.5f * camera.fovY;
  const float halfNarrow = std::min(halfY, std::atan(aspect * std::tan(halfY)));
  const float distance = kMargin * radius / std::sin(halfNarrow);
  camera.maxDistance = std::max(camera.maxDistance, distance);
  camera.distance = std::max(distance, camera.minDistance);
  camera.target = centre;
}
