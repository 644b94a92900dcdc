// engine/models/boat.h — the thruster boat of seed 000 Sec. 4.3.2 as a forced rigid body: a box hull with
// gravity, buoyancy of the exactly clipped submerged volume (hull_hydrostatics.h), the hydrodynamic patch
// traction of eq. (15), wind on the dry patches, and two rear thrusters with the control matrix built from
// c x e_x (ERRATA: the printed columns have sign slips). All wrenches are body wrenches (torque; force).
//
// Our reading of eq. (15) (ERRATA "eq. (15) is dimensionally ambiguous"): f_h is a TRACTION (N/m^2) on a
// wetted patch, f_h = -E (r_dot - R^T eta(x + R r)) - P n with E in N s/m^3 and P in Pa, and the patch
// force is f_h dA_i; we sum f_h dA_i WITHOUT the 1/A factor (with it, a barely wet hull would feel the
// same damping as a deeply immersed one). Pi_s is a volume in m^3 and buoyancy is rho g Pi_s (the paper's
// 9.81 Pi_s[litres] is the case rho = 1 kg/L).
#pragma once

#include <vector>

#include "engine/lie/se3.h"
#include "engine/models/hull_hydrostatics.h"
#include "engine/models/patch_exposure_derivative.h"
#include "engine/models/water_surface.h"

namespace varsim {

struct BoatSettings {
  double mass = 1200.0;                  // kg, > 0
  Vector3d hullSize{4.0, 1.8, 0.8};      // m, box hull length (x), width (y), height (z)
  double comHeight = -0.1;               // m, centre of mass above the hull box centre (ballast < 0)
  double waterDensity = 1025.0;          // rho, kg/m^3 (sea water)
  double gravity = 9.81;                 // m/s^2
  Vector3d damping{40.0, 400.0, 500.0};  // E = diag(surge, sway, heave) in body axes, N s/m^3, >= 0
  double pressure = 0.0;                 // P, Pa: uniform normal traction -P n on the wetted surface
  Vector3d wind = Vector3d::Zero();      // m/s, world air velocity
  double airDensity = 1.225;             // kg/m^3
  double windDrag = 1.0;                 // C_d of the dry hull: traction 1/2 rho_a C_d s_eps(-n.w) w (patchWrenches)
  // eps of the face exposure s_eps(s) (m/s, >= 0; 0 = the hard max(0, s)): a C^1 ramp that equals max(0, s) for
  // |s| >= eps (the planner needs the drag differentiable in the heading; patchWrenches).
  double windExposureBand = 0.05;
  double thrustMax = 1500.0;             // N per thruster
  double patchSize = 0.25;               // m, hull patch edge (the volume is exact for any size)
};

// The wrench split by origin (body frame, about the centre of mass), for plots, tests and the work
// bookkeeping. The powers are what the moving air and water deliver: sum_i f_i . (source velocity at
// patch i, body frame); the rest of the drag's power, -f_i . (relative velocity), is dissipation <= 0.
// S = double in the simulator; jets in the planner (generic_scalar.h; the powers are kept in double only).
template <class S>
struct BoatWrenchT {
  Vec6<S> gravity = Vec6<S>::Zero();
  Vec6<S> buoyancy = Vec6<S>::Zero();
  Vec6<S> hydrodynamic = Vec6<S>::Zero();  // -E (r_dot - R^T eta) dA_i of eq. (15)
  Vec6<S> pressure = Vec6<S>::Zero();      // -P n dA_i of eq. (15)
  Vec6<S> wind = Vec6<S>::Zero();
  Vec6<S> thrust = Vec6<S>::Zero();
  double windPower = 0.0;   // W, sum f_wind,i . R^T w
  double waterPower = 0.0;  // W, sum f_hydro,i . R^T eta(p_i) (current and wave orbital velocity)
  Vec6<S> hydrostatic() const { return gravity + buoyancy; }
  Vec6<S> total() const { return gravity + buoyancy + hydrodynamic + pressure + wind + thrust; }
};
using BoatWrench = BoatWrenchT<double>;

class Boat {
 public:
  explicit Boat(const BoatSettings& settings = {});
  const BoatSettings& settings() const { return settings_; }
  // Live changes (E, P, wind) keep the hull; a new hull/patch size rebuilds the patches.
  void setSettings(const BoatSettings& settings);

