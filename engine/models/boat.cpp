// engine/models/boat.cpp — boat wrenches on double (the formulas are boat_wrench_generic.h: gravity, buoyancy (eq. (15)
// first term), hydrodynamic patch tractions (eq. (15) sum, read as tractions), wind on dry patches, thruster immersion)
// with their analytic first derivatives for the implicit step and the plan's Jacobian; thrusters (ERRATA control
// matrix).
#include "engine/models/boat.h"

#include "engine/models/boat_wrench_generic.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "engine/lie/so3.h"

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
  faces_ = hull_.patches(1e300);
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
  return thrusterImmersionT<double>(g.R, g.x, c, water, t);
}

BoatWrench Boat::wrench(const se3::Pose& g, const Vector6d& xi, double t, const WaterSurface& water,
                        const Eigen::Vector2d& u, HydrostaticState& hydro) const {
  BoatWrench out;
  computeHydrostatics(patches_, g, water, t, hydro);
  hydrostaticWrench(g, hydro, out);
  patchWrenches(g.R, xi, hydro, waterVelocities(g, t, water, hydro), out);
  out.thrust = thrustWrench(g, t, water, u);
  return out;
}

void Boat::hydrostaticWrench(const se3::Pose& g, const HydrostaticState& hydro, BoatWrench& out,
                             Matrix6d* dPose) const {
  hydrostaticWrenchT<double>(g.R, g.x, hydro, out);
  if (!dPose) return;
  const BoatSettings& s = settings_;
  const double rg = s.waterDensity * s.gravity;
  const Vector3d z = g.R.row(2).transpose();
  const Vector3d m = g.R.transpose() * (hydro.centroid - g.x) * hydro.volume;
  const HydrostaticDerivative d = hydrostaticDerivative(patches_, g, hydro);
  const Matrix3d zHat = so3::hat(z), mHat = so3::hat(m);
  Matrix6d& D = *dPose;
  D.topRows<3>() = -rg * zHat * d.moment;
  D.topLeftCorner<3, 3>() += rg * mHat * zHat;
  D.bottomRows<3>() = rg * z * d.volume;
  D.bottomLeftCorner<3, 3>() += (rg * hydro.volume - s.mass * s.gravity) * zHat;
}

std::vector<Vector3d> Boat::waterVelocities(const se3::Pose& g, double t, const WaterSurface& water,
                                            const HydrostaticState& hydro) const {
  return waterVelocitiesT<double>(g.R, g.x, t, water, hydro);
}

void Boat::patchWrenches(const Matrix3d& R, const Vector6d& xi, const HydrostaticState& hydro,
                         const std::vector<Vector3d>& eta, BoatWrench& out, Matrix6d* dXi,
                         Eigen::Matrix<double, 6, 3>* dTheta) const {
  patchWrenchesT<double>(R, xi, hydro, eta, out, dXi, dTheta);
}

Vector6d Boat::thrustWrench(const se3::Pose& g, double t, const WaterSurface& water, const Eigen::Vector2d& u) const {
  const Eigen::Vector2d effective(u.x() * thrusterImmersion(g, thrusterRight(), water, t),
                                  u.y() * thrusterImmersion(g, thrusterLeft(), water, t));
  return controlMatrix() * effective;
}

double Boat::potentialEnergy(const se3::Pose& g, const HydrostaticState& hydro) const {
  const BoatSettings& s = settings_;
  return s.mass * s.gravity * g.x.z() - s.waterDensity * s.gravity * hydro.volume * hydro.centroid.z();
}

Eigen::Vector2d Boat::restRates(const WaterSurface& stillWater) const {
  se3::Pose g;
  g.x.z() = equilibriumHeight();
  HydrostaticState hydro;
  computeHydrostatics(patches_, g, stillWater, 0.0, hydro);
  BoatWrench w;
  Matrix6d K, C;
  hydrostaticWrench(g, hydro, w, &K);
  patchWrenches(g.R, Vector6d::Zero(), hydro, std::vector<Vector3d>(patches_.size(), Vector3d::Zero()), w, &C);
  Vector6d Minv;
  Minv << principalInertia().cwiseInverse(), Vector3d::Constant(1.0 / settings_.mass);
  const auto largest = [&](const Matrix6d& A) {
    const Matrix6d scaled = Minv.asDiagonal() * A;
    return Eigen::EigenSolver<Matrix6d>(scaled, false).eigenvalues().cwiseAbs().maxCoeff();
  };
  return {std::sqrt(largest(K)), largest(C)};
}

