// engine/control/se2_step_jacobian.h — first derivatives of the explicit updates' pose line g_{k+1} = g_k exp(v)
// (se2::exp, v = h xi_k) in the global chart (theta, x, y) that the DMOC transcriptions use for SE(2) poses.
// Shared by the car and snakeboard transcriptions (engine/control/*_dmoc.h), so the exp series lives once.
#pragma once

#include "engine/lie/se2.h"

namespace varsim {

// dG = d(g exp(v))/d(theta, x, y) and dV = d(g exp(v))/dv, both 3x3 with rows (theta, x, y) of the product.
// Near omega = 0 the coefficients S = sin w / w, C = (1 - cos w)/w and their derivatives use their series.
void se2StepJacobian(const se2::Pose2& g, const Vector3d& v, Matrix3d& dG, Matrix3d& dV);

}  // namespace varsim
