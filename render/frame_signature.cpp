// Frame signatures; see header.
#include "render/frame_signature.h"

#include <cstring>

namespace varsim::render {

namespace {

// One 64-bit word into the running hash (a multiply-xorshift mix, as in splitmix64).
std::uint64_t mix(std::uint64_t h, std::uint64_t word) {
  h ^= word + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 31);
}

void addRgba(FrameSignature& s, const Rgba& c) {
  const float v[4] = {c.r, c.g, c.b, c.a};
  s.add(v, sizeof v);
}

}  // namespace

void FrameSignature::add(const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    h_ = mix(h_, w);
  }
  std::uint64_t tail = 0;
  if (bytes > i) std::memcpy(&tail, p + i, bytes - i);
  h_ = mix(h_, tail ^ (std::uint64_t(bytes) << 56));  // the length closes every field
}

void addDrawList(FrameSignature& s, const DrawList& list) {
  s.addValue(list.shapes.size());
  for (const ShapeItem& item : list.shapes) {  // field by field: the struct has padding bytes
    s.addValue(int(item.kind));
    s.add(item.transform.data(), sizeof item.transform);
    s.add(item.size.data(), sizeof item.size);
    addRgba(s, item.color);
    s.addValue(int(item.ghost));
  }
  s.addValue(list.lines.size());
  for (const LineStrip& strip : list.lines) {
    s.add(strip.points.data(), strip.points.size() * sizeof(Vec3f));
    addRgba(s, strip.color);
    s.addValue(strip.width);
    s.addValue(int(strip.loop));
  }
  s.addValue(list.meshes.size());
  for (const TriangleMesh& mesh : list.meshes) {
    s.add(mesh.positions.data(), mesh.positions.size() * sizeof(Vec3f));
    s.add(mesh.normals.data(), mesh.normals.size() * sizeof(Vec3f));
    s.add(mesh.indices.data(), mesh.indices.size() * sizeof(unsigned));
    addRgba(s, mesh.color);
  }
  s.addValue(int(list.camera.showGround));
  s.addValue(list.camera.groundHeight);
}

}  // namespace varsim::render
