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

// How far the sub-step of size hs that took `before` to twist_ overshot the rules (≤ 1: accepted). The
// end miss falls like hs⁴ (Δω and hs both scale with hs), the turn like hs: the ratio is the factor by
// which hs exceeded the largest acceptable sub-step. `chord` receives the end miss (m).
double RigidRodSpook::overshoot(const MechanicalState& before, double hs, double& chord) {
  double r = 0;
  if (maxTurn_ > 0) r = hs * fastestTurnRate(twist_) / maxTurn_;
  if (maxChord_ > 0) {
    chord = model_.endLinearisationError(before.q, before.v, twist_.q, twist_.v, hs, predicted_);
    r = std::max(r, std::pow(chord / maxChord_, 0.25));
  }
  return r;
}

// Sub-steps checked after the fact: the frame h is tried as n equal SPOOK sub-steps (n = 1, or what
// maxTurn asks for at its start); as soon as a sub-step overshoots a rule (overshoot() = r > 1) the
// frame is redone from its start with n ← max(1.5n, n r^{4/3}/0.9) ≤ 64 (the chord miss ∝ r⁴ falls like
// n⁻³ in a whip rather than n⁻⁴: the front's Δω does not spread evenly over the sub-steps; exponents
// 1 … 2 on r measured in notes/rodgap2.md). Only rods whose rates change (whiplash, not the quiet
// swing) make the end miss, so quiet frames take one solve. Sub-steps stay equal within a frame:
// varying them inside it (an ODE-style controller) measured the same solves but destabilised the
// undamped rows of τ = 0 (test_rod_scenes). Every choice is a function of the frame's start state: runs
// are bit-reproducible.
void RigidRodSpook::step(MechanicalState& state, double h) {
  twist_.q = state.q;
  model_.toTwist(state.q, state.v, twist_.v);
  twist_.t = state.t;
  twist_.step = state.step;
  start_ = twist_;
  // Throws with `state` untouched (twist_, before_ and start_ are scratch).
  int n = maxTurn_ > 0 ? int(std::clamp(std::ceil(h * fastestTurnRate(twist_) / maxTurn_), 1.0, double(kMaxSubSteps))) : 1;
  lastSolves_ = 0;
  lastRedone_ = false;
  for (;;) {
    double worst = 0, chord = 0;
    lastChord_ = 0;
    for (int i = 0; i < n; ++i) {
      before_ = twist_;
      spook_.step(twist_, h / n);
      ++lastSolves_;
      worst = std::max(worst, overshoot(before_, h / n, chord));
      lastChord_ = std::max(lastChord_, chord);
      if (worst > 1 && n < kMaxSubSteps) break;  // redone anyway: the rest would be wasted
    }
    if (worst <= 1 || n == kMaxSubSteps) break;
    n = int(std::min(double(kMaxSubSteps), std::max(std::ceil(1.5 * n), std::ceil(n * std::pow(worst, 4.0 / 3.0) / 0.9))));
    twist_ = start_;
    lastRedone_ = true;
  }
  lastSubSteps_ = n;
  lastSubStep_ = h / n;
  state.q = twist_.q;
  model_.toRates(twist_.q, twist_.v, state.v);
  state.t += h;  // not twist_.t: n additions of h/n round differently from one of h
  state.step += 1;
}

}  // namespace varsim
