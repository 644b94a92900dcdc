// engine/models/hull_hydrostatics.h — exact submerged volume, volume centroid and wetted surface patches
// of a box hull under the piecewise-linear water surface of water_surface.h (seed 000 eq. (15): Pi_s, x_s,
// r_i, dA_i). Every hull patch is clipped against the columns of the surface's grid triangles and the
// triangle's water plane, so the result is exact for the drawn surface (up to round-off).
#pragma once

#include <vector>

#include "engine/lie/se3.h"
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

// The wet and dry parts of one hull patch (body frame). The dry part carries the wind load.
struct PatchExposure {
  double wetArea = 0.0;                     // m^2
  Vector3d wetCentroid = Vector3d::Zero();  // m, body; undefined if wetArea == 0
  double dryArea = 0.0;                     // m^2
  Vector3d dryCentroid = Vector3d::Zero();  // m, body; undefined if dryArea == 0
};

struct HydrostaticState {
  double volume = 0.0;                   // submerged volume Pi_s, m^3
  Vector3d centroid = Vector3d::Zero();  // world centroid x_s of the submerged volume (pose origin if dry)
  double wettedArea = 0.0;               // A = sum_i dA_i, m^2
  std::vector<PatchExposure> patches;    // one per hull patch, same order
};

// Volume and centroid come from the divergence theorem with the field F = (0, 0, z - eta(x, y)) (and its
// first moments), which vanishes on the waterline cap: V = int_{wet hull} (z - eta) n_z dA. Only the wetted
// hull surface is needed, and on each clipped piece the integrand is a polynomial of degree <= 2 that an
// edge-midpoint rule integrates exactly. Requires a closed hull (all six faces).
void computeHydrostatics(const std::vector<HullPatch>& patches, const se3::Pose& pose, const WaterSurface& water,
                         double t, HydrostaticState& out);

}  // namespace varsim
