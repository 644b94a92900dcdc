// engine/control/heli_dmoc.h — DMOC transcription (seed 000 Sec. 6, Figs. 9/12) of the helicopter of Sec. 4.3.1 on
// SO(3)xR^3: the constraints are the LGVI step of eqs. (9)-(10) as the simulator takes it, through the pure functions
// the stepper itself calls (lgviResidual, lgviNextMomentum, lgviNextPose in engine/integrators/lgvi_se3.h) with the
// scene's own end-of-step wrench (helicopterDissipativeWrench), not a second copy of them.
//
// Parametrisation (banded Jacobian, group structure intact): node k's attitude is R_k = Rbar_k exp(theta_k^), a local
// increment theta_k in R^3 around a fixed reference Rbar_k (the guess's level attitude along the path; increments stay
// far from |theta| = pi), position x_k in R^3 as is. Per segment k the body twist xi_k = (omega_k, v_k) of eq. (10)
// and the actuator state u_k = (u_c, u_psi, gamma_p, gamma_r) acting at node k, held as u_k / uScale (uScale =
// (max(m g, 0.1 u_c,max), yaw range, tilt range, tilt range): all variables O(1), which Ipopt needs). Block k =
// [theta_k, x_k, xi_k, u_k / uScale] at 16k (k < N), the last node [theta_N, x_N] at 16N: n = 16N + 6.
// Rows per segment k: eq. (10) r = C(h w)^T J w, m v - mu^-_k - h f_k - h Tr f^+ (divided by m), mu^-_k =
// lgviNextMomentum(xi_{k-1}) (mu^-_0 = II xi(0) - (h/2) f_0, the stepper's start), f_k = gravity(R_k) + F(gamma_k) u_k;
// eq. (9) rotation vee(E - E^T)/2, E = (R_k tau(h w_k))^T R_{k+1}, and translation x_{k+1} - (x_k + h R_k v_k).
// Then actuator rates |u_{k+1} - u_k| <= rate h (1 - 1e-9), then per node k = 2..N-3 clearance rows: the bounding
// sphere vs every rock (signed distance - radius >= margin) and every contact point above the ground
// (z >= groundMargin).
// f^+ in the rows is the drag alone: the ground rows keep every contact point at d >= 0 at every node, where the
// scene's penalty contact is exactly zero, so the rows equal the scene's step; dynResidual() evaluates them with the
// contact term on (the scene's full wrench) to show it. Fixed: node 0 (pose, xi(0), u_0 = the scene's start
// actuators), node N (pose resting on the pad), xi_{N-1} = 0 and u_{N-1} = trim (hover, no tilt, no tail force):
// the vehicle touches down at node N-2 and stays at rest (node velocity 0); endAtRest = false frees xi_{N-1}, u_{N-1}. Nodes 1, N-2, N-1 have no clearance rows:
// they are fixed by the data (node 1 = node 0 at rest, N-2 = N-1 = N) and an inequality that holds with equality at
// every feasible point has no interior (Ipopt stalls on it).
#pragma once

#include <algorithm>
#include <vector>

#include "engine/control/dmoc_costs.h"
#include "engine/control/nlp.h"
#include "engine/integrators/lgvi_se3.h"
#include "engine/models/helicopter.h"
#include "engine/models/helicopter_world.h"

