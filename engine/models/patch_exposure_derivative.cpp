// engine/models/patch_exposure_derivative.cpp — the waterline integrals of patch_exposure_derivative.h: per patch,
// the segment where the still-water plane crosses the rectangle and the transport of area and first moment along it.
#include "engine/models/patch_exposure_derivative.h"

#include <cmath>

namespace varsim {

std::vector<PatchExposureDerivative> patchExposureDerivatives(const std::vector<HullPatch>& patches,
                                                              const se3::Pose& pose, const HydrostaticState& state) {
  std::vector<PatchExposureDerivative> out(patches.size());
  const Vector3d z = pose.R.row(2).transpose();  // world up in the body frame
  // ds(r)/d eps as a row: ((r x z)^T, z^T).
  const auto rate = [&](const Vector3d& r) {
    Eigen::Matrix<double, 1, 6> w;
    w << r.cross(z).transpose(), z.transpose();
    return w;
  };
  for (size_t i = 0; i < patches.size() && i < state.patches.size(); ++i) {
    const HullPatch& p = patches[i];
    const PatchExposure& e = state.patches[i];
    if (!(e.wetArea > 0.0) || !(e.dryArea > 0.0)) continue;  // wholly wet or dry
    const double slope = std::sqrt(std::max(0.0, 1.0 - std::pow(z.dot(p.normal), 2)));
    if (slope < 1e-9) continue;  // the patch lies in the water plane
    const Vector3d c[4] = {p.corner, p.corner + p.edgeU, p.corner + p.edgeU + p.edgeV, p.corner + p.edgeV};
    double s[4];
    for (int k = 0; k < 4; ++k) s[k] = z.dot(c[k]) + pose.x.z();
    Vector3d ends[2];
    int found = 0;
    for (int k = 0; k < 4 && found < 3; ++k) {
      const int l = (k + 1) % 4;
      if ((s[k] <= 0.0) == (s[l] <= 0.0)) continue;
      if (found < 2) ends[found] = c[k] + (s[k] / (s[k] - s[l])) * (c[l] - c[k]);
      ++found;
    }
    if (found != 2) continue;
    const Vector3d &a = ends[0], &b = ends[1], m = 0.5 * (a + b);
    const double scale = -(b - a).norm() / slope;
    const Eigen::Matrix<double, 1, 6> wa = rate(a), wb = rate(b), wm = rate(m);
    out[i].area = scale * 0.5 * (wa + wb);
    out[i].first = scale / 6.0 * (a * wa + 4.0 * m * wm + b * wb);
  }
  return out;
}

}  // namespace varsim
