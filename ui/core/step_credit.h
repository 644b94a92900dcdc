// Wall-time credit of SimDriver::frame's step budget: each frame adds the budget B, unused credit carries
// over up to 2B, and a frame runs another owed step while it would end within its credit. A step longer
// than B/2 but shorter than B then still repays a backlog (one extra step every few frames: throughput
// B/c steps per frame at step cost c), where a budget reset every frame ran one step and never caught up.
#pragma once

namespace varsim {

class StepCredit {
 public:
  void setBudget(double seconds);  // ≤ 0 or not finite: no budget (every owed step runs); resets the credit
  double budget() const { return budget_; }
  void beginFrame();  // credit += B, at most kCarry B
  // True if a step of cost `next` after `spent` seconds of this frame's steps ends within the credit
  // (always with no budget; the caller runs the frame's first step regardless).
  bool allows(double spent, double next) const { return budget_ <= 0.0 || spent + next <= credit_; }
  void endFrame(double spent);     // credit −= spent, at least 0: an over-long step is not carried as debt
  void reset() { credit_ = 0.0; }  // paused, or a scene (re)built: nothing saved up
  double credit() const { return credit_; }
  static constexpr double kCarry = 2.0;  // the credit's cap, in budgets

 private:
  double budget_ = 0.0, credit_ = 0.0;
};

}  // namespace varsim
