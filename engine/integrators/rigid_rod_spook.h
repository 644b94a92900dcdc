// The rigid-rod SPOOK stepper (issue 16): seed 001 eq. (29) with joint rows only — each rod a rigid
// body on R³ × S² (rigid_rod_model.h), its velocity the twist (ẋ, ω), the pose advanced by the
// exponential retraction of seed 000. A rod cannot change length: u stays a unit vector instead of
// being held by the linearised row u·u = 1 that runs away when a rod spins at hundreds of rad/s.
// The state it steps is the RodSystem's own (x, u; ẋ, u̇ = ω × u), so diagnostics, drawing and saved
// states are shared with the paper's (x, u) stepper.
#pragma once
#include "engine/integrators/rigid_rod_model.h"
#include "engine/integrators/spook.h"

namespace varsim {

class RigidRodSpook {
 public:
  // maxTurn (rad, ≥ 0; 0 = off, the default here; the scenes use 0.03): a step in which the fastest
  // rod would turn by more than maxTurn is split into n = ⌈h |ω|max / maxTurn⌉ ≤ 64 equal SPOOK steps,
  // with |ω|max taken at the step's start and, after the fact, at every sub-step's end (a step that
  // needed more is redone once from its start with that count). n depends on the state only, so
  // runs stay bit-reproducible. Measured in bench_ladder_robust.
  explicit RigidRodSpook(const RodSystem& system, SpookConfig config = {}, double maxTurn = 0.0);
  RigidRodSpook(const RigidRodSpook&) = delete;
  RigidRodSpook& operator=(const RigidRodSpook&) = delete;

  // One step on the RodSystem state. On a throw (SimulationDiverged, SingularSystem) it is unchanged.
  void step(MechanicalState& state, double h);

  // The SPOOK stepper over the twist model: relaxation, solver, profile and multipliers, with the
  // RodSystem's constraint indices (unit-length constraints have 0 rows).
  SpookStepper& spook() { return spook_; }
  const SpookStepper& spook() const { return spook_; }
  const RigidRodModel& model() const { return model_; }
  int lastSubSteps() const { return lastSubSteps_; }
  bool lastRedone() const { return lastRedone_; }  // the last step was redone with more sub-steps

 private:
  RigidRodModel model_;
  SpookStepper spook_;
  double maxTurn_;
  MechanicalState twist_, start_;  // scratch: the state in twist form
  static constexpr int kMaxSubSteps = 64;
  double fastestTurnRate(const MechanicalState& twist) const;
  int subSteps(double h, double wmax) const;
  int lastSubSteps_ = 1;
  bool lastRedone_ = false;
};

}  // namespace varsim
