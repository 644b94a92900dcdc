// GL buffer management for primitives, meshes and lines (see gl_geometry.h). Instance attributes
// are re-pointed per draw because GL 3.3 has no base-instance draw call.
#include "render/gl_geometry.h"

#include <cmath>
#include <cstddef>
#include <iterator>

namespace varsim::render {
namespace {

// Attribute locations shared with assets/shaders/shape.vert.glsl.
constexpr GLuint kPosition = 0, kNormal = 1, kCap = 2, kModel = 3, kScaleHalf = 7, kColor = 8;

void vertexLayout() {
  const GLsizei stride = sizeof(MeshVertex);
  glEnableVertexAttribArray(kPosition);
  glVertexAttribPointer(kPosition, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(MeshVertex, position)));
  glEnableVertexAttribArray(kNormal);
  glVertexAttribPointer(kNormal, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(MeshVertex, normal)));
  glEnableVertexAttribArray(kCap);
  glVertexAttribPointer(kCap, 1, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(MeshVertex, cap)));
}

// Points the per-instance attributes at instance `first` of the bound instance buffer.
void instanceLayout(int first) {
  const GLsizei stride = sizeof(ShapeInstance);
  const std::size_t base = std::size_t(first) * sizeof(ShapeInstance);
  auto at = [base](std::size_t offset) { return reinterpret_cast<void*>(base + offset); };
  for (GLuint c = 0; c < 4; ++c)
    glVertexAttribPointer(kModel + c, 4, GL_FLOAT, GL_FALSE, stride, at(offsetof(ShapeInstance, model) + c * 16));
  glVertexAttribPointer(kScaleHalf, 4, GL_FLOAT, GL_FALSE, stride, at(offsetof(ShapeInstance, scale)));
  glVertexAttribPointer(kColor, 4, GL_FLOAT, GL_FALSE, stride, at(offsetof(ShapeInstance, color)));
}

}  // namespace

void PrimitiveBuffers::create() {
  std::vector<MeshVertex> vertices;
  std::vector<std::uint32_t> indices;
  for (int p = 0; p < kPrimitiveCount; ++p)
    for (int lod = 0; lod < kLodCount; ++lod) {
      const MeshData mesh = makePrimitive(Primitive(p), lod);
      ranges_[p][lod] = {GLint(vertices.size()), GLsizei(indices.size()), GLsizei(mesh.indices.size())};
      vertices.insert(vertices.end(), mesh.vertices.begin(), mesh.vertices.end());
      indices.insert(indices.end(), mesh.indices.begin(), mesh.indices.end());
    }
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vertexBuffer_);
  glGenBuffers(1, &indexBuffer_);
  glGenBuffers(1, &instanceBuffer_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vertexBuffer_);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices.size() * sizeof(MeshVertex)), vertices.data(), GL_STATIC_DRAW);
  vertexLayout();
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indexBuffer_);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(indices.size() * sizeof(std::uint32_t)), indices.data(),
               GL_STATIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, instanceBuffer_);
  for (GLuint a = kModel; a <= kColor; ++a) {
    glEnableVertexAttribArray(a);
    glVertexAttribDivisor(a, 1);
  }
  instanceLayout(0);
  glBindVertexArray(0);
}

void PrimitiveBuffers::destroy() {
  if (vao_ != 0) glDeleteVertexArrays(1, &vao_);
  const GLuint buffers[3] = {vertexBuffer_, indexBuffer_, instanceBuffer_};
  if (vertexBuffer_ != 0) glDeleteBuffers(3, buffers);
  vao_ = vertexBuffer_ = indexBuffer_ = instanceBuffer_ = 0;
}

void PrimitiveBuffers::uploadInstances(const std::vector<ShapeInstance>& instances) {
  glBindBuffer(GL_ARRAY_BUFFER, instanceBuffer_);
  // Orphan-and-fill: the driver hands out fresh storage, so last frame's draws never stall us.
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(instances.size() * sizeof(ShapeInstance)),
               instances.empty() ? nullptr : instances.data(), GL_STREAM_DRAW);
}

int PrimitiveBuffers::draw(int primitive, int lod, int first, int count) const {
  if (count <= 0) return 0;
  const Range& range = ranges_[primitive][lod];
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, instanceBuffer_);
  instanceLayout(first);
  glDrawElementsInstancedBaseVertex(GL_TRIANGLES, range.indexCount, GL_UNSIGNED_INT,
                                    reinterpret_cast<void*>(std::size_t(range.firstIndex) * sizeof(std::uint32_t)),
                                    count, range.baseVertex);
  return range.indexCount / 3 * count;
}

void DynamicMeshBuffers::create() {
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vertexBuffer_);
  glGenBuffers(1, &indexBuffer_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vertexBuffer_);
  vertexLayout();
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indexBuffer_);
  glBindVertexArray(0);
}

