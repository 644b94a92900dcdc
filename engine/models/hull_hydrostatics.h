// engine/models/hull_hydrostatics.h — exact submerged volume, volume centroid and wetted surface patches
// of a box hull under the piecewise-linear water surface of water_surface.h (seed 000 eq. (15): Pi_s, x_s,
// r_i, dA_i). Every hull patch is clipped against the columns of the surface's grid triangles and the
// triangle's water plane, so the result is exact for the drawn surface (up to round-off).
#pragma once

#include <vector>

#include "engine/lie/se3.h"
#include "engine/models/generic_scalar.h"
#include "engine/models/water_surface.h"

namespace varsim {

// A planar rectangle of the hull surface in the body frame: points corner + a edgeU + b edgeV, (a, b) in
// [0,1]^2, with edgeU x edgeV along the outward normal.
struct HullPatch {
  Vector3d corner = Vector3d::Zero();   // m
  Vector3d edgeU = Vector3d::UnitX();   // m
  Vector3d edgeV = Vector3d::UnitY();   // m
  Vector3d normal = Vector3d::UnitZ();  // outward unit normal
  Vector3d center = Vector3d::Zero();   // m, corner + (edgeU + edgeV)/2
  double area = 1.0;                    // m^2
};

struct BoxHull {
  Vector3d size{4.0, 1.8, 0.8};        // m, full extents: length (body x), width (y), height (z); > 0
  Vector3d center = Vector3d::Zero();  // m, box centre in the body frame
  double volume() const { return size.prod(); }
  // The six faces, each split into ceil(edge / patchSize) pieces along each edge (patchSize > 0, m).
  std::vector<HullPatch> patches(double patchSize) const;
};

// The wet and dry parts of one hull patch (body frame). The dry part carries the wind load. S = double in the
// simulator; jets in the planner (generic_scalar.h). The second moment is for the analytic first derivatives
// (hydrostaticDerivative), computed in double only.
template <class S>
struct PatchExposureT {
  S wetArea = S(0.0);                           // m^2
  Vec3<S> wetCentroid = Vec3<S>::Zero();        // m, body; undefined if wetArea == 0
  S dryArea = S(0.0);                           // m^2
  Vec3<S> dryCentroid = Vec3<S>::Zero();        // m, body; undefined if dryArea == 0
  Matrix3d wetSecondMoment = Matrix3d::Zero();  // int_wet r r^T dA, m^4, body frame about the body origin
};
using PatchExposure = PatchExposureT<double>;

template <class S>
struct HydrostaticStateT {
  S volume = S(0.0);                       // submerged volume Pi_s, m^3
  Vec3<S> centroid = Vec3<S>::Zero();      // world centroid x_s of the submerged volume (pose origin if dry)
  S wettedArea = S(0.0);                   // A = sum_i dA_i, m^2
  std::vector<PatchExposureT<S>> patches;  // one per hull patch, same order
};
using HydrostaticState = HydrostaticStateT<double>;

// Volume and centroid come from the divergence theorem with the field F = (0, 0, z - eta(x, y)) (and its
// first moments), which vanishes on the waterline cap: V = int_{wet hull} (z - eta) n_z dA. Only the wetted
// hull surface is needed, and on each clipped piece the integrand is a polynomial of degree <= 2 that an
// edge-midpoint rule integrates exactly. Requires a closed hull (all six faces).
// The body is hull_hydrostatics_generic.h (computeHydrostaticsT, one routine for every scalar type).
void computeHydrostatics(const std::vector<HullPatch>& patches, const se3::Pose& pose, const WaterSurface& water,
                         double t, HydrostaticState& out);

// First-order change of the submerged volume V and of its body-frame first moment m = int_sub r dV
// (r = R^T (p - x), so m = R^T (x_s - x) V) when the pose moves by a body twist, g -> g exp(eps^) with
// eps = (theta, u) (angular first), the water frozen at its time. Seen from the body, the hull is fixed
// and the water moves by -(u + theta x r); Reynolds' transport theorem over the waterline cap, turned into
// integrals over the wetted patches by the divergence theorem (int_dOmega r (w.n) = int_Omega w for a rigid
// field w), gives with patch normal n, wet area A, wet centroid c and S = int_wet r r^T dA:
//   dV = sum A n . u + sum (A c x n) . theta,      dm = sum (A c n^T u + S n^ theta) - V u + m^ theta.
// Exact for the piecewise-linear surface wherever V is differentiable (the integrands are linear/quadratic
// in r and the wet pieces are integrated exactly). `state` must come from computeHydrostatics at `pose`.
struct HydrostaticDerivative {
  Eigen::Matrix<double, 1, 6> volume = Eigen::Matrix<double, 1, 6>::Zero();  // dV/deps, m^3 per (rad, m)
  Eigen::Matrix<double, 3, 6> moment = Eigen::Matrix<double, 3, 6>::Zero();  // dm/deps, m^4 per (rad, m)
};
HydrostaticDerivative hydrostaticDerivative(const std::vector<HullPatch>& patches, const se3::Pose& pose,
                                            const HydrostaticState& state);

}  // namespace varsim
