// plan/plan_budget.cpp — the plan solve's CPU budget range check; see plan_budget.h.
#include "plan/plan_budget.h"

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "engine/sim/param.h"

namespace varsim {

double parsePlanCpuBudget(const std::string& label, const std::string& text) {
  const NumberText n = parseNumber(text);
  if (!n.ok || !(n.value > 0.0 && n.value <= kMaxPlanCpuBudgetSeconds))
    throw BadInput(label + shortText(text) + ": " + (n.ok ? "" : n.error + "; ") + "allowed > 0 to " +
                   formatNumber(kMaxPlanCpuBudgetSeconds) + " (CPU seconds of the solve)");
  return n.value;
}

}  // namespace varsim
