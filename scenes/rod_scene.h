// Shared machinery of the rod scenes (ladder, chain, sleigh): a rod system stepped by SPOOK or one
// of its baselines (RodSimulation), the relaxation parameters every SPOOK scene declares (global ε,
// τ, γ, per-group multipliers, per-constraint overrides), and plain-data drawing of rods as capsules
// coloured by speed, joints as spheres and translucent ghosts.
#pragma once
#include <Eigen/Core>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/integrators/rattle.h"
#include "engine/integrators/rk4_baumgarte.h"
#include "engine/integrators/spook.h"
#include "engine/models/rod_system.h"
#include "engine/sim/param.h"
#include "render/draw_list.h"

namespace varsim {

enum class StepperKind { Spook, Rk4Baumgarte, Rattle };
const char* stepperName(StepperKind kind);  // "spook" | "rk4_baumgarte" | "rattle"
StepperKind parseStepperKind(const std::string& name);

// One rod system advanced by one stepper. The model is shared (steppers only read it).
class RodSimulation {
 public:
  RodSimulation(const RodSystem& system, StepperKind kind, SparseSolverKind solver, DivergenceLimits limits);
  // Throws SimulationDiverged / SingularSystem, leaving the state as it was.
  void step(double h);
  // For ghosts: a divergence freezes the simulation and is recorded instead of thrown.
  void stepOrFreeze(double h);
  StepperKind kind() const { return kind_; }
  SpookStepper* spook() { return spook_.get(); }
  const SpookStepper* spook() const { return spook_.get(); }
  Rk4Baumgarte* rk4() { return rk4_.get(); }
  void setLimits(const DivergenceLimits& limits);
  double lastStepUs() const { return lastStepUs_; }
  void appendState(std::vector<double>& out) const;        // t, step, diverged, divergedAt, q, v
  size_t readState(const std::vector<double>& in, size_t pos);  // returns the next position; BadInput on size

  MechanicalState state;
  bool diverged = false;
  double divergedAt = 0.0;
  std::string message;

 private:
  const RodSystem& system_;
  StepperKind kind_;
  std::unique_ptr<SpookStepper> spook_;
  std::unique_ptr<Rk4Baumgarte> rk4_;
  std::unique_ptr<Rattle> rattle_;
  double lastStepUs_ = 0.0;
};

// Relaxation parameters: epsilon, tau (+ gamma if the model has blades) and multipliers
// eps_<group>, tau_<group> for each named group; all live.
std::vector<ParamSpec> relaxationParams(const std::vector<std::string>& groups, double defaultTau, bool withGamma);
// Writes the relaxation of every constraint from the parameters, then the per-constraint overrides.
void applyRelaxation(SpookStepper& spook, const RodSystem& system, const ParamSet& params,
                     const std::vector<std::string>& groups, const std::map<int, ConstraintRelaxation>& overrides);
// Divergence limit on violations scaled by the softest compliance: a joint of compliance ε under
// the system's weight W may legitimately stretch ε W; beyond max(10 m, 10 ε W) it has come apart.
DivergenceLimits rodLimits(const RodSystem& system, double maxEpsilon);

// Drawing.
Rgba speedColor(double speed, double fullScale);  // blue (0) → red (≥ fullScale), log scale
void drawRods(const RodSystem& system, const MechanicalState& state, DrawList& out, bool ghost, double speedScale,
              float radius);
void drawJointSpheres(const RodSystem& system, const MechanicalState& state, DrawList& out, float radius, bool ghost);
Mat4 translation(const Eigen::Vector3d& p);

}  // namespace varsim
