// Rigid-rod SPOOK step (see rigid_rod_spook.h): rates → twist, one SPOOK step with the retraction
// (or n sub-steps when maxTurn is set), twist → rates at the new pose.
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

RigidRodSpook::RigidRodSpook(const RodSystem& system, SpookConfig config, double maxTurn)
    : model_(system), spook_(model_, predicted(config), &model_), maxTurn_(maxTurn) {
  if (!(maxTurn >= 0) || !std::isfinite(maxTurn))
    throw BadInput("rigid-rod SPOOK: max turn per step = " + std::to_string(maxTurn) + ": allowed [0, inf) rad");
}

double RigidRodSpook::fastestTurnRate(const MechanicalState& twist) const {
  double wmax = 0;
  for (const auto& b : model_.system().bodies())
    if (b.isRod) wmax = std::max(wmax, twist.v.segment<3>(b.offset + 3).norm());
  return wmax;
}

int RigidRodSpook::subSteps(double h, double wmax) const {
  if (!(maxTurn_ > 0)) return 1;
  return int(std::clamp(std::ceil(h * wmax / maxTurn_), 1.0, double(kMaxSubSteps)));
}

// The sub-step count is checked after the fact: a whip's front reaches a rod that was almost still
// at q_k, so |ω| at the start of the step can be far below its value one step later and the
// linearisation about the predicted pose, good to O(h²|Δω|²), misses by O(h²|Δω|²) m. If some rod
// turned faster than n sub-steps allow at any sub-step end, the step is redone once from q_k with the
// count that rate asks for. Both decisions are functions of the step's start state.
void RigidRodSpook::step(MechanicalState& state, double h) {
  twist_.q = state.q;
  model_.toTwist(state.q, state.v, twist_.v);
  twist_.t = state.t;
  twist_.step = state.step;
  start_ = twist_;
  // Throws with `state` untouched (twist_ and start_ are scratch).
  int n = subSteps(h, fastestTurnRate(twist_));
  lastRedone_ = false;
  for (;;) {
    double fastest = 0;
    for (int i = 0; i < n; ++i) {
      spook_.step(twist_, h / n);
      fastest = std::max(fastest, fastestTurnRate(twist_));
    }
    const int needed = subSteps(h, fastest);
    if (needed <= n || lastRedone_) break;
    n = needed;
    twist_ = start_;
    lastRedone_ = true;
  }
  lastSubSteps_ = n;
  state.q = twist_.q;
  model_.toRates(twist_.q, twist_.v, state.v);
  state.t += h;  // not twist_.t: n additions of h/n round differently from one of h
  state.step += 1;
}

}  // namespace varsim
