// scenes/vehicles/rigid_vehicle_scene.h — what the holonomic vehicle scenes (helicopter, boat) share: one rigid body
// on the LGVI of seed 000 eqs. (9)-(10) (group SE(3) or SO(3)xR^3) or on the RK4 baseline, driven by the
// vehicle's body wrench; the momentum/impulse bookkeeping behind the "momentum vs impulse" plot; the
// standard CSV columns; exact save/restore; input sanitizing; the trail.
//
// Timing: the wrench f_k at node k uses the actuator state computed at the end of the previous step (from
// that step's inputs and the state at node k), so f_k is known when node k is reached. This makes the node
// momentum mu^-_k + (h/2) f_k available for diagnostics and the discrete balance exact:
//   M_{k+1} - M_k = (h/2) (Ad*_{g_k^-1} f_k + Ad*_{g_{k+1}^-1} f_{k+1})   (LGVI, spatial, about the origin),
// i.e. the node momenta change by the trapezoidal impulse of the node wrenches (M_0 = II xi(0) exactly).
// For RK4 the impulse column is the RK4 quadrature of the stage wrenches (h/6)(F1 + 2F2 + 2F3 + F4), which
// the RK4 momentum does not match exactly: that mismatch is the point of the comparison.
#pragma once

#include <deque>
#include <memory>

#include "engine/integrators/lgvi_se3.h"
#include "engine/integrators/rk4_rigid_body.h"
#include "scenes/scene.h"

namespace varsim {

// Parameters every rigid vehicle scene has: dt, integrator (lgvi|rk4) and the live LGVI choices of
// free_body_sim.h (group, retraction, tangent, newton_tol, newton_max_iter) with group defaulting to so3xr3.
std::vector<ParamSpec> rigidVehicleParams();

class RigidVehicleScene : public Scene {
 public:
  explicit RigidVehicleScene(ParamSet params);

  void step(double h, const InputVector& inputs) final;
  double time() const final;
  std::vector<std::string> columns() const final;
  void diagnostics(std::vector<double>& row) const final;
  std::vector<double> saveState() const final;
  void loadState(const std::vector<double>& state) final;

  const se3::Pose& pose() const;
  Vector6d spatialMomentum() const;                     // node momentum (L about the world origin; p), world frame
  const Vector6d& impulse() const { return impulse_; }  // cumulative impulse since t = 0, same layout
  Vector3d velocity() const;     // world velocity of the centre of mass from the node momentum, m/s
  double kineticEnergy() const;  // of the node momentum (LGVI) or the state (RK4), J
  int newtonIterations() const;
  bool usesLgvi() const { return lgvi_ != nullptr; }
  long sanitizedInputSteps() const { return sanitizedSteps_; }  // steps whose inputs had to be repaired
  // Work of inputWrench() since t = 0 (J): LGVI, sum of LgviSe3::segmentWork over the node input wrenches
  // plus the inputs' share of the telescoping term (inputTelescoping; the scheme's own work, so energy -
  // inputWork only changes by dissipation and, with SE(3) or torques, a bounded telescoping term); RK4, the RK4 quadrature of its power. A live edit that changes the node wrench books the jump of
  // the node kinetic energy here too. Part of the saved state.
  double inputWork() const override { return inputWork_; }
  // The body integrator's pose, velocity and (LGVI) mu^- in place (rigidBodyBlocks); the actuators are not included.
  std::vector<StateBlock> stateBlocks() const override;

