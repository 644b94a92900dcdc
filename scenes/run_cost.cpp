// The cost guard (see run_cost.h): estimates from the wall time so far, extrapolated linearly in steps, renewed
// at doubling wall times until one exceeds the budget or the budget has passed.
#include "scenes/run_cost.h"

#include <algorithm>
#include <cstdio>

namespace varsim {

RunCost::RunCost(long totalSteps, double budget)
    : total_(totalSteps), budget_(budget), start_(std::chrono::steady_clock::now()) {}

std::string RunCost::afterStep(long done) {
  if (warned_ || done <= 0 || done >= total_) return {};
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (nextCheck_ == 0.0) {  // the first estimate: once the sample is long enough to time
    if (elapsed < kSampleSeconds && done < kSampleSteps) return {};
  } else if (elapsed < nextCheck_ || elapsed > budget_) {
    return {};
  }
  nextCheck_ = 2.0 * std::max(elapsed, kSampleSeconds);
  estimate_ = elapsed / double(done) * double(total_);
  if (estimate_ <= budget_) return {};
  warned_ = true;
  char text[320];
  std::snprintf(text, sizeof text,
                "estimated wall time %.0f s for %ld steps (%.3g s per step over the first %ld), beyond the %.0f s "
                "budget: the run is working, not hung (shorten the duration, raise dt or lower the scene's size)",
                estimate_, total_, elapsed / double(done), done, budget_);
  return text;
}

}  // namespace varsim