  const BoxHull& hull() const { return hull_; }
  const std::vector<HullPatch>& patches() const { return patches_; }
  // The six whole faces: the submerged volume and its moment are exact for any patch size, so gravity and buoyancy
  // alone (the plan's end-pose derivatives) need no finer patches.
  const std::vector<HullPatch>& faces() const { return faces_; }
  // Homogeneous box about its own centre: J = m/12 diag(W^2+H^2, L^2+H^2, L^2+W^2) (the ballast offset
  // comHeight only moves the centre of mass; its effect on J is neglected and documented here).
  Vector3d principalInertia() const;
  // Draft of the upright hull in still water, T = m / (rho L W), and the matching height of the centre of
  // mass above the mean water level, z = H/2 - T + comHeight.
  double equilibriumDraft() const;
  double equilibriumHeight() const;

  // Thrusters at the stern, 0.15 m below the keel, a quarter beam to each side: c_r (starboard, -y) and
  // c_l (port, +y). Control matrix columns (c x e_x, e_x) = (0, c_z, -c_y, 1, 0, 0) for u = (u_r, u_l).
  Vector3d thrusterRight() const;
  Vector3d thrusterLeft() const;
  Eigen::Matrix<double, 6, 2> controlMatrix() const;
  // Thrust fades out when the propeller leaves the water: factor clamp((depth + 0.05)/0.1, 0, 1).
  double thrusterImmersion(const se3::Pose& g, const Vector3d& c, const WaterSurface& water, double t) const;

  // Body wrench at pose g, body twist xi = (omega, v), time t, thrusts u = (u_r, u_l) in N. `hydro`
  // receives the hydrostatic state (volume, centroid, patches) it was computed from. It is the sum of the
  // three parts below (one code path per force law).
  BoatWrench wrench(const se3::Pose& g, const Vector6d& xi, double t, const WaterSurface& water,
                    const Eigen::Vector2d& u, HydrostaticState& hydro) const;

  // Gravity and buoyancy rho g Pi_s at x_s for the state `hydro` computed at pose g (fills out.gravity,
  // out.buoyancy). dPose, if given, receives d(gravity + buoyancy)/d eps for g -> g exp(eps^), eps =
  // (theta, u) body (rows torque; force), from hydrostaticDerivative: with z = R^T e_z, V, m = int r dV,
  //   f = rho g V z - m_b g z,  tau = rho g m x z,  dz = z^ theta,
  //   df = rho g (z dV + V z^ theta) - m_b g z^ theta,  dtau = rho g (-z^ dm + m^ z^ theta).
  // This is the stiff part (rho g A_waterplane against the mass) that the integrator treats implicitly.
  void hydrostaticWrench(const se3::Pose& g, const HydrostaticState& hydro, BoatWrench& out,
                         Matrix6d* dPose = nullptr) const;