namespace varsim {

struct BoundingSphere {
  Vector3d center = Vector3d::Zero();  // body frame, m
  double radius = 1.0;                 // m
};

struct HeliDmocSpec {
  HelicopterSettings heli;          // the scene's model: mass, inertia, hub/tail arms, drag, gravity, actuator limits
  LgviOptions lgvi;                 // the scene's LGVI options; group must be SO3xR3
  double h = 0.1;                   // s, the stepper's step
  int N = 300;                      // segments, >= 2
  se3::Pose start;                  // node 0 (fixed)
  Vector6d xi0 = Vector6d::Zero();  // body velocity at t = 0 (the scene's start_omega, R^T start_velocity)
  RotorState u0;                    // actuators at node 0 (the scene's start state; fixed)
  se3::Pose target;                 // node N (fixed), reached at rest (xi_{N-1} = 0)
  bool withWorld = true;            // ground, pads, canyon rocks (and the penalty contact in f^+)
  HelicopterWorld world;
  ContactSettings contact;              // the scene's (implicit) contact settings
  std::vector<BoundingSphere> spheres;  // cover the airframe and rotor disc (defaultSpheres)
  double margin = 1.0;                  // m, sphere clearance from every rock
  double ceiling = 30.0;                // m, z_k <= ceiling (below the canyon rim: the path goes through, not over)
  std::vector<Vector3d> via;            // waypoints of the initial guess between start and target (world, m)
  // Cost h sum (u_k - u_trim)^T W (u_k - u_trim) in the scaled controls u / uScale (see the top), u_trim = hover,
  // W = diag(w_c, w_psi, w_tilt, w_tilt) (dimensionless). Smoothness and the terminal penalty: DmocCosts over layout().
  double weightCollective = 1.0, weightYaw = 1.0, weightTilt = 1.0;
  // m, lower bound of every contact point's height at the clearance nodes: the interior point ends ~1e-9 m inside its
  // bounds and may end a few 1e-11 m outside; 1 um keeps the scene's penalty contact (9e6 N/m) exactly off anyway.
  double groundMargin = 1e-6;
  double rateMargin = 1e-9;  // rates are bounded by rate h (1 - rateMargin): the replay's rate clip never acts
  // The end pose is not fixed (a terminal penalty, DmocCosts): nodes N-2..N get clearance rows too, since the data no
  // longer rest them on the pad (their contact points would otherwise be free to sink into the ground).
  bool freeEnd = false;
  // false: xi_{N-1} and u_{N-1} are free (within the actuator limits) instead of rest in trim, and nodes N-2..N get
  // clearance rows: a receding horizon (plan/mpc_controller.h) must be allowed to end moving, or every plan brakes
  // for a goal that has moved on by the next re-plan.
  bool endAtRest = true;
  // Nodes 1..N drawn to these positions by DmocCosts' tracking term (layout().tracked); empty: none.
  std::vector<Vector3d> trackTargets;
};

// One bounding sphere of the airframe with its rotor disc at any tilt in range and the tail rotor.
std::vector<BoundingSphere> defaultSpheres(const Helicopter& heli);
// The pose of a helicopter resting level on the pad (skids on the ground) with the given heading.
se3::Pose restingPose(const Helicopter& heli, const Eigen::Vector2d& xy, double heading);

class HeliDmoc : public Nlp {
 public:
  static constexpr int kBlock = 16;      // [theta, x, xi, u] per segment
  explicit HeliDmoc(HeliDmocSpec spec);  // throws BadInput on N < 2, group se3, bad weights or limits
  const HeliDmocSpec& spec() const { return spec_; }
  const Helicopter& helicopter() const { return heli_; }
  int numVariables() const override { return kBlock * spec_.N + 6; }
  int numConstraints() const override;
  int numDynamics() const { return 12 * spec_.N; }
  // Row layout (a receding horizon shifts each block's multipliers by whole segments): the dynamics rows (12 per
  // segment) from 0, the actuator-rate rows (4 per segment, segments 0..N-2) from rateRow0(), the clearance rows
  // (rowsPerNode() per node, nodes 2..lastClearanceNode()) from clearanceRow0().
  int rateRow0() const { return numDynamics(); }
  int clearanceRow0() const { return rateRow0() + 4 * (spec_.N - 1); }
  int rowsPerNode() const;
  int clearanceNodes() const { return std::max(0, lastClearanceNode() - 1); }
  // For DmocCosts: u_k / uScale at 16k + 12, W, fixed h; the terminal variables are node N's chart theta_N (target 0)
  // and x_N (the resting pose on the pad): a terminal penalty frees them, the vehicle still ends at rest in trim.
  DmocLayout layout() const;
  void bounds(Eigen::VectorXd& xL, Eigen::VectorXd& xU, Eigen::VectorXd& gL, Eigen::VectorXd& gU) const override;
  // The horizontal polyline start -> via -> target with a rest-to-rest time profile, the height blended smoothly from
  // the ends to the waypoints' cruise height, heading along the path, xi from the guess's own poses (eq. (9) rows
  // hold), trim controls (hover collective, no tilt).
  Eigen::VectorXd initialGuess() const override;
  double objective(const Eigen::VectorXd& x) const override;
  Eigen::VectorXd gradient(const Eigen::VectorXd& x) const override;
  Eigen::VectorXd constraints(const Eigen::VectorXd& x) const override;
  void jacobian(const Eigen::VectorXd& x, std::vector<Eigen::Triplet<double>>& out) const override;
  // Exact Hessian of the Lagrangian (heli_dmoc_hessian.cpp: the LGVI blocks of lgvi_hessian.h, node wrench, clearance,
  // cost), fixed pattern of per-block (theta, x, xi) and u triangles plus theta_{k+1} x (theta_k, w_k).
  bool hasHessian() const override { return true; }
  void hessian(const Eigen::VectorXd& x, double objFactor, const Eigen::VectorXd& lambda,
               std::vector<Eigen::Triplet<double>>& out) const override;

