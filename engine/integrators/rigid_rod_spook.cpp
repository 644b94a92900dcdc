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

int RigidRodSpook::subSteps(double h) const {
  if (!(maxTurn_ > 0)) return 1;
  double wmax = 0;
  for (const auto& b : model_.system().bodies())
    if (b.isRod) wmax = std::max(wmax, twist_.v.segment<3>(b.offset + 3).norm());
  return int(std::clamp(std::ceil(h * wmax / maxTurn_), 1.0, double(kMaxSubSteps)));
}

void RigidRodSpook::step(MechanicalState& state, double h) {
  twist_.q = state.q;
  model_.toTwist(state.q, state.v, twist_.v);
  twist_.t = state.t;
  twist_.step = state.step;
  // Throws with `state` untouched (twist_ is scratch).
  const int n = subSteps(h);
  lastSubSteps_ = n;
  for (int i = 0; i < n; ++i) spook_.step(twist_, h / n);
  state.q = twist_.q;
  model_.toRates(twist_.q, twist_.v, state.v);
  state.t += h;  // not twist_.t: n additions of h/n round differently from one of h
  state.step += 1;
}

}  // namespace varsim
