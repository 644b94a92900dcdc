// The cost guard (see run_cost.h): one estimate from the first steps' wall time, extrapolated linearly in steps.
#include "scenes/run_cost.h"

#include <cstdio>

namespace varsim {

RunCost::RunCost(long totalSteps, double budget)
    : total_(totalSteps), budget_(budget), start_(std::chrono::steady_clock::now()) {}

std::string RunCost::afterStep(long done) {
  if (decided_ || done <= 0) return {};
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  // The first step may carry one-off set-up (factorisations, caches): estimate from the steps after it when more
  // than one was taken, and only once the sample is long enough to time.
  if (elapsed < kSampleSeconds && done < kSampleSteps && done < total_) return {};
  decided_ = true;
  estimate_ = elapsed / double(done) * double(total_);
  if (estimate_ <= budget_) return {};
  char text[320];
  std::snprintf(text, sizeof text,
                "estimated wall time %.0f s for %ld steps (%.3g s per step over the first %ld), beyond the %.0f s "
                "budget: the run is working, not hung (shorten the duration, raise dt or lower the scene's size)",
                estimate_, total_, elapsed / double(done), done, budget_);
  return text;
}

}  // namespace varsim
