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
  // Sub-steps (both rules off by default; the scenes use maxChord = 1e-4 m): a frame h is stepped as n
  // equal SPOOK sub-steps and redone from its start with a larger n (up to 64) if a sub-step broke a
  // rule; n depends on the frame's start state only, so runs stay bit-reproducible.
  //  maxChord (m, ≥ 0; 0 = off): the linearisation of the joint rows about the predicted pose missed
  //   no rod end by more than this (RigidRodModel::endLinearisationError: O(hs²|Δω|²), so it counts only
  //   rods whose rotation rate changed — the whiplash's front, not rods that merely spin).
  //  maxTurn (rad, ≥ 0; 0 = off): no rod turned by more than this in a sub-step, at its start or end
  //   rate (the former rule: sub-steps whenever a rod spins, 2–7× the solves; bench_ladder_robust).
  explicit RigidRodSpook(const RodSystem& system, SpookConfig config = {}, double maxTurn = 0.0, double maxChord = 0.0);
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
  int lastSolves() const { return lastSolves_; }   // SPOOK steps the last step took (redone ones included)
  double lastChord() const { return lastChord_; }  // m: its accepted sub-steps' largest end miss (maxChord > 0)
  double lastSubStepLength() const { return lastSubStep_; }  // s: h / lastSubSteps() (spook().multipliers())

 private:
  RigidRodModel model_;
  SpookStepper spook_;
  double maxTurn_, maxChord_;
  MechanicalState twist_, before_, start_;  // scratch: the twist-form state now, at the sub-step's and frame's start
  Eigen::VectorXd predicted_;
  static constexpr int kMaxSubSteps = 64;
  double fastestTurnRate(const MechanicalState& twist) const;
  double overshoot(const MechanicalState& before, double hs, double& chord);
  int lastSubSteps_ = 1, lastSolves_ = 1;
  bool lastRedone_ = false;
  double lastChord_ = 0, lastSubStep_ = 0;
};

}  // namespace varsim
