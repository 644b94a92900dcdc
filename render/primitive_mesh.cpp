// Generation of the unit primitive meshes. Triangles wind counter-clockwise seen from outside (the
// renderer culls back faces); shared vertices only where the surface is smooth, so edges stay crisp.
#include "render/primitive_mesh.h"

#include <algorithm>
#include <cmath>

namespace varsim::render {
namespace {
constexpr float kTwoPi = 6.28318530717958647692f;

std::uint32_t addVertex(MeshData& m, glm::vec3 p, glm::vec3 n, float cap) {
  m.vertices.push_back({p, n, cap});
  return std::uint32_t(m.vertices.size() - 1);
}

void addTriangle(MeshData& m, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  m.indices.insert(m.indices.end(), {a, b, c});
}

// Quad a-b-c-d counter-clockwise seen from outside.
void addQuad(MeshData& m, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
  addTriangle(m, a, b, c);
  addTriangle(m, a, c, d);
}

glm::vec3 ringDirection(int i, int segments) {
  const float theta = kTwoPi * float(i % segments) / float(segments);
  return {std::cos(theta), std::sin(theta), 0.0f};
}

// Flat fan closing a ring at height z (a cap of the cylinder/cone); normal +z or -z.
void addFlatCap(MeshData& m, int segments, float z, float cap, float normalZ) {
  const glm::vec3 n(0, 0, normalZ);
  const std::uint32_t centre = addVertex(m, {0, 0, z}, n, cap);
  const std::uint32_t first = std::uint32_t(m.vertices.size());
  for (int i = 0; i < segments; ++i) addVertex(m, ringDirection(i, segments) + glm::vec3(0, 0, z), n, cap);
  for (int i = 0; i < segments; ++i) {
    const std::uint32_t a = first + std::uint32_t(i), b = first + std::uint32_t((i + 1) % segments);
    if (normalZ > 0) addTriangle(m, centre, a, b);
    else addTriangle(m, centre, b, a);
  }
}

// Latitude/longitude rows of a unit sphere from the north pole (row 0) to the south pole
// (row = rows); rowCap(row) gives the cap flag of a row. Rows listed in duplicateRows appear twice
// (used by the capsule to split the equator between the upper and lower cap).
MeshData makeLatLong(int segments, const std::vector<float>& rowPolar, const std::vector<float>& rowCap) {
  MeshData m;
  const int rows = int(rowPolar.size());
  // Pole rows get one vertex per segment (each with its own longitude) so the texture-free shading
  // stays symmetric; their triangles degenerate to the pole.
  std::vector<std::uint32_t> rowStart(std::size_t(rows), 0);
  for (int r = 0; r < rows; ++r) {
    rowStart[std::size_t(r)] = std::uint32_t(m.vertices.size());
    const float phi = rowPolar[std::size_t(r)];
    for (int i = 0; i < segments; ++i) {
      const glm::vec3 d = ringDirection(i, segments);
      const glm::vec3 p(std::sin(phi) * d.x, std::sin(phi) * d.y, std::cos(phi));
      addVertex(m, p, glm::normalize(p), rowCap[std::size_t(r)]);
    }
  }
  for (int r = 0; r + 1 < rows; ++r) {
    const bool northPole = r == 0 && rowPolar[0] == 0.0f;
    const bool southPole = r + 1 == rows - 1 && rowPolar[std::size_t(r + 1)] >= 3.14159265f;
    for (int i = 0; i < segments; ++i) {
      const std::uint32_t a = rowStart[std::size_t(r)] + std::uint32_t(i);
      const std::uint32_t b = rowStart[std::size_t(r)] + std::uint32_t((i + 1) % segments);
      const std::uint32_t c = rowStart[std::size_t(r + 1)] + std::uint32_t((i + 1) % segments);
      const std::uint32_t d = rowStart[std::size_t(r + 1)] + std::uint32_t(i);
      // Going down (increasing polar angle) and around (+theta), outward is d-c-b-a order reversed:
      // (d - a) points south, (b - a) points east; south x east = outward.
      if (northPole) addTriangle(m, a, d, c);
      else if (southPole) addTriangle(m, a, d, b);
      else addQuad(m, a, d, c, b);
    }
  }
  return m;
}
}  // namespace

MeshData makeBox() {
  MeshData m;
  // For each face: outward normal and two in-plane axes u, v with u x v = normal.
  const glm::vec3 normals[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (const glm::vec3& n : normals) {
    const glm::vec3 u = std::abs(n.z) > 0.5f ? glm::vec3(1, 0, 0) * n.z : glm::vec3(-n.y, n.x, 0);
    const glm::vec3 v = glm::cross(n, u);
    const glm::vec3 c = 0.5f * n;
    const std::uint32_t a = addVertex(m, c - 0.5f * u - 0.5f * v, n, 0);
    const std::uint32_t b = addVertex(m, c + 0.5f * u - 0.5f * v, n, 0);
    const std::uint32_t d = addVertex(m, c + 0.5f * u + 0.5f * v, n, 0);
    const std::uint32_t e = addVertex(m, c - 0.5f * u + 0.5f * v, n, 0);
    addQuad(m, a, b, d, e);
  }
  return m;
}

MeshData makeSphere(int segments) {
  segments = std::max(segments, 3);
  const int bands = std::max(segments / 2, 2);
  std::vector<float> polar, cap;
  for (int r = 0; r <= bands; ++r) {
    polar.push_back(r == bands ? 3.14159265358979f : 3.14159265358979f * float(r) / float(bands));
    cap.push_back(0.0f);
  }
  return makeLatLong(segments, polar, cap);
}

MeshData makeCapsule(int segments) {
  segments = std::max(segments, 3);
  // Quarter circle per cap; the equator appears twice (cap +1 then -1): the band between them is
  // the cylindrical side, whose length is 2 * halfLength after placement.
  const int quarter = std::max(segments / 4, 1);
  std::vector<float> polar, cap;
  for (int r = 0; r <= quarter; ++r) {
    polar.push_back(0.5f * 3.14159265358979f * float(r) / float(quarter));
    cap.push_back(1.0f);
  }
  for (int r = 0; r <= quarter; ++r) {
    polar.push_back(r == quarter ? 3.14159265358979f
                                 : 0.5f * 3.14159265358979f * (1.0f + float(r) / float(quarter)));
    cap.push_back(-1.0f);
  }
  return makeLatLong(segments, polar, cap);
}

MeshData makeCylinder(int segments) {
  segments = std::max(segments, 3);
  MeshData m;
  const std::uint32_t top = std::uint32_t(m.vertices.size());
  for (int i = 0; i < segments; ++i) addVertex(m, ringDirection(i, segments), ringDirection(i, segments), 1.0f);
  const std::uint32_t bottom = std::uint32_t(m.vertices.size());
  for (int i = 0; i < segments; ++i) addVertex(m, ringDirection(i, segments), ringDirection(i, segments), -1.0f);
  for (int i = 0; i < segments; ++i) {
    const std::uint32_t j = std::uint32_t((i + 1) % segments);
    addQuad(m, bottom + std::uint32_t(i), bottom + j, top + j, top + std::uint32_t(i));
  }
  addFlatCap(m, segments, 0.0f, 1.0f, 1.0f);
  addFlatCap(m, segments, 0.0f, -1.0f, -1.0f);
  return m;
}

MeshData makeDisc(int segments) {
  segments = std::max(segments, 3);
  MeshData m;
  addFlatCap(m, segments, 0.0f, 0.0f, 1.0f);
  addFlatCap(m, segments, 0.0f, 0.0f, -1.0f);
  return m;
}

MeshData makeCone(int segments) {
  segments = std::max(segments, 3);
  MeshData m;
  // Side normal of the unit cone (radius 1, height 1) is (cos t, sin t, 1) / sqrt 2. The apex is
  // duplicated per segment with the mid-segment normal so the shading does not pinch.
  const float s = 1.0f / std::sqrt(2.0f);
  const std::uint32_t ring = std::uint32_t(m.vertices.size());
  for (int i = 0; i < segments; ++i) {
    const glm::vec3 d = ringDirection(i, segments);
    addVertex(m, d, glm::vec3(d.x * s, d.y * s, s), 0.0f);
  }
  for (int i = 0; i < segments; ++i) {
    const float mid = kTwoPi * (float(i) + 0.5f) / float(segments);
    const std::uint32_t apex =
        addVertex(m, {0, 0, 1}, glm::vec3(std::cos(mid) * s, std::sin(mid) * s, s), 0.0f);
    addTriangle(m, ring + std::uint32_t(i), ring + std::uint32_t((i + 1) % segments), apex);
  }
  addFlatCap(m, segments, 0.0f, 0.0f, -1.0f);
  return m;
}

MeshData makeRibbon() {
  MeshData m;
  // Seen from +y: x to the right, the cap (length) direction up; counter-clockwise from there.
  const glm::vec3 n(0, 1, 0);
  const std::uint32_t a = addVertex(m, {1, 0, 0}, n, -1.0f), b = addVertex(m, {-1, 0, 0}, n, -1.0f);
  const std::uint32_t c = addVertex(m, {-1, 0, 0}, n, 1.0f), d = addVertex(m, {1, 0, 0}, n, 1.0f);
  addQuad(m, a, b, c, d);
  return m;
}

MeshData makePrimitive(Primitive kind, int lod) {
  const int segments = kLodSegments[std::clamp(lod, 0, kLodCount - 1)];
  switch (kind) {
    case Primitive::Box: return makeBox();
    case Primitive::Sphere: return makeSphere(segments);
    case Primitive::Cylinder: return makeCylinder(segments);
    case Primitive::Capsule: return makeCapsule(segments);
    case Primitive::Disc: return makeDisc(segments);
    case Primitive::Cone: return makeCone(segments);
    case Primitive::Ribbon: return makeRibbon();
    case Primitive::Count: break;
  }
  return {};
}

}  // namespace varsim::render
