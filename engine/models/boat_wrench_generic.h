// engine/models/boat_wrench_generic.h — the boat's wrench formulas (boat.h) on a generic scalar S (generic_scalar.h):
// gravity and buoyancy rho g Pi_s at x_s, the eq. (15) patch tractions on the wetted parts, the wind drag on the dry
// parts, the water velocity at the wet centroids and the thrusters' immersion. One code path: the simulator's step
// runs them on double (boat.cpp), the boat plan on second-order jets for exact first and second derivatives
// (engine/control/boat_dmoc_hull_jet.cpp). Kinks are decided on the value part.
#pragma once

#include <type_traits>

#include "engine/lie/so3.h"
#include "engine/models/boat.h"
#include "engine/models/hull_hydrostatics_generic.h"

namespace varsim {
namespace boat_detail {

// The exposure of a face to the relative wind, max(0, s) with s = -n . rel (m/s), rounded over |s| < eps into the
// C^1 ramp (s + eps)^2 / (4 eps): max(0, s) has a kink at s = 0, the heading where a face turns tangent to the wind,
// which is where a boat heading into the wind sits (seed 000 Fig. 10: docking under wind) and where Ipopt then stalls
// (dual infeasibility 0.034 concentrated in the yaw of every node). The ramp equals max(0, s) for |s| >= eps and
// exceeds it by at most eps / 4 (at s = 0). `slope` receives ds_eps/ds (of the value).
template <class S>
S windExposure(const S& s, double eps, double& slope) {
  const double sv = scalarValue(s);
  if (eps <= 0.0) return slope = sv > 0.0 ? 1.0 : 0.0, 0.0 < sv ? s : S(0.0);
  if (sv >= eps) return slope = 1.0, s;
  if (sv <= -eps) return slope = 0.0, S(0.0);
  slope = 0.5 * (sv + eps) / eps;
  return 0.25 * (s + eps) * (s + eps) / eps;
}

}  // namespace boat_detail

template <class S>
void Boat::hydrostaticWrenchT(const Mat3<S>& R, const Vec3<S>& x, const HydrostaticStateT<S>& hydro,
                              BoatWrenchT<S>& out) const {
  const BoatSettings& s = settings_;
  const double rg = s.waterDensity * s.gravity;
  // z = R^T e_z (world up in the body frame), m = int_sub r dV (body).
  const Vec3<S> z = R.row(2).transpose();
  const Vec3<S> m = R.transpose() * (hydro.centroid - x) * hydro.volume;
  out.gravity << Vec3<S>::Zero(), -s.mass * s.gravity * z;
  out.buoyancy << rg * m.cross(z), rg * hydro.volume * z;  // rho g Pi_s upward at x_s (eq. (15), first term)
}

template <class S>
std::vector<Vec3<S>> Boat::waterVelocitiesT(const Mat3<S>& R, const Vec3<S>& x, double t, const WaterSurface& water,
                                            const HydrostaticStateT<S>& hydro) const {
  std::vector<Vec3<S>> eta(hydro.patches.size(), Vec3<S>::Zero());
  for (size_t i = 0; i < eta.size(); ++i)
    if (scalarValue(hydro.patches[i].wetArea) > 0.0)
      eta[i] = water.velocityT(Vec3<S>(R * hydro.patches[i].wetCentroid + x), t);
  return eta;
}

template <class S>
void Boat::patchWrenchesT(const Mat3<S>& R, const Vec6<S>& xi, const HydrostaticStateT<S>& hydro,
                          const std::vector<Vec3<S>>& eta, BoatWrenchT<S>& out, Matrix6d* dXi,
                          Eigen::Matrix<double, 6, 3>* dTheta) const {
  constexpr bool kDouble = std::is_same_v<S, double>;
  const BoatSettings& s = settings_;
  const Mat3<S> Rt = R.transpose();
  const Vec3<S> omega = xi.template head<3>(), v = xi.template tail<3>();
  const Vec3<S> windBody = Rt * s.wind;
  const bool windy = s.wind.norm() > 0.0;
  if (dXi) dXi->setZero();
  if (dTheta) dTheta->setZero();
  // Adds the load f at body point r to `wrench` and (double) its derivatives for f = F(c - B xi), K = dF: B^T f is the
  // wrench (B^T = [r^; I]), -B^T K B = [[r^ K r^, -r^ K], [K r^, -K]] its xi-derivative, B^T K c^ the theta one.
  const auto apply = [&](const Vec3<S>& r, const Vec3<S>& f, const Matrix3d& K, const Vec3<S>& c, Vec6<S>& wrench) {
    wrench.template head<3>() += r.cross(f);
    wrench.template tail<3>() += f;
    if constexpr (kDouble) {
      const Matrix3d rHat = so3::hat(r);
      if (dXi) {
        const Matrix3d KrHat = K * rHat;
        dXi->topLeftCorner<3, 3>() += rHat * KrHat;
        dXi->topRightCorner<3, 3>() -= rHat * K;
        dXi->bottomLeftCorner<3, 3>() += KrHat;
        dXi->bottomRightCorner<3, 3>() -= K;
      }
      if (dTheta) {
        const Matrix3d Kc = K * so3::hat(c);
        dTheta->topRows<3>() += rHat * Kc;
        dTheta->bottomRows<3>() += Kc;
      }
    }
  };
  Matrix3d K = Matrix3d::Zero();  // d f / d(relative velocity), double only
  for (size_t i = 0; i < patches_.size() && i < hydro.patches.size(); ++i) {
    const HullPatch& patch = patches_[i];
    const PatchExposureT<S>& e = hydro.patches[i];
    if (scalarValue(e.wetArea) > 0.0) {
      // f_h dA_i with f_h = -E (r_dot - R^T eta) - P n (tractions, see boat.h).
      const Vec3<S>& r = e.wetCentroid;
      const Vec3<S> rdot = v + omega.cross(r);
      const Vec3<S> etaBody = Rt * eta[i];
      const Vec3<S> f = -s.damping.cwiseProduct(rdot - etaBody) * e.wetArea;
      if constexpr (kDouble) K = Matrix3d(e.wetArea * s.damping.asDiagonal());
      apply(r, f, K, etaBody, out.hydrodynamic);
      if constexpr (kDouble) out.waterPower += f.dot(etaBody);
      if (kDouble || s.pressure != 0.0) {
        const Vec3<S> fp = -s.pressure * e.wetArea * patch.normal;
        out.pressure.template head<3>() += r.cross(fp);
        out.pressure.template tail<3>() += fp;
      }
    }
    if (scalarValue(e.dryArea) > 0.0 && windy) {
      // Quadratic drag of the relative wind on the dry part of the patch, only on faces that see it:
      // f = k s_eps(-n . rel) rel with k = 1/2 rho_a C_d dA (the exposure max(0, -n.rel/|rel|) times |rel|,
      // rounded over |n . rel| < eps: windExposure).
      const Vec3<S>& r = e.dryCentroid;
      const Vec3<S> rel = windBody - (v + omega.cross(r));  // body frame
      const S k = 0.5 * s.airDensity * s.windDrag * e.dryArea;
      double slope = 0.0;
      const S sn = boat_detail::windExposure(S(-patch.normal.dot(rel)), s.windExposureBand, slope);
      const Vec3<S> f = k * sn * rel;
      if constexpr (kDouble) {
        K = k * sn * Matrix3d::Identity();  // d f / d rel
        if (slope > 0.0) K.noalias() -= k * slope * rel * patch.normal.transpose();
      }
      apply(r, f, K, windBody, out.wind);
      if constexpr (kDouble) out.windPower += f.dot(windBody);
    }
  }
}

template <class S>
S Boat::thrusterImmersionT(const Mat3<S>& R, const Vec3<S>& x, const Vector3d& c, const WaterSurface& water,
                           double t) const {
  const Vec3<S> p = R * c + x;
  const S depth = water.heightT(S(p.x()), S(p.y()), t) - p.z();
  return clampByValue(S((depth + 0.05) / 0.1), 0.0, 1.0);  // thrust fades out when the propeller leaves the water
}

}  // namespace varsim
