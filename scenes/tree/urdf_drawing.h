// scenes/tree/urdf_drawing.h — plain-data drawing and the panel of the `urdf` scene: the imported visuals at
// their frames' poses (render/draw_list.h shapes), a camera framing the robot, and the joint table with
// the import's notes. The tree must be at the state to draw (setState) before these are called.
#pragma once

#include <string>

#include "import/urdf_import.h"
#include "render/draw_list.h"
#include "scenes/scene_panel.h"

namespace varsim {

void drawUrdfModel(const urdf_import::Model& m, DrawList& out);
// The workspace of a fixed-base robot at the tree's current state: centred on the first movable joint, the
// radius (m, at least 0.1) holds every visual of the links it moves.
struct UrdfWorkspace {
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  double radius = 0.1;
};
UrdfWorkspace urdfWorkspace(const urdf_import::Model& m);
void frameUrdfModel(const UrdfWorkspace& w, CameraHint& camera);
ScenePanel urdfPanel(const urdf_import::Model& m, const std::string& path, const Eigen::VectorXd& q,
                     const Eigen::VectorXd& qdot, const Eigen::VectorXd& damping);

}  // namespace varsim
