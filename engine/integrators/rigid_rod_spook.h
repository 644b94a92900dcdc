// The rigid-rod SPOOK stepper (issue 16): seed 001 eq. (29) with joint rows only — each rod a rigid
// body on R³ × S² (rigid_rod_model.h), its velocity the twist (ẋ, ω), the pose advanced by the
// exponential retraction of seed 000. A rod cannot change length: u stays a unit vector instead of
// being held by the linearised row u·u = 1 that runs away when a rod spins at hundreds of rad/s.
// The state it steps is the RodSystem's own (x, u; ẋ, u̇ = ω × u), so diagnostics, drawing and saved
// states are shared with the paper's (x, u) stepper.
#pragma once
#include <vector>

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

  // Re-linearisation (predictor–corrector, off with maxIterations = 0: today's step byte for byte): a
  // sub-step whose end miss exceeds maxChord is solved again with the joint rows linearised about the pose
  // its last solve reached, q̃ = q_k ⊕ h v^(j) (SpookStepper::step's predictor), and the joint forces turning
  // with the rods (RigidRodModel::rotationStiffness), up to maxIterations times while the miss exceeds
  // maxChord and falls. Converged, the rows hold at the end pose (an implicit-constraint SPOOK). For planar
  // motion (rotations add, the stiffness is exact) this is Newton's method: on the ladders the miss falls
  // ×0.4 in the first re-solve and ×0.02–0.09 in the next (bench_ladder_robust --relin); on 3-D chains
  // (no dexp tangent, the symmetric solvers cannot take one) only ×0.5–0.7. A sub-step that still misses
  // sends the frame to the sub-step redo above (each sub-step iterating too) unless subStepFallback is
  // false (the bench's "iteration only": then it is accepted as it is). BadInput outside [0, kMaxRelinearise].
  // Only a sub-step whose first solve missed at most reach·maxChord, and whose retrodicted rows ğ differ from
  // g_k by at most that (SpookStepper::retrodictionJump), iterates (reach ≥ 1, else BadInput); such a sub-step
  // is split until within. ğ is retrodicted over the sub-step that led to the state (the last frame's h/n for a
  // frame's first sub-step: SpookStepper::beginStep's hBefore), so the jump is the rows' change over it; it was
  // retrodicted over the sub-step being taken, which after a frame of other sub-steps is a pose nobody visited,
  // and the jump test then split whipping frames into 17–36 sub-steps (ladder 75; test_rigid_rod_retrodiction).
  void setRelinearise(int maxIterations, bool subStepFallback = true, double reach = kRelineariseReach);
  int maxRelinearise() const { return maxRelinearise_; }
  static constexpr int kMaxRelinearise = 16;
  static constexpr double kRelineariseReach = 30;  // bench_ladder_robust --relin … REACH: 10 costs more, 100 opens gaps

  // One step on the RodSystem state. On a throw (SimulationDiverged, SingularSystem) it is unchanged, and
  // so is the stepper's own state below.
  void step(MechanicalState& state, double h);

  // Newton's first solve (with setRelinearise and maxChord > 0; K = 0 keeps the stepper without it): the
  // first solve of every sub-step is already Newton's step from ṽ = v_k — the joint forces turning with the
  // rods (RigidRodModel::rotationStiffness at q̃ = q_k ⊕ hs v_k), taken at the last solve's joint forces
  // F = λ/hs (λ = F hs here) — instead of a solve with the forces' directions frozen at q̃, which a tense
  // whipping rod overshoots (the plain solve's miss is then mostly beyond max_chord, and the re-solves
  // first contract only ×0.4–0.7). Those forces, and the length hb of the last sub-step (the first sub-step's
  // retrodiction runs over it), are history, not (q, v): they are the stepper's state.
  // saveState() = {1, F, hb} once a step has run with forces, {0, 0…, hb} before (rows + 2 numbers, rows = the
  // multipliers' count; hb = 0 before any step: the first sub-step then retrodicts over its own length);
  // loadState refuses another size (the former {flag, F} layout of rows + 1 numbers with its own message), a
  // flag not 0 or 1, a non-finite force or an hb not finite ≥ 0 (BadInput), and after loadState(saveState())
  // the stepper continues bit-identically.
  std::vector<double> saveState() const;
  void loadState(const std::vector<double>& state);
  void appendState(std::vector<double>& out) const;  // saveState() appended to `out` (no temporary)
  size_t stateSize() const { return size_t(spook_.multipliers().size()) + 2; }

  // The SPOOK stepper over the twist model: relaxation, solver, profile and multipliers, with the
  // RodSystem's constraint indices (unit-length constraints have 0 rows).
  SpookStepper& spook() { return spook_; }
  const SpookStepper& spook() const { return spook_; }
  const RigidRodModel& model() const { return model_; }
  int lastSubSteps() const { return lastSubSteps_; }
  bool lastRedone() const { return lastRedone_; }  // the last step was redone with more sub-steps
  int lastSolves() const { return lastSolves_; }   // SPOOK steps the last step took (redone ones included)
  int lastRelinearisations() const { return lastRelin_; }  // of them, re-linearised re-solves (setRelinearise)
  // µs: the last step's SPOOK solves (SpookProfile::stepUs summed over them); the rest of step() is the sub-step
  // and re-linearisation checks and the rate/twist conversions (bench_ladder --scene splits the two).
  double lastSolvesUs() const { return lastSolvesUs_; }
  double lastChord() const { return lastChord_; }  // m: its accepted sub-steps' largest end miss (maxChord > 0)
  // The constraint impulses of the last frame, summed over its accepted sub-steps (constraint order, as
  // spook().multipliers(), which holds only the last sub-step's): a moving row's work over the frame is its
  // impulse times its prescribed rate, sub-step by sub-step.
  const Eigen::VectorXd& lastFrameImpulse() const { return frameImpulse_; }
  double lastSubStepLength() const { return hBefore_; }  // s: h / lastSubSteps() (spook().multipliers()); 0 before any
  // Every SPOOK solve of the last step in order (maxChord > 0): its re-linearisation index (0: the first
  // solve of a sub-step), end miss about its own linearisation point (m) — the iteration's contraction — and
  // its sub-step's retrodiction jump (m, SpookStepper::retrodictionJump).
  struct Solve {
    int iteration;
    double miss, jump;
  };
  const std::vector<Solve>& lastSolveLog() const { return solveLog_; }

 private:
  RigidRodModel model_;
  SpookStepper spook_;
  double maxTurn_, maxChord_;
  int maxRelinearise_ = 0;
  bool subStepFallback_ = true;
  double reach_ = kRelineariseReach;
  MechanicalState twist_, before_;  // scratch: the twist-form state at the sub-step's end and at its start
  Eigen::VectorXd iterate_, shift_;
  // Newton's first solve: F at the frame's start (state), F of the frame's last sub-step so far, scratch; the F the
  // next sub-step starts from (force_ or nextForce_; null: none yet).
  Eigen::VectorXd force_, nextForce_, guessImpulse_;
  bool haveForce_ = false;
  const Eigen::VectorXd* carriedForce_ = nullptr;
  bool newtonFirst() const { return maxRelinearise_ > 0 && maxChord_ > 0; }
  std::vector<Solve> solveLog_;
  Eigen::VectorXd frameImpulse_;
  static constexpr int kMaxSubSteps = 64;
  double fastestTurnRate(const MechanicalState& twist) const;
  void startFrame(const MechanicalState& state);
  double overshoot(double hs, double chord, double first) const;
  double subStep(double hs, double hb, double& first);
  void relinearise(const SpookFrameStart& start, double& miss);
  int lastSubSteps_ = 1, lastSolves_ = 1, lastRelin_ = 0;
  bool lastRedone_ = false;
  double lastChord_ = 0;
  double lastSolvesUs_ = 0;
  double hBefore_ = 0;  // s: the last accepted sub-step (saved state; 0: none yet)
};

}  // namespace varsim