 protected:
  // The vehicle's total body wrench for the CURRENT actuator state; also called at RK4 stage states.
  virtual Vector6d vehicleWrench(const se3::Pose& g, const Vector6d& xi, double t) const = 0;
  // End-of-step part of the wrench (LGVI: lgvi_se3.h ImplicitWrench, evaluated at g_{k+1} with the segment
  // twist, with its Jacobian): forces that must be implicit to stay passive for every mass and h (stiff
  // contact, drag, buoyancy). Used only when hasEndOfStepWrench(); RK4 adds it to vehicleWrench at its stages.
  virtual bool hasEndOfStepWrench() const { return false; }
  // Whether velocity() and the kinetic energy count the end-of-step wrench at the node, mu^-_k + (h/2)(f_k + c_k)
  // (default: zero velocity for a body resting on contact under explicit gravity), or not, mu^-_k + (h/2) f_k:
  // the pairing (g_k, xi_{k-1}) in which backward Euler's energy never rises when c carries the whole potential
  // force (the boat's gravity + buoyancy; with c counted, a 1 kg hull's heave energy doubles in one step). The
  // momentum and impulse columns never count c_k (the exact balance is kept on mu^- + (h/2) f_k).
  virtual bool endOfStepWrenchInNodeMomentum() const { return true; }
  virtual Vector6d endOfStepWrench(const se3::Pose& /*g*/, const Vector6d& /*xi*/, double /*t*/,
                                   ImplicitWrenchJacobian* /*jac*/) const {
    return Vector6d::Zero();
  }
  // The part of vehicleWrench done by controls and external non-conservative sources (thrust, wind, ...):
  // its work is inputWork(). Default: none.
  virtual Vector6d inputWrench(const se3::Pose& /*g*/, const Vector6d& /*xi*/, double /*t*/) const {
    return Vector6d::Zero();
  }
  // Power (W) that moving external media (wind, current, waves) deliver through the loads at (g, xi, t), for
  // the work bookkeeping of the RK4 path (quadrature over its stages, like inputWrench). Default: none.
  virtual double sourcePower(const se3::Pose& /*g*/, const Vector6d& /*xi*/, double /*t*/) const { return 0.0; }
  // The same for the LGVI's end-of-step wrench: power at (g_{k+1}, xi_k^+, t_{k+1}), booked as h times it per step
  // (the source's share of h f^+ . xi^+; the rest of that work is the implicit forces' dissipation). Default: none.
  virtual double endOfStepSourcePower(const se3::Pose& /*g*/, const Vector6d& /*xi*/, double /*t*/) const {
    return 0.0;
  }
  // Called after the body reached the new node, with this step's sanitized inputs: sets the actuator
  // state that acts from the new node on (may read pose(), segmentVelocity(), segmentOmega()).
  virtual void updateActuators(double h, const InputVector& inputs) = 0;
  virtual double potentialEnergy() const = 0;
  virtual std::vector<std::string> vehicleColumns() const = 0;
  virtual void vehicleDiagnostics(std::vector<double>& row) const = 0;  // appends vehicleColumns()
  virtual std::vector<double> saveVehicle() const = 0;
  virtual void loadVehicle(const std::vector<double>& state) = 0;  // throws BadInput on a wrong size

  // Builds the integrator from the parameters and starts it at (g0, xi0) at t = 0 (call at the end of the
  // derived constructor, once the actuator state is set).
  void startBody(const RigidBodyInertia& inertia, const se3::Pose& g0, const Vector6d& xi0);
  // Live LGVI options (group, retraction, tangent, Newton settings) from params_; keeps the state.
  void applyIntegratorOptions();
  // Recomputes the wrench of the current node after a live parameter change (keeps the state; the change
  // of the node momentum (h/2) Ad* df is booked as impulse, so the balance stays exact).
  void refreshNodeWrench();
  // Velocities of the last segment (LGVI: from the left momentum mu^-, i.e. (x_{k+1} - x_k)/h on
  // SO(3)xR^3; RK4: the state): what a controller at the new node can know without f_{k+1}.
  Vector3d segmentVelocity() const;  // world, m/s
  Vector3d segmentOmega() const;     // body, rad/s
  // LGVI: the last segment's twist xi_k^+ in the body frame of the new node (lgvi_se3.h ImplicitWrench): xi_k on
  // SE(3), (omega_k, R_{k+1}^T xdot_k) on SO(3)xR^3.
  Vector6d endTwist() const;

  std::vector<PlotSpec> momentumPlots() const;  // energy, momentum vs impulse, balance error, Newton
  void drawTrail(DrawList& out, const Rgba& color) const;
  static Mat4 toMat4(const se3::Pose& g);  // column-major body->world transform
  static Mat4 toMat4(const se3::Pose& g, const Vector3d& offset, const Matrix3d& rotation);  // g * (rot, off)
  static Vec3f toVec3f(const Vector3d& v) { return {float(v.x()), float(v.y()), float(v.z())}; }

 private:
  Vector6d bodyMomentumAtNode() const;
  double inputTelescoping() const;  // the inputs' share of the node kinetic energy's telescoping term, J

  std::unique_ptr<LgviSe3> lgvi_;
  std::unique_ptr<Rk4RigidBody> rk4_;
  RigidBodyInertia inertia_;
  Vector6d nodeWrench_ = Vector6d::Zero();  // f_k at the current node (LGVI)
  Vector6d nodeInputWrench_ = Vector6d::Zero();  // inputWrench at the current node (LGVI)
  // End-of-step wrench of the last step, c_k = f^+(g_k, xi_{k-1}): also a wrench AT node k (lgvi_se3.h
  // implicitWrenchAtEnd); velocity() and kineticEnergy() include it (if endOfStepWrenchInNodeMomentum()),
  // the momentum columns and their balance do not.
  Vector6d nodeEndWrench_ = Vector6d::Zero();
  double inputWork_ = 0.0;
  Vector6d impulse_ = Vector6d::Zero();
  Vector6d initialMomentum_ = Vector6d::Zero();
  long sanitizedSteps_ = 0;
  std::vector<ControlSpec> controlSpecs_;
  bool haveControlSpecs_ = false;
  std::deque<Vector3d> trail_;  // drawing only (not state)
  long stepCount_ = 0;
};

}  // namespace varsim