Vector6d Boat::endOfStepWrench(const se3::Pose& g, const Vector6d& xi, const HydrostaticState& nodeHydro,
                               const std::vector<Vector3d>& nodeEta, const WaterSurface& water, double t,
                               HydrostaticState& scratch, BoatWrench& w, Matrix6d* dPose, Matrix6d* dXi) const {
  computeHydrostatics(patches_, g, water, t, scratch);
  hydrostaticWrench(g, scratch, w, dPose);
  Eigen::Matrix<double, 6, 3> dTheta;
  patchWrenches(g.R, xi, nodeHydro, nodeEta, w, dXi, dPose ? &dTheta : nullptr);
  if (dPose) dPose->leftCols<3>() += dTheta;
  return w.hydrostatic() + w.hydrodynamic + w.wind;
}

}  // namespace varsim

namespace varsim {

Matrix6d Boat::patchWrenchExposureJacobian(const Matrix3d& R, const Vector6d& xi, const HydrostaticState& hydro,
                                           const std::vector<Vector3d>& eta,
                                           const std::vector<PatchExposureDerivative>& dExposure) const {
  const BoatSettings& s = settings_;
  const Matrix3d Rt = R.transpose();
  const Vector3d omega = xi.head<3>(), v = xi.tail<3>(), windBody = Rt * s.wind;
  const Matrix3d omegaHat = so3::hat(omega);
  const bool windy = s.wind.norm() > 0.0;
  Matrix6d D = Matrix6d::Zero();
  // A load f at body point r moving by (dr, df): d(r x f, f) = (-f^ dr + r^ df, df).
  const auto add = [&](const Vector3d& r, const Vector3d& f, const Eigen::Matrix<double, 3, 6>& dr,
                       const Eigen::Matrix<double, 3, 6>& df) {
    D.topRows<3>() += -so3::hat(f) * dr + so3::hat(r) * df;
    D.bottomRows<3>() += df;
  };
  for (size_t i = 0; i < patches_.size() && i < hydro.patches.size() && i < dExposure.size(); ++i) {
    const PatchExposure& e = hydro.patches[i];
    const PatchExposureDerivative& d = dExposure[i];
    if (d.area.isZero() && d.first.isZero()) continue;
    if (e.wetArea > 0.0) {  // f = -E (v + omega x c - R^T eta) A, c = F / A
      const Vector3d& c = e.wetCentroid;
      const Eigen::Matrix<double, 3, 6> dc = (d.first - c * d.area) / e.wetArea;
      const Vector3d f = -s.damping.cwiseProduct(v + omega.cross(c) - Rt * eta[i]) * e.wetArea;
      add(c, f, dc, -e.wetArea * s.damping.asDiagonal() * omegaHat * dc + (f / e.wetArea) * d.area);
    }
    if (e.dryArea > 0.0 && windy) {  // f = k s_eps(-n . rel) rel, k = kappa (area - A), dry centroid (area c0 - F)/dry
      const Vector3d& r = e.dryCentroid;
      const Eigen::Matrix<double, 3, 6> dr = (r * d.area - d.first) / e.dryArea;
      const Vector3d rel = windBody - (v + omega.cross(r));
      const Vector3d& n = patches_[i].normal;
      const double kappa = 0.5 * s.airDensity * s.windDrag, k = kappa * e.dryArea;
      double slope = 0.0;
      const double sn = boat_detail::windExposure(-n.dot(rel), s.windExposureBand, slope);
      Matrix3d K = k * sn * Matrix3d::Identity();  // d f / d rel, as patchWrenches
      if (slope > 0.0) K.noalias() -= k * slope * rel * n.transpose();
      add(r, k * sn * rel, dr, -kappa * sn * rel * d.area - K * omegaHat * dr);
    }
  }
  return D;
}

Matrix6d Boat::thrustPoseJacobian(const se3::Pose& g, const Eigen::Vector2d& u) const {
  const Vector3d z = g.R.row(2).transpose();
  const Eigen::Matrix<double, 6, 2> F = controlMatrix();
  const Vector3d c[2] = {thrusterRight(), thrusterLeft()};
  Matrix6d D = Matrix6d::Zero();
  for (int j = 0; j < 2; ++j) {
    const double ramp = (-(z.dot(c[j]) + g.x.z()) + 0.05) / 0.1;  // thrusterImmersion's argument in still water
    if (!(ramp > 0.0 && ramp < 1.0)) continue;
    Eigen::Matrix<double, 1, 6> dDepth;  // depth = -(z . c + x_z); d(z . c)/d theta = (c x z)^T, d x_z / du = z^T
    dDepth << -c[j].cross(z).transpose(), -z.transpose();
    D += F.col(j) * (u[j] / 0.1) * dDepth;
  }
  return D;
}

}  // namespace varsim
