// The cost guard of a run: from the wall time of the steps taken so far, the estimated wall time of the whole run;
// once that exceeds a budget (60 s) the caller says so at the start (`varsim run` on stderr, the app as a notice),
// so a long run is seen to be working, not hung. Timing is stderr/HUD only: the CSV stays byte-identical.
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
  // After step `done` (1-based) of the run: the warning text once, when the estimate first exceeds the budget;
  // "" otherwise (also for every later call once the estimate was made).
  std::string afterStep(long done);
  double estimate() const { return estimate_; }  // s, 0 before the estimate

 private:
  long total_;
  double budget_, estimate_ = 0.0;
  bool decided_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace varsim