  // The wrench routines on a generic scalar S (boat_wrench_generic.h): the double members above and below call them,
  // the boat plan evaluates them on jets for its exact derivatives (engine/control/boat_dmoc_hull_jet.h). The pose is
  // (R, x); kinks (wet/dry, the wind ramp's pieces, the immersion clamp) are decided on the value part.
  template <class S>
  void hydrostaticWrenchT(const Mat3<S>& R, const Vec3<S>& x, const HydrostaticStateT<S>& hydro,
                          BoatWrenchT<S>& out) const;
  template <class S>
  std::vector<Vec3<S>> waterVelocitiesT(const Mat3<S>& R, const Vec3<S>& x, double t, const WaterSurface& water,
                                        const HydrostaticStateT<S>& hydro) const;
  // dXi, dTheta: as patchWrenches (double only).
  template <class S>
  void patchWrenchesT(const Mat3<S>& R, const Vec6<S>& xi, const HydrostaticStateT<S>& hydro,
                      const std::vector<Vec3<S>>& eta, BoatWrenchT<S>& out, Matrix6d* dXi = nullptr,
                      Eigen::Matrix<double, 6, 3>* dTheta = nullptr) const;
  template <class S>
  S thrusterImmersionT(const Mat3<S>& R, const Vec3<S>& x, const Vector3d& c, const WaterSurface& water,
                       double t) const;
  // World water velocity eta (current + orbital) at the wet centroid of each patch exposed in `hydro` (zero
  // for dry patches), at pose g and time t: the moving water as a source, evaluated once per node.
  std::vector<Vector3d> waterVelocities(const se3::Pose& g, double t, const WaterSurface& water,
                                        const HydrostaticState& hydro) const;
  // Patch tractions of eq. (15) on the wetted parts and wind drag on the dry parts of the patches as exposed
  // in `hydro`, for body twist xi of a body with attitude R; eta[i] is the world water velocity at patch i
  // (waterVelocities). The exposure and eta may belong to another pose than R (the integrator freezes them
  // at node k and evaluates the drag with the end-of-step twist and attitude). Fills hydrodynamic, pressure,
  // wind and the powers. With B = [-r^, I] (body velocity of patch point r = B xi), K_i = d f_i / d(relative
  // velocity) (patch: A E; wind: k (s I - s' rel n^T), s = s_eps(-n . rel), s' its slope) and the body-frame
  // source velocity c_i = R^T eta_i or R^T w (d c/d theta = c^ for R -> R exp(theta^)):
  //   dXi    = d(hydrodynamic + wind)/d xi = -sum B^T K B,
  //   dTheta = d(hydrodynamic + wind)/d theta at fixed xi = sum B^T K c^   (pressure depends on neither).
  void patchWrenches(const Matrix3d& R, const Vector6d& xi, const HydrostaticState& hydro,
                     const std::vector<Vector3d>& eta, BoatWrench& out, Matrix6d* dXi = nullptr,
                     Eigen::Matrix<double, 6, 3>* dTheta = nullptr) const;
  // d(hydrodynamic + wind)/d eps of patchWrenches(R, xi, hydro, eta) when the exposures in `hydro` move with a body
  // perturbation eps of the pose they were clipped at, by dExposure (patchExposureDerivatives, still water; eta held:
  // in still water it is the uniform current). The partial of the drag in the node data the integrator freezes.
  Matrix6d patchWrenchExposureJacobian(const Matrix3d& R, const Vector6d& xi, const HydrostaticState& hydro,
                                       const std::vector<Vector3d>& eta,
                                       const std::vector<PatchExposureDerivative>& dExposure) const;
  // The implicit LGVI's end-of-step wrench (boat scene, boat DMOC: one code path): gravity + buoyancy at the end pose
  // g (hydrostatics recomputed there into `scratch`), eq. (15) drag and wind at the end-of-step twist xi with the patch
  // exposure `nodeHydro` and water velocities `nodeEta` frozen at node k. dPose/dXi: d/d(body perturbation of g) and
  // d/dxi at fixed node data (ImplicitWrenchJacobian's blocks); `w` receives the parts and powers.
  Vector6d endOfStepWrench(const se3::Pose& g, const Vector6d& xi, const HydrostaticState& nodeHydro,
                           const std::vector<Vector3d>& nodeEta, const WaterSurface& water, double t,
                           HydrostaticState& scratch, BoatWrench& w, Matrix6d* dPose = nullptr,
                           Matrix6d* dXi = nullptr) const;
  // Thrusters with immersion fading (ERRATA control matrix), body wrench.
  Vector6d thrustWrench(const se3::Pose& g, double t, const WaterSurface& water, const Eigen::Vector2d& u) const;
  // d thrustWrench/d eps (g -> g exp(eps^)) in still water: the immersion ramp's slope 10/m times the thruster's depth
  // rate, 0 where the ramp is clamped (at its two kinks the clamped side's 0).
  Matrix6d thrustPoseJacobian(const se3::Pose& g, const Eigen::Vector2d& u) const;

  // The stiffest hydrostatic frequency omega (rad/s) and the largest drag rate c (1/s) of the upright hull at
  // rest in still water (the wind as set): max |eig| of M^-1 K and of M^-1 C, K = -d(gravity + buoyancy)/d eps,
  // C = -d(drag + wind)/d xi, M = diag(J, m). Forces evaluated explicitly at the node are stable only for
  // h omega < 2 and h c < 2 (Stoermer-Verlet, forward Euler); for a 1 kg default hull omega = 269 rad/s.
  Eigen::Vector2d restRates(const WaterSurface& stillWater = WaterSurface()) const;
  // m g z - rho g int_sub z dV: the potential of gravity and still-water buoyancy (exact for still water,
  // where it makes the undamped boat conservative; a reference value under waves).
  double potentialEnergy(const se3::Pose& g, const HydrostaticState& hydro) const;

 private:
  BoatSettings settings_;
  BoxHull hull_;
  std::vector<HullPatch> patches_;
  std::vector<HullPatch> faces_;
};

}  // namespace varsim
