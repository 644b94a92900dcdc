// scenes/rigid_body/free_body_sim.h — one free rigid body under uniform gravity on either the LGVI (seed 000
// eqs. (9)-(10)) or one of the baselines (RK2, implicit RK2, RK4, Lie-Newmark), behind one interface, with
// the diagnostics the rigid-body scenes report: node momentum, energy, Newton iterations and wall time per step.
//
// Momentum reported for the LGVI: the node momentum mu^-_k + (h/2) f_k (average of the left and right
// discrete momenta; LgviSe3::nodeMomentumBody), transported to the world, Ad*_{g_k^-1}. With no force
// it IS the left momentum mu^-_k, the discrete momentum map conserved to round-off; under gravity it
// starts exactly at II xi(0), and its kinetic energy plus -m g.x is exactly conserved by the R^3 part.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/integrators/lgvi_se3.h"
#include "engine/integrators/rigid_body_baseline.h"
#include "engine/sim/param.h"
#include "scenes/state_block.h"

namespace varsim {

// The LGVI choices every free-body scene exposes, all live (applied without reset, the state kept):
// group (se3|so3xr3), retraction (cay|exp), tangent (cay|exp|exp_trunc|tln), newton_tol, newton_max_iter.
std::vector<ParamSpec> lgviParamSpecs();
LgviOptions lgviOptionsFrom(const ParamSet& params);
// "SE(3), tau=cay, C=C_cay"-style one-line summary for HUDs.
std::string lgviOptionsText(const LgviOptions& options);

// The body parameters every free-body scene declares: mass (kg), inertia (principal moments), omega.
std::vector<ParamSpec> bodyParamSpecs(double mass, const Vector3d& inertia, const Vector3d& omega,
                                      const std::string& inertiaHelp, const std::string& omegaHelp);
RigidBodyInertia inertiaFromParams(const ParamSet& params);
// Scene validation: throws BadInput naming `inertia` and the violated triangle inequality.
void validateBodyParams(const ParamSet& params);
// A start whose first LGVI step has no root in Newton's reach is refused (BadInput naming dt, the start, the LGVI
// options and the largest dt, halving, whose first step solves; `alternatives` is appended to that advice).
// omega, dt and the LGVI keys are read from `params`, velocity and gravity when the scene has them.
void checkFirstLgviStepSolves(const ParamSet& params, const std::string& alternatives);
// (value - reference)/|reference|, or the plain difference when the reference is 0.
double relativeChange(double value, double reference);

// A rigid body's state in place (scenes/state_block.h): "R" [3 x 3] body -> world, "x" (m, world), "xi" (body
// velocity: omega rad/s, v m/s) and, for the LGVI (muMinus non-null), "mu_minus". The references must be members of
// an integrator object that lives as long as the scene.
std::vector<StateBlock> rigidBodyBlocks(const se3::Pose& g, const Vector6d& xi, const Vector6d* muMinus);

class FreeBodySim {
 public:
  // integrator: "lgvi" or a baseline name of makeRigidBodyBaseline (rk2, rk2i, rk4, newmark; options are then
  // ignored). Throws BadInput on an unknown name, invalid inertia or options.
  FreeBodySim(const std::string& integrator, const RigidBodyInertia& inertia, const LgviOptions& options, const se3::Pose& g0,
              const Vector6d& xi0, const Vector3d& gravity, double h);

  void step(double h);  // throws SimulationDiverged with the state unchanged
  void setOptions(const LgviOptions& options);  // LGVI: live change, keeps the state; baselines: no effect

  bool isLgvi() const { return lgvi_ != nullptr; }
  std::string integratorName() const { return lgvi_ ? "lgvi" : baseline_->name(); }
  const RigidBodyInertia& inertia() const { return inertia_; }
  const se3::Pose& pose() const;
  Vector6d nodeMomentumBody() const;  // LGVI: mu^- + (h/2) f; baselines: II xi
  Vector6d spatialMomentum() const;   // (L about the world origin; p), world frame
  Vector6d velocity() const;          // body (omega, v): LGVI last segment xi_{k-1}, baselines the state
  double kineticEnergy() const;       // 1/2 mu^T II^-1 mu of the node momentum, J
  double potentialEnergy() const;     // -m g . x, J
  double energy() const { return kineticEnergy() + potentialEnergy(); }
  // Scale of the legitimate energy error (J, for the energy monitor): the LGVI's error is bounded
  // and O((h|ω|)²) relative to the kinetic energy (10 % of it at h|ω| = 2, tumbling_body's preset),
  // so K (1 + (h|ω|)²), plus the weight times the body's size m|g| L for a body at rest.
  double energyScale(double h, double size) const;
  int newtonIterations() const;       // 0 for the explicit baselines
  double stepMicros() const { return stepMicros_; }  // wall time of the last step, us
  double time() const;

  // rigidBodyBlocks of the integrator's members, rewritten in place by each step and loadState.
  std::vector<StateBlock> stateBlocks() const;

  std::vector<double> saveState() const;
  void loadState(const std::vector<double>& state);  // throws BadInput on a wrong layout

 private:
  RigidBodyInertia inertia_;
  Vector3d gravity_;
  WrenchField wrench_;
  std::unique_ptr<LgviSe3> lgvi_;
  std::unique_ptr<RigidBodyBaseline> baseline_;
  double stepMicros_ = 0.0;
};

}  // namespace varsim
