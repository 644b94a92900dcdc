// One rod system advanced by one stepper: SPOOK with either rod model (rigid bodies on R³ × S², or the
// paper's centre + director of seed 001 Sec. 6) or one of its baselines (RK4 + Baumgarte, RATTLE), with
// the divergence freeze the ghosts use and the state's save/restore.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "engine/integrators/rattle.h"
#include "engine/integrators/rigid_rod_spook.h"
#include "engine/integrators/rk4_baumgarte.h"
#include "engine/integrators/spook.h"
#include "engine/models/rod_system.h"
#include "scenes/state_block.h"

namespace varsim {

enum class StepperKind { Spook, Rk4Baumgarte, Rattle };
const char* stepperName(StepperKind kind);  // "spook" | "rk4_baumgarte" | "rattle"
StepperKind parseStepperKind(const std::string& name);
// What a rod is for SPOOK: a rigid body on R³ × S² (rigid_rod_spook.h, no length row) or the paper's
// centre + director with the row u·u = 1 (seed 001 Sec. 6). The baselines always use the director.
enum class RodModelKind { Rigid, Director };
const char* rodModelName(RodModelKind kind);  // "rigid" | "director"
RodModelKind parseRodModelKind(const std::string& name);

// One rod system advanced by one stepper. The model is shared (steppers only read it).
class RodSimulation {
 public:
  // maxTurn, maxChord: the rigid model's sub-step rules; maxRelinearise: its re-linearisations per sub-step
  // (rigid_rod_spook.h; 0, 0, 0 = one step).
  RodSimulation(const RodSystem& system, StepperKind kind, SparseSolverKind solver, DivergenceLimits limits,
                RodModelKind model = RodModelKind::Director, double maxTurn = 0.0, double maxChord = 0.0,
                int maxRelinearise = 0);
  // Throws SimulationDiverged / SingularSystem, leaving the state as it was.
  void step(double h);
  // For ghosts: a divergence freezes the simulation and is recorded instead of thrown.
  void stepOrFreeze(double h);
  StepperKind kind() const { return kind_; }
  // The SPOOK stepper of either rod model (constraint indices are the RodSystem's), or null.
  SpookStepper* spook() { return rigid_ ? &rigid_->spook() : spook_.get(); }
  const SpookStepper* spook() const { return rigid_ ? &rigid_->spook() : spook_.get(); }
  bool rigid() const { return rigid_ != nullptr; }
  int lastSubSteps() const { return rigid_ ? rigid_->lastSubSteps() : 1; }
  // SPOOK: the last step's constraint impulses (rigid: summed over its sub-steps), constraint order; null for
  // the baselines.
  const Eigen::VectorXd* lastStepImpulse() const {
    return rigid_ ? &rigid_->lastFrameImpulse() : spook_ ? &spook_->multipliers() : nullptr;
  }
  int lastSolves() const { return rigid_ ? rigid_->lastSolves() : 1; }  // sub-steps plus the redone ones
  int lastRelinearisations() const { return rigid_ ? rigid_->lastRelinearisations() : 0; }  // of them, re-solves
  Rk4Baumgarte* rk4() { return rk4_.get(); }
  void setLimits(const DivergenceLimits& limits);
  double lastStepUs() const { return lastStepUs_; }
  // µs of the last step's SPOOK solves (rigid: summed over its sub-steps and re-solves); the whole step otherwise.
  double lastSolvesUs() const;
  void appendState(std::vector<double>& out) const;  // t, step, diverged, divergedAt, q, v; rigid: its stepper's state
  size_t stateSize() const;                           // the numbers appendState appends
  static constexpr size_t kStateHead = 5;             // t, step, diverged, divergedAt, energyGrowthAt
  size_t readState(const std::vector<double>& in, size_t pos);  // returns the next position; BadInput on size
  // state.q and state.v in place (every stepper commits into them, engine/models/constrained_model.h commitState;
  // readState assigns at equal size): "q", "v" flat, and when every body is a rod (6 coordinates each, in order)
  // "x", "u", "x_dot", "u_dot" as [bodies x 3] views of them.
  std::vector<StateBlock> stateBlocks() const;

  MechanicalState state;
  bool diverged = false;
  double divergedAt = 0.0;
  double energyGrowthAt = -1.0;  // s: first time its energy rose above the scene's E(0) (ghosts; < 0: never)
  std::string message;

 private:
  const RodSystem& system_;
  StepperKind kind_;
  std::unique_ptr<SpookStepper> spook_;
  std::unique_ptr<RigidRodSpook> rigid_;
  std::unique_ptr<Rk4Baumgarte> rk4_;
  std::unique_ptr<Rattle> rattle_;
  double lastStepUs_ = 0.0;
};

}  // namespace varsim
