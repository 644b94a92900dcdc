// Rigid-rod SPOOK step (see rigid_rod_spook.h): rates → twist, one SPOOK step with the retraction
// (or n sub-steps when maxTurn or maxChord asks for them), twist → rates at the new pose.
#include "engine/integrators/rigid_rod_spook.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/sim/errors.h"

namespace varsim {

static SpookConfig predicted(SpookConfig c) {
  c.predictedLinearisation = true;  // the joints are curved in ω (spook.h)
  return c;
}

RigidRodSpook::RigidRodSpook(const RodSystem& system, SpookConfig config, double maxTurn, double maxChord)
    : model_(system), spook_(model_, predicted(config), &model_), maxTurn_(maxTurn), maxChord_(maxChord) {
  if (!(maxTurn >= 0) || !std::isfinite(maxTurn))
    throw BadInput("rigid-rod SPOOK: max turn per step = " + std::to_string(maxTurn) + ": allowed [0, inf) rad");
  if (!(maxChord >= 0) || !std::isfinite(maxChord))
    throw BadInput("rigid-rod SPOOK: max chord error per step = " + std::to_string(maxChord) + ": allowed [0, inf) m");
}

double RigidRodSpook::fastestTurnRate(const MechanicalState& twist) const {
  double wmax = 0;
  for (const auto& b : model_.system().bodies())
    if (b.isRod) wmax = std::max(wmax, twist.v.segment<3>(b.offset + 3).norm());
  return wmax;
}

void RigidRodSpook::setRelinearise(int maxIterations, bool subStepFallback, double reach) {
  if (maxIterations < 0 || maxIterations > kMaxRelinearise)
    throw BadInput("rigid-rod SPOOK: max_relinearise = " + std::to_string(maxIterations) + ": allowed [0, " +
                   std::to_string(kMaxRelinearise) + "]");
  if (!(reach >= 1) || !std::isfinite(reach))
    throw BadInput("rigid-rod SPOOK: re-linearisation reach = " + std::to_string(reach) + ": allowed [1, inf)");
  maxRelinearise_ = maxIterations;
  subStepFallback_ = subStepFallback;
  reach_ = reach;
}

// How far the sub-step of size hs that ended at twist_ overshot the rules (≤ 1: accepted); `chord` is the
// end miss of the solve kept, `first` that of its first solve. The end miss falls like hs⁴ (Δω and hs both
// scale with hs), the turn like hs: the ratio is the factor by which hs exceeded the largest acceptable
// sub-step. Re-linearising, a first-solve miss up to reach·maxChord is acceptable (rigid_rod_spook.h).
double RigidRodSpook::overshoot(double hs, double chord, double first) const {
  double r = 0;
  if (maxTurn_ > 0) r = hs * fastestTurnRate(twist_) / maxTurn_;
  if (maxChord_ > 0) r = std::max(r, std::pow(chord / maxChord_, 0.25));
  if (maxChord_ > 0 && maxRelinearise_ > 0) r = std::max(r, std::pow(first / (reach_ * maxChord_), 0.25));
  return r;
}

// One sub-step of size hs from before_ into twist_, retrodicted over hb, the sub-step that led to it
// (SpookStepper::beginStep; 0: unknown): the first solve about q_k ⊕ hs v_k — Newton's step
// from v_k at the carried joint forces once there are any (rigid_rod_spook.h), else the solve with the forces'
// directions frozen there (K = 0: always) — then the re-linearisations if its miss is within reach. Returns
// the end miss of the solve kept (m, about the q̃ SpookStepper already retracted for it; 0 without maxChord);
// `first` receives the first solve's.
double RigidRodSpook::subStep(double hs, double hb, double& first) {
  const SpookFrameStart start = spook_.beginStep(before_, hs, hb);  // g_k, ğ, D, f: once for all its solves
  if (newtonFirst() && carriedForce_) {                             // Newton's first solve (rigid_rod_spook.h)
    guessImpulse_ = hs * *carriedForce_;  // at q̃ = q_k ⊕ hs v_k, which beginStep retracted (its predictedPose)
    model_.rotationStiffness(spook_.predictedPose(), guessImpulse_, hs, before_.t, shift_);
    spook_.stepInto(start, before_, twist_, &before_.v, &shift_);  // ṽ = v_k itself: that q̃ is re-used, no copy to compare
  } else {
    spook_.stepInto(start, before_, twist_);
  }
  ++lastSolves_;
  lastSolvesUs_ += spook_.profile().stepUs;
  first = 0;
  if (maxChord_ <= 0) return 0;
  double miss = first = model_.endLinearisationErrorAbout(spook_.predictedPose(), before_.v, twist_.q, twist_.v, hs);
  solveLog_.push_back({0, miss, spook_.retrodictionJump()});
  if (maxRelinearise_ > 0) first = std::max(first, spook_.retrodictionJump());  // ğ off: iterating cannot help
  if (first <= reach_ * maxChord_) relinearise(start, miss);
  return miss;
}

// Re-solves the sub-step about q̃ = q_k ⊕ hs v^(j), with the joint forces' turn with the rods
// (RigidRodModel::rotationStiffness at q̃ and the last impulses: without it the iteration is a fixed point
// that diverges once h²|f|/(m l) ≫ 1, as in every ladder whip), while the miss (now about q̃: the rows' residual at the
// end pose beyond their linear model) exceeds maxChord, at most maxRelinearise_ times. An iterate that
// misses more than the one before, or diverges, is dropped (the one before is rebuilt: the retraction is
// deterministic) and the iteration stops: the sub-step redo takes over.
void RigidRodSpook::relinearise(const SpookFrameStart& start, double& miss) {
  const double hs = start.h;
  for (int j = 1; j <= maxRelinearise_ && miss > maxChord_; ++j) {
    iterate_.swap(twist_.v);  // the solve below writes all of twist_
    model_.rotationStiffness(twist_.q, spook_.multipliers(), hs, twist_.t, shift_);
    double next = miss;
    try {
      ++lastSolves_;
      ++lastRelin_;
      spook_.stepInto(start, before_, twist_, &iterate_, &shift_);  // from before_, as the first solve: its g_k, ğ, f kept
      lastSolvesUs_ += spook_.profile().stepUs;
      next = model_.endLinearisationErrorAbout(spook_.predictedPose(), iterate_, twist_.q, twist_.v, hs);
      solveLog_.push_back({j, next, spook_.retrodictionJump()});
    } catch (const SimulationDiverged&) {
      next = miss;  // twist_ left as it was (its v is stale: rebuilt below)
    }
    if (next < miss) {
      miss = next;
      continue;
    }
    model_.retract(before_.q, iterate_, hs, twist_.q);  // back to iterate j − 1, as SpookStepper::step built it
    twist_.v.swap(iterate_);
    twist_.t = before_.t + hs;
    twist_.step = before_.step + 1;
    return;
  }
}

std::vector<double> RigidRodSpook::saveState() const {
  std::vector<double> s;
  appendState(s);
  return s;
}

void RigidRodSpook::appendState(std::vector<double>& out) const {
  const size_t rows = size_t(spook_.multipliers().size()), at = out.size();
  out.resize(at + rows + 2, 0.0);
  out[at + rows + 1] = hBefore_;
  if (!haveForce_) return;
  out[at] = 1.0;
  std::copy(force_.data(), force_.data() + force_.size(), out.begin() + long(at) + 1);
}

void RigidRodSpook::loadState(const std::vector<double>& state) {
  const size_t rows = size_t(spook_.multipliers().size());
  if (state.size() == rows + 1)
    throw BadInput("rigid-rod SPOOK state: " + std::to_string(state.size()) +
                   " numbers: the former layout, without the last sub-step's length; allowed exactly " +
                   std::to_string(rows + 2) + " (a flag, the joint forces and that length)");
  if (state.size() != rows + 2)
    throw BadInput("rigid-rod SPOOK state: " + std::to_string(state.size()) + " numbers: allowed exactly " +
                   std::to_string(rows + 2) + " (a flag, the joint forces and the last sub-step's length)");
  if (state[0] != 0.0 && state[0] != 1.0)
    throw BadInput("rigid-rod SPOOK state: force flag = " + std::to_string(state[0]) + ": allowed 0 or 1");
  for (size_t i = 1; i <= rows; ++i)
    if (!std::isfinite(state[i]))
      throw BadInput("rigid-rod SPOOK state: joint force " + std::to_string(i - 1) + " = " + std::to_string(state[i]) +
                     ": allowed a finite number (N)");
  if (!(state[rows + 1] >= 0) || !std::isfinite(state[rows + 1]))
    throw BadInput("rigid-rod SPOOK state: last sub-step length = " + std::to_string(state[rows + 1]) +
                   ": allowed [0, inf) s (0: none yet)");
  haveForce_ = state[0] == 1.0;
  if (haveForce_) force_ = Eigen::Map<const Eigen::VectorXd>(state.data() + 1, long(rows));
  else force_.resize(0);
  hBefore_ = state[rows + 1];
}

// Sub-steps checked after the fact: the frame h is tried as n equal SPOOK sub-steps (n = 1, or what
// maxTurn asks for at its start); as soon as a sub-step overshoots a rule (overshoot() = r > 1) the
// frame is redone from its start with n ← max(1.5n, n r^{4/3}/0.9) ≤ 64 (the chord miss ∝ r⁴ falls like
// n⁻³ in a whip rather than n⁻⁴: the front's Δω does not spread evenly over the sub-steps; exponents
// 1 … 2 on r measured with bench_ladder_robust --relin on the whipping ladders). Only rods whose rates
// change (whiplash, not the quiet swing) make the end miss, so quiet frames take one solve. Sub-steps
// stay equal within a frame: varying them inside it (an ODE-style controller) measured the same solves
// but destabilised the undamped rows of τ = 0 (test_rod_scenes). With setRelinearise each sub-step first
// iterates (subStep) and the redo grows n from the miss left after iterating. Every choice is a function of the frame's
// start state: runs are bit-reproducible.
// The frame's start in twist form, made again from the untouched `state` for a redo (bit for bit: no copy kept).
// Each sub-step steps from before_ into twist_ (SpookStepper::stepInto), and the two are exchanged after it: before_
// is always the start of the sub-step being taken.
void RigidRodSpook::startFrame(const MechanicalState& state) {
  before_.q = state.q;
  model_.toTwist(state.q, state.v, before_.v);
  before_.t = state.t;
  before_.step = state.step;
}

void RigidRodSpook::step(MechanicalState& state, double h) {
  startFrame(state);
  // Throws with `state` untouched (twist_ and before_ are scratch).
  int n = maxTurn_ > 0 ? int(std::clamp(std::ceil(h * fastestTurnRate(before_) / maxTurn_), 1.0, double(kMaxSubSteps))) : 1;
  lastSolves_ = 0;
  lastSolvesUs_ = 0;
  lastRelin_ = 0;
  lastRedone_ = false;
  solveLog_.clear();
  for (;;) {
    double worst = 0;
    lastChord_ = 0;
    carriedForce_ = haveForce_ ? &force_ : nullptr;  // the frame's first sub-step starts from the carried forces
    frameImpulse_.setZero(spook_.multipliers().size());
    for (int i = 0; i < n; ++i) {
      double first = 0;
      const double chord = subStep(h / n, i == 0 ? hBefore_ : h / n, first);
      frameImpulse_ += spook_.multipliers();
      if (newtonFirst()) {
        nextForce_ = spook_.multipliers() / (h / n);
        carriedForce_ = &nextForce_;
      }
      worst = std::max(worst, overshoot(h / n, chord, first));
      lastChord_ = std::max(lastChord_, chord);
      std::swap(before_, twist_);  // its end is the next sub-step's start (buffers exchanged, not copied)
      if (worst > 1 && n < kMaxSubSteps && subStepFallback_) break;  // redone anyway: the rest would be wasted
    }
    if (worst <= 1 || n == kMaxSubSteps || !subStepFallback_) break;
    n = int(std::min(double(kMaxSubSteps), std::max(std::ceil(1.5 * n), std::ceil(n * std::pow(worst, 4.0 / 3.0) / 0.9))));
    startFrame(state);
    lastRedone_ = true;
  }
  lastSubSteps_ = n;
  hBefore_ = h / n;
  if (newtonFirst()) {
    force_.swap(nextForce_);  // n ≥ 1 sub-steps ran: nextForce_ holds the last one's
    haveForce_ = true;
  }
  state.q = before_.q;  // the frame's end (swapped in after its last sub-step); a copy: state.q keeps its address
  model_.toRates(state.q, before_.v, state.v);
  state.t += h;  // not before_.t: n additions of h/n round differently from one of h
  state.step += 1;
}

}  // namespace varsim
