// GL buffers behind the renderer: the static primitive meshes with a per-frame instance stream,
// a stream buffer for TriangleMesh items, and the instanced line-segment quads. Needs a current
// GL 3.3 core context; create()/destroy() own every GL object (no GL in destructors).
#pragma once
#include <vector>

#include <glad/gl.h>

#include "render/draw_list.h"
#include "render/ground_grid.h"
#include "render/line_segments.h"
#include "render/primitive_mesh.h"
#include "render/shape_instances.h"

namespace varsim::render {

class PrimitiveBuffers {
 public:
  void create();   // generates every primitive at every level of detail into one VBO/IBO
  void destroy();
  void uploadInstances(const std::vector<ShapeInstance>& instances);
  // Draws `count` uploaded instances starting at `first` with the given mesh; returns triangles.
  int draw(int primitive, int lod, int first, int count) const;
  int trianglesPerInstance(int primitive, int lod) const { return ranges_[primitive][lod].indexCount / 3; }

 private:
  struct Range {
    GLint baseVertex = 0;
    GLsizei firstIndex = 0;
    GLsizei indexCount = 0;
  };
  GLuint vao_ = 0, vertexBuffer_ = 0, indexBuffer_ = 0, instanceBuffer_ = 0;
  Range ranges_[kPrimitiveCount][kLodCount];
};

class DynamicMeshBuffers {
 public:
  void create();
  void destroy();
  // Uploads and draws one mesh with the shape program bound (identity instance, mesh colour).
  // Invalid meshes (index out of range, non-finite data) draw nothing; missing or mismatched
  // normals are recomputed from the triangles (area weighted). Returns triangles drawn.
  int draw(const TriangleMesh& mesh);

 private:
  GLuint vao_ = 0, vertexBuffer_ = 0, indexBuffer_ = 0;
  std::vector<MeshVertex> scratch_;
};

// Static backdrop meshes: the sky dome (unit directions, rings dense near the horizon where the
// gradient turns fastest) and the ground grid (a 32x32-cell unit square, scaled in the shader).
class BackdropBuffers {
 public:
  void create();
  void destroy();
  int drawSky() const;     // returns triangles
  int drawGround() const;  // returns triangles

 private:
  struct Mesh {
    GLuint vao = 0, vertexBuffer = 0, indexBuffer = 0;
    GLsizei indexCount = 0;
  };
  static void upload(Mesh& mesh, const std::vector<float>& vertices, int components,
                     const std::vector<std::uint32_t>& indices);
  static void release(Mesh& mesh);
  Mesh sky_, ground_;
};

// The ground grid's coloured 1-px GL lines, streamed each frame (render/ground_grid.h).
class GridLineBuffers {
 public:
  void create();
  void destroy();
  // With the grid line program bound; returns the segments drawn.
  int draw(const std::vector<GridVertex>& vertices);

 private:
  GLuint vao_ = 0, vertexBuffer_ = 0;
};

class LineBuffers {
 public:
  void create();
  void destroy();
  // One upload per frame: the opaque segments first, then the translucent ones.
  void upload(const std::vector<LineSegment>& opaque, const std::vector<LineSegment>& translucent);
  int draw(int first, int count) const;  // with the line program bound; returns triangles

 private:
  GLuint vao_ = 0, cornerBuffer_ = 0, segmentBuffer_ = 0;
  std::vector<LineSegment> scratch_;
};

}  // namespace varsim::render
