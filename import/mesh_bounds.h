// import/mesh_bounds.h — the axis-aligned bounding box of a mesh file, so a URDF <mesh> visual can be
// drawn as its box without a mesh loader: STL (binary or ASCII) and Wavefront OBJ vertex lists.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>

namespace varsim::urdf_import {

struct Bounds {
  Eigen::Vector3d lo, hi;  // in the mesh's own units (the URDF <mesh scale> applies on top)
};

// The bounds of the vertices in the file, or std::nullopt with `why` set (missing, not STL/OBJ, no
// vertices, non-finite coordinates). Throws BadInput naming the path when it exists but is not a regular
// file, exceeds kMaxMeshFileBytes or cannot be read (engine/sim/file_read.h).
std::optional<Bounds> meshBounds(const std::string& path, std::string& why);

}  // namespace varsim::urdf_import
