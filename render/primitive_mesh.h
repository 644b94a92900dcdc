// Unit primitive meshes (box, sphere, cylinder, capsule, disc, cone) generated once on the CPU and
// uploaded by the renderer; no GL here, so the geometry is unit-tested without a context.
// Each vertex carries a "cap" flag so one mesh serves every cylinder/capsule length (see placeVertex).
#pragma once
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace varsim::render {

// Ribbon: the stand-in for rods (cylinders, capsules) about a pixel wide, a flat strip that
// shape.vert.glsl turns to face the eye (2 triangles instead of a 3-segment capsule's 12); open, so
// not a closed primitive like the others.
enum class Primitive { Box, Sphere, Cylinder, Capsule, Disc, Cone, Ribbon, Count };
constexpr int kPrimitiveCount = int(Primitive::Count);

// Levels of detail for round primitives: segments around the circumference per level (0 = finest).
// The box and the ribbon have a single level; their other levels repeat it.
// The coarsest (3 segments) serves rods about a pixel wide, where vertex count is all that matters.
constexpr int kLodCount = 5;
constexpr int kLodSegments[kLodCount] = {40, 20, 10, 6, 3};

struct MeshVertex {
  glm::vec3 position;  // unit shape (see Primitive docs in shape_instances.h for the scale mapping)
  glm::vec3 normal;    // unit, outward
  float cap;           // -1, 0 or +1: shifted by cap * halfLength along local z after scaling
};

struct MeshData {
  std::vector<MeshVertex> vertices;
  std::vector<std::uint32_t> indices;  // triangles, counter-clockwise seen from outside
};

// Local position of a vertex for a part with this scale and half length. shape.vert.glsl applies
// exactly this map (keep them in sync): p * scale + (0, 0, cap * halfLength).
inline glm::vec3 placeVertex(const MeshVertex& v, const glm::vec3& scale, float halfLength) {
  return v.position * scale + glm::vec3(0.0f, 0.0f, v.cap * halfLength);
}
// Local normal under that map: the inverse transpose of diag(scale), normalized (the cap shift is a
// translation and leaves normals alone).
inline glm::vec3 placeNormal(const MeshVertex& v, const glm::vec3& scale) {
  return glm::normalize(v.normal / scale);
}

MeshData makeBox();                     // [-1/2, 1/2]^3, flat faces
MeshData makeSphere(int segments);      // radius 1, segments around, segments/2 from pole to pole
MeshData makeCylinder(int segments);    // radius 1, all vertices at z = 0 with cap = +-1, flat ends
MeshData makeCapsule(int segments);     // unit hemispheres shifted by cap = +-1, smooth side
MeshData makeDisc(int segments);        // radius 1 in the xy plane, two faces (normals +z and -z)
MeshData makeCone(int segments);        // base radius 1 at z = 0, apex at z = 1, flat base
MeshData makeRibbon();                  // x = -1..1 at z = 0 with cap = -1..+1, facing +y (turned by the shader)
MeshData makePrimitive(Primitive kind, int lod);

}  // namespace varsim::render
