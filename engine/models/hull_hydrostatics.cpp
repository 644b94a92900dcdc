// engine/models/hull_hydrostatics.cpp — box hull patches, the double instance of the hydrostatics routine
// (hull_hydrostatics_generic.h: clipping against the piecewise-linear surface, exact quadrature) and the analytic
// first derivative of the submerged volume and its moment in the pose.
#include "engine/models/hull_hydrostatics.h"

#include "engine/models/hull_hydrostatics_generic.h"

#include <algorithm>
#include <cmath>

namespace varsim {

std::vector<HullPatch> BoxHull::patches(double patchSize) const {
  std::vector<HullPatch> out;
  for (int a = 0; a < 3; ++a) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;  // e_b x e_c = e_a
    for (int s : {1, -1}) {
      Vector3d normal = Vector3d::Zero();
      normal[a] = s;
      Vector3d U = Vector3d::Zero(), V = Vector3d::Zero();
      U[s > 0 ? b : c] = size[s > 0 ? b : c];  // keeps U x V along the outward normal
      V[s > 0 ? c : b] = size[s > 0 ? c : b];
      const Vector3d faceCorner = center + 0.5 * s * size[a] * normal.cwiseAbs() - 0.5 * (U + V);
      // At most 200 pieces per edge: finer patches add cost and no accuracy to the (exact) volume.
      const int nu = std::clamp(int(std::ceil(U.norm() / patchSize)), 1, 200);
      const int nv = std::clamp(int(std::ceil(V.norm() / patchSize)), 1, 200);
      for (int q = 0; q < nv; ++q)
        for (int p = 0; p < nu; ++p) {
          HullPatch patch;
          patch.edgeU = U / nu;
          patch.edgeV = V / nv;
          patch.corner = faceCorner + p * patch.edgeU + q * patch.edgeV;
          patch.normal = normal;
          patch.center = patch.corner + 0.5 * (patch.edgeU + patch.edgeV);
          patch.area = patch.edgeU.cross(patch.edgeV).norm();
          out.push_back(patch);
        }
    }
  }
  return out;
}

void computeHydrostatics(const std::vector<HullPatch>& patches, const se3::Pose& pose, const WaterSurface& water,
                         double t, HydrostaticState& out) {
  computeHydrostaticsT<double>(patches, pose.R, pose.x, water, t, out);
}

HydrostaticDerivative hydrostaticDerivative(const std::vector<HullPatch>& patches, const se3::Pose& pose,
                                            const HydrostaticState& state) {
  HydrostaticDerivative d;
  // The water moving past the fixed body: - int_sub (u + theta x r) dV = -V u + m x theta.
  const Vector3d m = pose.R.transpose() * (state.centroid - pose.x) * state.volume;
  d.moment.leftCols<3>() << 0.0, -m.z(), m.y(), m.z(), 0.0, -m.x(), -m.y(), m.x(), 0.0;
  d.moment.rightCols<3>() = -state.volume * Matrix3d::Identity();
  for (size_t i = 0; i < patches.size() && i < state.patches.size(); ++i) {
    const PatchExposure& e = state.patches[i];
    if (!(e.wetArea > 0.0)) continue;
    const Vector3d& n = patches[i].normal;
    const Vector3d firstMoment = e.wetArea * e.wetCentroid;  // int_wet r dA
    d.volume.head<3>() += firstMoment.cross(n).transpose();  // (theta x r) . n = theta . (r x n)
    d.volume.tail<3>() += e.wetArea * n.transpose();
    Matrix3d nHat;
    nHat << 0.0, -n.z(), n.y(), n.z(), 0.0, -n.x(), -n.y(), n.x(), 0.0;
    d.moment.leftCols<3>() += e.wetSecondMoment * nHat;  // int r (r x n)^T dA = S n^
    d.moment.rightCols<3>() += firstMoment * n.transpose();
  }
  return d;
}

}  // namespace varsim
