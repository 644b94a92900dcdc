// import/mesh_bounds.cpp — vertex bounds of STL and OBJ files (see mesh_bounds.h). Binary STL is
// recognised by its size (84 + 50 per triangle bytes), everything else as text ("vertex x y z" in ASCII
// STL, "v x y z" in OBJ).
#include "import/mesh_bounds.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "engine/sim/file_read.h"

namespace varsim::urdf_import {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

struct Box {
  Eigen::Vector3d lo = Eigen::Vector3d::Constant(1e300), hi = Eigen::Vector3d::Constant(-1e300);
  bool any = false, finite = true;
  void add(const Eigen::Vector3d& p) {
    finite = finite && p.allFinite();
    lo = lo.cwiseMin(p), hi = hi.cwiseMax(p), any = true;
  }
};

bool binaryStl(const std::string& bytes, Box& box) {
  if (bytes.size() < 84) return false;
  std::uint32_t n;
  std::memcpy(&n, bytes.data() + 80, 4);
  if (bytes.size() != 84 + 50 * std::uint64_t(n)) return false;
  for (std::uint32_t t = 0; t < n; ++t)
    for (int v = 0; v < 3; ++v) {
      float xyz[3];
      std::memcpy(xyz, bytes.data() + 84 + 50 * std::size_t(t) + 12 * (v + 1), 12);
      box.add({xyz[0], xyz[1], xyz[2]});
    }
  return true;
}

void textVertices(const std::string& bytes, const std::string& keyword, Box& box) {
  std::istringstream in(bytes);
  std::string line, word;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    if (!(ls >> word) || word != keyword) continue;
    Eigen::Vector3d p;
    if (ls >> p.x() >> p.y() >> p.z()) box.add(p);
  }
}

}  // namespace

std::optional<Bounds> meshBounds(const std::string& path, std::string& why) {
  const std::string ext = lower(path.size() >= 4 ? path.substr(path.size() - 4) : path);
  if (ext != ".stl" && ext != ".obj") {
    why = "only STL and OBJ meshes are sized";
    return std::nullopt;
  }
  // A mesh that is not a regular file, too large or unreadable refuses the URDF (the message names it): a
  // FIFO or device named as a mesh is an attack on the reader, not a drawing detail to note and skip.
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    why = "no mesh file " + path;
    return std::nullopt;
  }
  const std::string bytes = readUserFile(path, "mesh file", kMaxMeshFileBytes);
  Box box;
  if (ext == ".obj")
    textVertices(bytes, "v", box);
  else if (!binaryStl(bytes, box))
    textVertices(bytes, "vertex", box);
  if (!box.any || !box.finite) {
    why = box.any ? "non-finite vertex coordinates in " + path : "no vertices found in " + path;
    return std::nullopt;
  }
  return Bounds{box.lo, box.hi};
}

}  // namespace varsim::urdf_import