  se3::Pose pose(const Eigen::VectorXd& x,
                 int k) const;  // R_k = Rbar_k exp(theta_k), x_k
  Vector6d twist(const Eigen::VectorXd& x, int k) const { return x.segment<6>(kBlock * k + 6); }
  // Node k's variables from a pose (theta_k = log(Rbar_k^T R)) and segment k's twist: a plan rolled out through the
  // scene's step (plan/plan_problem.h PlanInstance::rollOut) written back into x.
  void setPose(Eigen::VectorXd& x, int k, const se3::Pose& g) const;
  void setTwist(Eigen::VectorXd& x, int k, const Vector6d& xi) const { x.segment<6>(kBlock * k + 6) = xi; }
  RotorState control(const Eigen::VectorXd& x, int k) const;
  void setControl(Eigen::VectorXd& x, int k, const RotorState& u) const;  // stores u / uScale
  // The 12 dynamics rows of segment k: eq. (10) residual / m (m/s; rotation rows m^2 rad/s), eq. (9) rotation (sin of
  // the angle error, rad) and translation (m). dynResidual: their largest magnitude. sceneWrench: with the penalty
  // contact in f^+ (the scene's full end-of-step wrench) instead of drag alone.
  Eigen::Matrix<double, 12, 1> segmentRows(const Eigen::VectorXd& x, int k, bool sceneWrench = false) const;
  double dynResidual(const Eigen::VectorXd& x, int k) const;
  double sphereClearance(const Eigen::VectorXd& x, int k) const { return sphereClearance(pose(x, k)); }
  double sphereClearance(const se3::Pose& g) const;  // min over spheres and rocks of d - radius
  // One node's term of the effort cost, h (u/uScale - u_trim)^T W (u/uScale - u_trim) (for a baseline's actuators).
  double nodeEffort(const RotorState& u) const;
  double groundClearance(const Eigen::VectorXd& x,
                         int k) const;  // min z of the contact points

 private:
  Vector6d leftMomentum(const Eigen::VectorXd& x, int k,
                        Matrix6d* dPrev) const;  // mu^-_k
  Vector6d nodeWrench(const se3::Pose& g, const RotorState& u, Eigen::Matrix<double, 6, 3>* dTheta,
                      Eigen::Matrix<double, 6, 4>* dU) const;  // gravity + F(gamma) u, derivatives (body theta, u)
  ImplicitWrench endWrench(bool contact) const;                // helicopterDissipativeWrench, contact term on/off
  // Nodes 2..N-3 have clearance rows (N-2..N rest on the pad by the data); with a free end or one in motion 2..N.
  int lastClearanceNode() const { return spec_.freeEnd || !spec_.endAtRest ? spec_.N : spec_.N - 3; }

  HeliDmocSpec spec_;
  Helicopter heli_;
  RigidBodyInertia inertia_;
  std::vector<Matrix3d> Rbar_;  // chart centres (node 0: start, node N: target)
  std::vector<Vector3d> guessX_;
  Vector6d muMinus0_ = Vector6d::Zero();
  Eigen::Vector4d uScale_, uTrim_, W_;  // variables hold u / uScale_; trim and cost in those units
};

}  // namespace varsim
