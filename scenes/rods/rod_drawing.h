// Plain-data drawing of rod systems (render/draw_list.h only): rods as capsules coloured by their end
// speed, bodies without length as spheres, joints and pins as spheres; translucent for ghosts.
#pragma once
#include <Eigen/Core>

#include "engine/integrators/spook.h"
#include "engine/models/rod_system.h"
#include "render/draw_list.h"

namespace varsim {

Rgba speedColor(double speed, double fullScale);  // blue (0) → red (≥ fullScale), log scale
void drawRods(const RodSystem& system, const MechanicalState& state, DrawList& out, bool ghost, double speedScale,
              float radius);
void drawJointSpheres(const RodSystem& system, const MechanicalState& state, DrawList& out, float radius, bool ghost);
Mat4 translation(const Eigen::Vector3d& p);

}  // namespace varsim
