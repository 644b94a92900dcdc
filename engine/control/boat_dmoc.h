// engine/control/boat_dmoc.h — DMOC transcription (seed 000 Sec. 6, Fig. 10 left) of the thruster boat of Sec. 4.3.2
// on SO(3)xR^3: the dynamics rows are the implicit LGVI step the boat scene takes, through the stepper's pure functions
// (lgviResidual, lgviNextMomentum, lgviNextPose) with the boat's own end-of-step wrench (Boat::endOfStepWrench, the
// function the scene calls) and node wrench (Boat::thrustWrench), not a second copy of them.
//
// Parametrisation like HeliDmoc (heli_dmoc.h): block k = [theta_k, x_k, xi_k, u_k / thrustMax] (14 numbers), R_k =
// Rbar_k exp(theta_k^) around the guess's level heading, u = (u_left, u_right) in N; the last node [theta_N, x_N]:
// n = 14N + 6. Rows per segment k (12): eq. (10) r = C(h w)^T J w, m v - mu^-_k - h f_k - h Tr f^+ (divided by m),
// f_k = thrust at node k, f^+ = gravity + buoyancy at g_{k+1}, drag + wind at xi_k with the patch exposure and water
// velocity frozen at node k (the scene's backward Euler); eq. (9) rotation vee(E - E^T)/2 and translation rows.
// Jacobian: exact chain rule through the pure functions. The frozen node-k data (patch exposures, water velocity,
// thruster immersion) depend on g_k too: in still water through the exact waterline transport of the exposures
// (patch_exposure_derivative.h) and the immersion ramp's slope (Boat::thrustPoseJacobian); under waves (no analytic
// partial of the clipping against the moving grid) the first derivatives of the boat's own routines on jets
// (boat_dmoc_hull_jet.h). Both are checked against differences of the whole rows.
// Fixed: node 0 (the scene's start pose), mu^-_0 = II xi(0) - (h/2) f_0, u_0 (the scene's held thrust); the dock:
// x_N, y_N, heading (theta_N,z = 0 around the dock yaw) and xi_{N-1} = 0 (at rest); the float height, heel and trim of
// node N are free (the boat floats where wind, current and the holding thrust put it). Thrusts in [0, thrustMax].
// Cost h w sum |u_k / thrustMax|^2 (dimensionless effort); smoothness and the terminal penalty through DmocCosts over
// layout() (dmoc_costs.h). Hessian: segment by segment (boat_dmoc_hessian.cpp; exact, the boat's own wrench routines on
// second-order jets) or L-BFGS.
#pragma once

#include <vector>

#include "engine/control/dmoc_costs.h"
#include "engine/control/nlp.h"
#include "engine/integrators/lgvi_se3.h"
#include "engine/models/boat.h"
#include "engine/models/rigid_body.h"

