// engine/models/boat.cpp — boat wrenches: gravity, buoyancy (eq. (15) first term), hydrodynamic patch
// tractions (eq. (15) sum, read as tractions), wind on dry patches, thrusters (ERRATA control matrix).
#include "engine/models/boat.h"

#include <algorithm>
#include <cmath>

namespace varsim {

Boat::Boat(const BoatSettings& settings) { setSettings(settings); }

void Boat::setSettings(const BoatSettings& settings) {
  const bool rebuild = patches_.empty() || settings.hullSize != settings_.hullSize ||
                       settings.comHeight != settings_.comHeight || settings.patchSize != settings_.patchSize;
  settings_ = settings;
  if (!rebuild) return;
  hull_.size = settings_.hullSize;
  hull_.center = Vector3d(0.0, 0.0, -settings_.comHeight);  // body origin = centre of mass
  patches_ = hull_.patches(settings_.patchSize);
}

Vector3d Boat::principalInertia() const {
  const Vector3d s2 = settings_.hullSize.cwiseAbs2();
  return settings_.mass / 12.0 * Vector3d(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y());
}

double Boat::equilibriumDraft() const {
  return settings_.mass / (settings_.waterDensity * settings_.hullSize.x() * settings_.hullSize.y());
}

double Boat::equilibriumHeight() const {
  return 0.5 * settings_.hullSize.z() - equilibriumDraft() + settings_.comHeight;
}

Vector3d Boat::thrusterRight() const {
  const Vector3d& s = settings_.hullSize;
  return hull_.center + Vector3d(-0.5 * s.x(), -0.25 * s.y(), -0.5 * s.z() - 0.15);
}

Vector3d Boat::thrusterLeft() const {
  const Vector3d& s = settings_.hullSize;
  return hull_.center + Vector3d(-0.5 * s.x(), 0.25 * s.y(), -0.5 * s.z() - 0.15);
}

Eigen::Matrix<double, 6, 2> Boat::controlMatrix() const {
  Eigen::Matrix<double, 6, 2> F;
  const Vector3d ex = Vector3d::UnitX();
  F.col(0) << thrusterRight().cross(ex), ex;  // ERRATA: (c x e_x, e_x) = (0, c_z, -c_y, 1, 0, 0)
  F.col(1) << thrusterLeft().cross(ex), ex;
  return F;
}

double Boat::thrusterImmersion(const se3::Pose& g, const Vector3d& c, const WaterSurface& water, double t) const {
  const Vector3d p = g.act(c);
  const double depth = water.height(p.x(), p.y(), t) - p.z();
  return std::clamp((depth + 0.05) / 0.1, 0.0, 1.0);
}

BoatWrench Boat::wrench(const se3::Pose& g, const Vector6d& xi, double t, const WaterSurface& water,
                        const Eigen::Vector2d& u, HydrostaticState& hydro) const {
  const BoatSettings& s = settings_;
  const Matrix3d& R = g.R;
  const Matrix3d Rt = R.transpose();
  const Vector3d omega = xi.head<3>(), v = xi.tail<3>();
  BoatWrench out;
  out.gravity.tail<3>() = Rt * Vector3d(0.0, 0.0, -s.mass * s.gravity);

  computeHydrostatics(patches_, g, water, t, hydro);
  // Buoyancy rho g Pi_s acting upward at the volume centroid x_s (eq. (15), first term).
  const Vector3d lift(0.0, 0.0, s.waterDensity * s.gravity * hydro.volume);
  out.buoyancy << Rt * (hydro.centroid - g.x).cross(lift), Rt * lift;

  const double windSpeed = s.wind.norm();
  for (size_t i = 0; i < patches_.size(); ++i) {
    const HullPatch& patch = patches_[i];
    const PatchExposure& e = hydro.patches[i];
    if (e.wetArea > 0.0) {
      // f_h dA_i with f_h = -E (r_dot - R^T eta) - P n (tractions, see header).
      const Vector3d& r = e.wetCentroid;
      const Vector3d rdot = v + omega.cross(r);
      const Vector3d eta = Rt * water.velocity(g.act(r), t);
      const Vector3d f = (-s.damping.cwiseProduct(rdot - eta) - s.pressure * patch.normal) * e.wetArea;
      out.hydrodynamic.head<3>() += r.cross(f);
      out.hydrodynamic.tail<3>() += f;
    }
    if (e.dryArea > 0.0 && windSpeed > 0.0) {
      // Quadratic drag of the relative wind on the dry part of the patch, only on faces that see it.
      const Vector3d& r = e.dryCentroid;
      const Vector3d rel = Rt * s.wind - (v + omega.cross(r));  // body frame
      const double speed = rel.norm();
      if (speed > 0.0) {
        const double exposure = std::max(0.0, -patch.normal.dot(rel) / speed);
        const Vector3d f = 0.5 * s.airDensity * s.windDrag * exposure * speed * e.dryArea * rel;
        out.wind.head<3>() += r.cross(f);
        out.wind.tail<3>() += f;
      }
    }
  }

  const Eigen::Vector2d effective(u.x() * thrusterImmersion(g, thrusterRight(), water, t),
                                  u.y() * thrusterImmersion(g, thrusterLeft(), water, t));
  out.thrust = controlMatrix() * effective;
  return out;
}

double Boat::potentialEnergy(const se3::Pose& g, const HydrostaticState& hydro) const {
  const BoatSettings& s = settings_;
  return s.mass * s.gravity * g.x.z() - s.waterDensity * s.gravity * hydro.volume * hydro.centroid.z();
}

}  // namespace varsim
