// engine/models/patch_exposure_derivative.h — first-order change of each hull patch's wet area and wet first moment
// (hull_hydrostatics.h PatchExposure) when the pose moves by a body twist, in STILL water. The boat's drag and wind
// act on the exposures frozen at a node (boat.h patchWrenches); the boat plan's Jacobian differentiates through them
// (engine/control/boat_dmoc.h) with these exact partials instead of differences of the clipping.
#pragma once

#include <vector>

#include "engine/models/hull_hydrostatics.h"

namespace varsim {

// d/d eps for g -> g exp(eps^), eps = (theta, u) (angular first), of A = wetArea and F = wetArea * wetCentroid (body).
// Seen from the body the patch is fixed and the water plane s(r) = z . r + x_z = 0 (z = R^T e_z) moves: the wet part
// {s <= 0} loses the strip the waterline sweeps, so (Reynolds' transport theorem on the patch plane)
//   d int_wet phi dA = - int_waterline phi(r) ds(r) / |grad s| dl,   ds(r) = (r x z) . theta + z . u,
// with |grad s| = sqrt(1 - (z . n)^2) the slope of s within the patch. phi = 1 and phi = r are integrated exactly on
// the straight waterline segment (linear and quadratic integrands: endpoint mean, Simpson). Kinks: a patch wholly
// wet or dry, or lying in the water plane (|grad s| < 1e-9), has zero derivative (the one-sided value of the side
// it is on); the waterline through a corner takes the side the clip predicate s <= 0 puts the corner on.
struct PatchExposureDerivative {
  Eigen::Matrix<double, 1, 6> area = Eigen::Matrix<double, 1, 6>::Zero();   // dA/deps, m^2 per (rad, m)
  Eigen::Matrix<double, 3, 6> first = Eigen::Matrix<double, 3, 6>::Zero();  // dF/deps, m^3 per (rad, m)
};

// One entry per patch. `state` must come from computeHydrostatics at `pose` in still water.
std::vector<PatchExposureDerivative> patchExposureDerivatives(const std::vector<HullPatch>& patches,
                                                              const se3::Pose& pose, const HydrostaticState& state);

}  // namespace varsim