namespace varsim {

struct BoatDmocSpec {
  BoatSettings boat;                     // the scene's boat (mass, hull, damping, wind, thrustMax; pressure must be 0)
  WaveSettings water;                    // the scene's sea: waves, current
  LgviOptions lgvi;                      // the scene's LGVI options; group must be SO3xR3
  double h = 0.1;                        // s
  int N = 100;                           // segments, >= 2
  se3::Pose start;                       // node 0 (fixed)
  Vector6d xi0 = Vector6d::Zero();       // body velocity at t = 0
  Eigen::Vector2d u0 = {0.0, 0.0};       // (u_left, u_right) at node 0, N (the scene's held thrust; fixed)
  Eigen::Vector2d dock = {10.0, 0.0};    // x_N, y_N, m
  double dockHeading = 0.0;              // rad
  double weightThrust = 1.0;             // > 0
  bool segmentHessian = true;            // false: Ipopt's L-BFGS
};

struct BoatNodeData {  // what the step from node k freezes at node k (as the scene's NodeData)
  HydrostaticState hydro;
  std::vector<Vector3d> eta;
};

class BoatDmoc : public Nlp {
 public:
  static constexpr int kBlock = 14;
  explicit BoatDmoc(BoatDmocSpec spec);  // throws BadInput on N < 2, group se3, pressure != 0, bad weight
  const BoatDmocSpec& spec() const { return spec_; }
  const Boat& boat() const { return boat_; }
  const WaterSurface& water() const { return water_; }
  int numVariables() const override { return kBlock * spec_.N + 6; }
  int numConstraints() const override { return numDynamics(); }
  int numDynamics() const { return 12 * spec_.N; }  // eqs. (9)-(10), 12 rows per segment: every row
  void bounds(Eigen::VectorXd& xL, Eigen::VectorXd& xU, Eigen::VectorXd& gL, Eigen::VectorXd& gU) const override;
  // Smoothstep from start to dock in x, y and heading at the start height, level, xi from consecutive poses, 20 %
  // thrust on both sides.
  Eigen::VectorXd initialGuess() const override;
  double objective(const Eigen::VectorXd& x) const override;
  Eigen::VectorXd gradient(const Eigen::VectorXd& x) const override;
  Eigen::VectorXd constraints(const Eigen::VectorXd& x) const override;
  void jacobian(const Eigen::VectorXd& x, std::vector<Eigen::Triplet<double>>& out) const override;
  // Hessian of the Lagrangian segment by segment (boat_dmoc_hessian.cpp): LGVI blocks, effort, and the hull wrench and
  // thrust immersion of the momentum rows on jets of the boat's wrench routines (boat_dmoc_hull_jet.h), exact in still
  // water and under waves.
  bool hasHessian() const override { return spec_.segmentHessian; }
  void hessian(const Eigen::VectorXd& x, double objFactor, const Eigen::VectorXd& lambda,
               std::vector<Eigen::Triplet<double>>& out) const override;

  // For DmocCosts: controls u_k / thrustMax with W = (w, w); the terminal variables are what bounds() fixes at the dock
  // (theta_N,z, x_N, y_N and the last twist xi_{N-1}), a penalty when terminal_weight > 0 frees them.
  DmocLayout layout() const;

  se3::Pose pose(const Eigen::VectorXd& x, int k) const;
  Vector6d twist(const Eigen::VectorXd& x, int k) const { return x.segment<6>(kBlock * k + 6); }
  Eigen::Vector2d thrust(const Eigen::VectorXd& x, int k) const;  // (u_left, u_right), N
  void setThrust(Eigen::VectorXd& x, int k, const Eigen::Vector2d& u) const;
  const Matrix3d& chartCentre(int k) const { return Rbar_[k]; }
  BoatNodeData nodeData(const se3::Pose& g, double t) const;
  // The 12 rows of segment k (eq. (10) / m in m/s, eq. (9) rotation and translation); dynResidual: largest magnitude.
  Eigen::Matrix<double, 12, 1> segmentRows(const Eigen::VectorXd& x, int k) const;
  double dynResidual(const Eigen::VectorXd& x, int k) const { return segmentRows(x, k).lpNorm<Eigen::Infinity>(); }

 private:
  Vector6d momentumRows(const se3::Pose& gk, double tk, const Vector6d& muMinus, const Eigen::Vector2d& u,
                        const Vector6d& xi, const BoatNodeData& node, LgviResidual* full) const;
  // d(momentum rows)/d(theta_k, x_k, xi_k, u_k), exact (see the header comment).
  Eigen::Matrix<double, 6, 14> momentumLocalJacobian(const Eigen::VectorXd& x, int k, Matrix6d* dPrev) const;
  Matrix6d nodeDataPartialStill(const se3::Pose& gk, const Vector6d& xi, const Eigen::Vector2d& u,
                                const BoatNodeData& node) const;
  Vector6d nodeThrust(const se3::Pose& g, double t, const Eigen::Vector2d& u) const;
  Vector6d leftMomentum(const Eigen::VectorXd& x, int k, Matrix6d* dPrev) const;
  // l^T d2(momentum rows of segment k)/dz2 added into node block Dk (exact, on jets of the boat's wrench routines).
  void momentumHessian(const Eigen::VectorXd& x, int k, const Vector6d& l, Eigen::MatrixXd& Dk) const;

  BoatDmocSpec spec_;
  Boat boat_;
  WaterSurface water_;
  RigidBodyInertia inertia_;
  std::vector<Matrix3d> Rbar_;
  Vector6d muMinus0_ = Vector6d::Zero();
};

}  // namespace varsim
