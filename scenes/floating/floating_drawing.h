// scenes/floating/floating_drawing.h — plain-data drawing of a floating multibody chain (engine/floating): every body
// as a box at g g_{0i}(r), the hinge axes as short rods, shared by the floating_chain and space_robot scenes.
#pragma once

#include <vector>

#include "engine/floating/floating_chain.h"
#include "render/draw_list.h"

namespace varsim {

struct FloatingLook {
  std::vector<Vector3d> sizes;  // box extents per body (0 = base)
  std::vector<Rgba> colors;     // per body
  double hingeRadius = 0.02;    // m
};

// Draws the chain at base pose g and joint angles r; hinge i is drawn at its point along its axis.
void drawFloatingChain(DrawList& out, const floating::FloatingChain& chain, const se3::Pose& g,
                       const Eigen::VectorXd& r, const FloatingLook& look);

}  // namespace varsim
