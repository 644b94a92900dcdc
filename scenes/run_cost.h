// The cost guard of a run: from the wall time of the steps taken so far, the estimated wall time of the whole run;
// once that exceeds a budget (60 s) the caller says so (`varsim run` on stderr, the app as a notice), so a long run
// is seen to be working, not hung. Timing is stderr/HUD only: the CSV stays byte-identical.
#pragma once
#include <chrono>
#include <string>

namespace varsim {

class RunCost {
 public:
  static constexpr double kBudgetSeconds = 60.0;
  // The first estimate once the steps taken so far cost this much wall time (or the run is this far in).
  static constexpr double kSampleSeconds = 0.2;
  static constexpr long kSampleSteps = 50;

  explicit RunCost(long totalSteps, double budget = kBudgetSeconds);
  // After step `done` (1-based) of the run: the warning text once, when an estimate first exceeds the budget;
  // "" otherwise. The estimate is made after the first sample and again each time the wall time doubles (0.4 s,
  // 0.8 s, ... up to the budget), since the first steps can run faster than the rest (the chain at dt = 1e-6 s for
  // 3 s: no warning from its first 50 steps, 95 s estimated at 0.4 s, 88 s taken), so a run past the budget is
  // announced before it gets there.
  std::string afterStep(long done);
  double estimate() const { return estimate_; }  // s, 0 before the first estimate

 private:
  long total_;
  double budget_, estimate_ = 0.0, nextCheck_ = 0.0;
  bool warned_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace varsim
