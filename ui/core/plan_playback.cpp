// ui/core/plan_playback.cpp — Play and the plan → live hand-over; see the header.
#include "ui/core/plan_playback.h"

#include <algorithm>

namespace varsim {

void PlanPlayback::play(SimDriver& driver, const std::string& scene, const PlanOutcome& plan) {
  stop(driver);
  driver.load(scene, plan.sceneParams);  // throws BadInput, the current scene stays
  restore_.clear();
  for (const InputEvent& e : plan.inputs.events()) {
    if (e.kind != InputEvent::Kind::Param || !plan.sceneParams.spec(e.key)) continue;
    const bool seen = std::any_of(restore_.begin(), restore_.end(), [&](const auto& r) { return r.first == e.key; });
    if (!seen) restore_.emplace_back(e.key, plan.sceneParams.value(e.key));
  }
  driver.startReplay(plan.inputs);
  driver.setPaused(false);
  steps_ = plan.steps;
  handedOverAt_ = -1;
  source_ = Source::Plan;
}

std::string PlanPlayback::takeOver(SimDriver& driver, const std::string& why) {
  source_ = Source::Live;
  handedOverAt_ = driver.trackStep();
  driver.stopReplay();
  std::string refused;
  for (const auto& [key, value] : restore_) {
    try {
      driver.setParam(key, value);
    } catch (const BadInput& e) {
      refused += std::string("; ") + e.what();
    }
  }
  restore_.clear();
  return "input: plan -> live at step " + std::to_string(handedOverAt_) + " (" + why + ")" + refused;
}

std::string PlanPlayback::update(SimDriver& driver, bool controlsTouched) {
  if (source_ != Source::Plan) return {};
  if (!driver.replaying()) return takeOver(driver, "the replay stopped");
  return controlsTouched ? takeOver(driver, "a control was touched") : std::string();
}

std::string PlanPlayback::afterStep(SimDriver& driver) {
  if (source_ != Source::Plan || driver.trackStep() < steps_) return {};
  return takeOver(driver, "the plan ended");
}

void PlanPlayback::stop(SimDriver& driver) {
  // Still our replay: hand over quietly (parameters restored). A scene switch already ended it: nothing to restore.
  if (source_ == Source::Plan && driver.replaying()) takeOver(driver, "stopped");
  source_ = Source::Live;
  restore_.clear();
  handedOverAt_ = -1;
}

std::string PlanPlayback::hudLine(const SimDriver& driver) const {
  if (source_ == Source::Plan)
    return "input: PLAN, step " + std::to_string(driver.trackStep()) + " / " + std::to_string(steps_) +
           " (touch a control to take over)";
  if (handedOverAt_ >= 0) return "input: live (plan handed over at step " + std::to_string(handedOverAt_) + ")";
  return {};
}

}  // namespace varsim
