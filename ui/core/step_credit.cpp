// Step budget credit (see step_credit.h).
#include "ui/core/step_credit.h"

#include <algorithm>
#include <cmath>

namespace varsim {

void StepCredit::setBudget(double seconds) {
  budget_ = std::isfinite(seconds) && seconds > 0.0 ? seconds : 0.0;
  credit_ = 0.0;
}

void StepCredit::beginFrame() {
  if (budget_ > 0.0) credit_ = std::min(credit_ + budget_, kCarry * budget_);
}

void StepCredit::endFrame(double spent) {
  if (budget_ > 0.0) credit_ = std::max(0.0, credit_ - std::max(0.0, spent));
}

}  // namespace varsim
