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
  explicit RigidRodSpook(const RodSystem& system, SpookConfig config = {});
  RigidRodSpook(const RigidRodSpook&) = delete;
  RigidRodSpook& operator=(const RigidRodSpook&) = delete;

  // One step on the RodSystem state. On a throw (SimulationDiverged, SingularSystem) it is unchanged.
  void step(MechanicalState& state, double h);

  // The SPOOK stepper over the twist model: relaxation, solver, profile and multipliers, with the
  // RodSystem's constraint indices (unit-length constraints have 0 rows).
  SpookStepper& spook() { return spook_; }
  const SpookStepper& spook() const { return spook_; }
  const RigidRodModel& model() const { return model_; }

 private:
  RigidRodModel model_;
  SpookStepper spook_;
  MechanicalState twist_;  // scratch: the state in twist form
};

}  // namespace varsim