void DynamicMeshBuffers::destroy() {
  if (vao_ != 0) glDeleteVertexArrays(1, &vao_);
  const GLuint buffers[2] = {vertexBuffer_, indexBuffer_};
  if (vertexBuffer_ != 0) glDeleteBuffers(2, buffers);
  vao_ = vertexBuffer_ = indexBuffer_ = 0;
}

int DynamicMeshBuffers::draw(const TriangleMesh& mesh) {
  const std::size_t n = mesh.positions.size();
  if (n == 0 || mesh.indices.size() < 3) return 0;
  for (unsigned index : mesh.indices)
    if (index >= n) return 0;
  scratch_.assign(n, MeshVertex{glm::vec3(0), glm::vec3(0), 0.0f});
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3f& p = mesh.positions[i];
    if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) return 0;
    scratch_[i].position = glm::vec3(p[0], p[1], p[2]);
  }
  const std::size_t triangleIndices = mesh.indices.size() / 3 * 3;
  if (mesh.normals.size() == n) {
    for (std::size_t i = 0; i < n; ++i) scratch_[i].normal = glm::vec3(mesh.normals[i][0], mesh.normals[i][1], mesh.normals[i][2]);
  } else {
    // Area-weighted vertex normals: the unnormalized cross product is twice the triangle area.
    for (std::size_t t = 0; t < triangleIndices; t += 3) {
      MeshVertex& a = scratch_[mesh.indices[t]];
      MeshVertex& b = scratch_[mesh.indices[t + 1]];
      MeshVertex& c = scratch_[mesh.indices[t + 2]];
      const glm::vec3 faceNormal = glm::cross(b.position - a.position, c.position - a.position);
      a.normal += faceNormal;
      b.normal += faceNormal;
      c.normal += faceNormal;
    }
  }
  for (MeshVertex& v : scratch_) {
    const float length = glm::length(v.normal);
    v.normal = std::isfinite(length) && length > 0.0f ? v.normal / length : glm::vec3(0, 0, 1);
  }
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vertexBuffer_);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(n * sizeof(MeshVertex)), scratch_.data(), GL_STREAM_DRAW);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(triangleIndices * sizeof(unsigned)), mesh.indices.data(),
               GL_STREAM_DRAW);
  // Instance attributes are not enabled on this VAO, so the shader reads these constant values.
  glVertexAttrib4f(kModel + 0, 1, 0, 0, 0);
  glVertexAttrib4f(kModel + 1, 0, 1, 0, 0);
  glVertexAttrib4f(kModel + 2, 0, 0, 1, 0);
  glVertexAttrib4f(kModel + 3, 0, 0, 0, 1);
  glVertexAttrib4f(kScaleHalf, 1, 1, 1, 0);
  auto unit = [](float v) { return std::isfinite(v) ? std::fmin(std::fmax(v, 0.0f), 1.0f) : 0.0f; };
  glVertexAttrib4f(kColor, unit(mesh.color.r), unit(mesh.color.g), unit(mesh.color.b), unit(mesh.color.a));
  glDrawElements(GL_TRIANGLES, GLsizei(triangleIndices), GL_UNSIGNED_INT, nullptr);
  return int(triangleIndices / 3);
}

void BackdropBuffers::upload(Mesh& mesh, const std::vector<float>& vertices, int components,
                             const std::vector<std::uint32_t>& indices) {
  glGenVertexArrays(1, &mesh.vao);
  glGenBuffers(1, &mesh.vertexBuffer);
  glGenBuffers(1, &mesh.indexBuffer);
  glBindVertexArray(mesh.vao);
  glBindBuffer(GL_ARRAY_BUFFER, mesh.vertexBuffer);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices.size() * sizeof(float)), vertices.data(), GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, components, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh.indexBuffer);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(indices.size() * sizeof(std::uint32_t)), indices.data(),
               GL_STATIC_DRAW);
  glBindVertexArray(0);
  mesh.indexCount = GLsizei(indices.size());
}

void BackdropBuffers::release(Mesh& mesh) {
  if (mesh.vao != 0) glDeleteVertexArrays(1, &mesh.vao);
  const GLuint buffers[2] = {mesh.vertexBuffer, mesh.indexBuffer};
  if (mesh.vertexBuffer != 0) glDeleteBuffers(2, buffers);
  mesh = Mesh{};
}

// Quads between consecutive rows of a (rows x columns) vertex lattice, columns wrapping or not.
static void latticeIndices(int rows, int columns, bool wrap, std::vector<std::uint32_t>& indices) {
  const int cells = wrap ? columns : columns - 1;
  for (int r = 0; r + 1 < rows; ++r)
    for (int c = 0; c < cells; ++c) {
      const auto at = [columns](int row, int col) { return std::uint32_t(row * columns + col % columns); };
      indices.insert(indices.end(), {at(r, c), at(r, c + 1), at(r + 1, c + 1), at(r, c), at(r + 1, c + 1), at(r + 1, c)});
    }
}

