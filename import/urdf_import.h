// import/urdf_import.h — loads a URDF robot (Debian's urdfdom parser) into a seed 003 tree
// (engine/tree/tree.h): joints become primitive frames, <inertial> blocks masses, <visual> geometry a
// plain list of shapes on frames. This layer links urdfdom; engine/ and render/ never see it.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "engine/tree/tree.h"

namespace varsim::urdf_import {

// One dynamic joint (revolute, continuous or prismatic), in tree dof order.
struct JointInfo {
  std::string name;
  bool prismatic = false;
  bool limited = false;         // revolute/prismatic <limit lower upper> (continuous: false)
  double lower = 0, upper = 0;  // rad or m
  double damping = 0;           // <dynamics damping>, N m s/rad or N s/m
};

// A visual shape at frame `frame` (its pose g(frame) in the world); sizes in m, like render/draw_list.h
// but without depending on render/.
struct Visual {
  enum class Kind { Box, Cylinder, Sphere };
  Kind kind = Kind::Box;
  int frame = 0;
  Eigen::Matrix4d origin = Eigen::Matrix4d::Identity();  // shape centre and axes in the frame (<visual><origin>)
  std::array<double, 3> size{0, 0, 0};  // Box: full extents; Cylinder: (r, r, length) along z; Sphere: (r, r, r)
  std::array<float, 4> rgba{0.7f, 0.7f, 0.75f, 1.0f};
  std::string link;
  bool fromMesh = false;  // a mesh drawn as its (scaled) bounding box, centred on the box's centre
};

struct Model {
  std::string robot;              // <robot name>
  tree::Tree tree;                // all variables dynamic; gravity (0, 0, -9.81)
  std::vector<JointInfo> joints;  // index = dof index
  std::vector<Visual> visuals;
  std::vector<std::string> links;  // link names, in frame order of linkFrame
  std::vector<int> linkFrame;      // the frame at each link's origin
  // What the import did not model, one line each (collision geometry, friction, effort and velocity
  // limits, meshes it could not size, top-level elements other than link/joint/material): never silent.
  std::vector<std::string> notes;
};

// Parses `xml` (named `source` in messages) or the file at `path`. Throws BadInput naming the source, the
// element and the reason on malformed XML, any error urdfdom reports (its own message), more than 500
// joints, negative or non-finite visual sizes, unsupported elements
// (floating or planar joints, <mimic>, a link with two parent joints or a loop, several root links), a
// degenerate axis or inertia, and a joint that moves no mass (M(q) singular). Mesh files are looked up
// relative to the URDF file's directory (package:// URIs are not resolved; they become notes).
Model parseUrdf(const std::string& xml, const std::string& source, const std::string& baseDir = "");
Model loadUrdfFile(const std::string& path);

}  // namespace varsim::urdf_import
