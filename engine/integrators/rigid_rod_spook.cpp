// Rigid-rod SPOOK step (see rigid_rod_spook.h): rates → twist, one SPOOK step with the retraction,
// twist → rates at the new pose.
#include "engine/integrators/rigid_rod_spook.h"

namespace varsim {

static SpookConfig predicted(SpookConfig c) {
  c.predictedLinearisation = true;  // the joints are curved in ω (spook.h)
  return c;
}

RigidRodSpook::RigidRodSpook(const RodSystem& system, SpookConfig config)
    : model_(system), spook_(model_, predicted(config), &model_) {}

void RigidRodSpook::step(MechanicalState& state, double h) {
  twist_.q = state.q;
  model_.toTwist(state.q, state.v, twist_.v);
  twist_.t = state.t;
  twist_.step = state.step;
  spook_.step(twist_, h);  // throws with twist_ unchanged; `state` is not touched before success
  state.q = twist_.q;
  model_.toRates(twist_.q, twist_.v, state.v);
  state.t = twist_.t;
  state.step = twist_.step;
}

}  // namespace varsim