void BackdropBuffers::create() {
  // Sky: elevation rings in degrees, dense around the horizon (haze band 0..-2.3 deg).
  const float ringsDegrees[] = {-90, -30, -10, -4, -2.3f, -1.5f, -0.75f, 0, 0.75f, 1.5f, 3, 5, 8, 12,
                                17, 23, 30, 40, 52, 66, 80, 90};
  const int columns = 48;
  std::vector<float> directions;
  for (float degrees : ringsDegrees) {
    const float e = degrees * 3.14159265f / 180.0f;
    for (int c = 0; c < columns; ++c) {
      const float a = 6.28318531f * float(c) / float(columns);
      directions.insert(directions.end(), {std::cos(e) * std::cos(a), std::cos(e) * std::sin(a), std::sin(e)});
    }
  }
  std::vector<std::uint32_t> indices;
  latticeIndices(int(std::size(ringsDegrees)), columns, true, indices);
  upload(sky_, directions, 3, indices);

  // Ground: (n+1)^2 lattice over [-1, 1]^2.
  const int n = 32;
  std::vector<float> unit;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) unit.insert(unit.end(), {2.0f * float(i) / n - 1.0f, 2.0f * float(j) / n - 1.0f});
  indices.clear();
  latticeIndices(n + 1, n + 1, false, indices);
  upload(ground_, unit, 2, indices);
}

void BackdropBuffers::destroy() {
  release(sky_);
  release(ground_);
}

int BackdropBuffers::drawSky() const {
  glBindVertexArray(sky_.vao);
  glDrawElements(GL_TRIANGLES, sky_.indexCount, GL_UNSIGNED_INT, nullptr);
  return sky_.indexCount / 3;
}

int BackdropBuffers::drawGround() const {
  glBindVertexArray(ground_.vao);
  glDrawElements(GL_TRIANGLES, ground_.indexCount, GL_UNSIGNED_INT, nullptr);
  return ground_.indexCount / 3;
}

void GridLineBuffers::create() {
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vertexBuffer_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vertexBuffer_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(GridVertex), reinterpret_cast<void*>(offsetof(GridVertex, position)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(GridVertex), reinterpret_cast<void*>(offsetof(GridVertex, color)));
  glBindVertexArray(0);
}

void GridLineBuffers::destroy() {
  if (vao_ != 0) glDeleteVertexArrays(1, &vao_);
  if (vertexBuffer_ != 0) glDeleteBuffers(1, &vertexBuffer_);
  vao_ = vertexBuffer_ = 0;
}

int GridLineBuffers::draw(const std::vector<GridVertex>& vertices) {
  if (vertices.size() < 2) return 0;
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vertexBuffer_);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices.size() * sizeof(GridVertex)), vertices.data(), GL_STREAM_DRAW);
  glDrawArrays(GL_LINES, 0, GLsizei(vertices.size() / 2 * 2));
  return int(vertices.size() / 2);
}

void LineBuffers::create() {
  // Quad corners: x selects the end point, y the side (see line.vert.glsl).
  const float corners[12] = {0, -1, 1, -1, 1, 1, 0, -1, 1, 1, 0, 1};
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &cornerBuffer_);
  glGenBuffers(1, &segmentBuffer_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, cornerBuffer_);
  glBufferData(GL_ARRAY_BUFFER, sizeof(corners), corners, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  for (GLuint a = 1; a <= 4; ++a) {
    glEnableVertexAttribArray(a);
    glVertexAttribDivisor(a, 1);
  }
  glBindVertexArray(0);
}

void LineBuffers::destroy() {
  if (vao_ != 0) glDeleteVertexArrays(1, &vao_);
  const GLuint buffers[2] = {cornerBuffer_, segmentBuffer_};
  if (cornerBuffer_ != 0) glDeleteBuffers(2, buffers);
  vao_ = cornerBuffer_ = segmentBuffer_ = 0;
}

void LineBuffers::upload(const std::vector<LineSegment>& opaque, const std::vector<LineSegment>& translucent) {
  scratch_.assign(opaque.begin(), opaque.end());
  scratch_.insert(scratch_.end(), translucent.begin(), translucent.end());
  glBindBuffer(GL_ARRAY_BUFFER, segmentBuffer_);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(scratch_.size() * sizeof(LineSegment)),
               scratch_.empty() ? nullptr : scratch_.data(), GL_STREAM_DRAW);
}

int LineBuffers::draw(int first, int count) const {
  if (count <= 0) return 0;
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, segmentBuffer_);
  const GLsizei stride = sizeof(LineSegment);
  const std::size_t base = std::size_t(first) * sizeof(LineSegment);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(base + offsetof(LineSegment, p0)));
  glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(base + offsetof(LineSegment, p1)));
  glVertexAttribPointer(3, 4, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(base + offsetof(LineSegment, color)));
  glVertexAttribPointer(4, 1, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(base + offsetof(LineSegment, width)));
  glDrawArraysInstanced(GL_TRIANGLES, 0, 6, count);
  return 2 * count;
}

}  // namespace varsim::render
