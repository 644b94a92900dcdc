// plan/plan_budget.h — the CPU budget of a plan solve, one setting for every way a plan is solved: its default and
// its allowed range, read by `varsim plan --cpu-budget S` (ui/plan_command.cpp), Python's varsim.plan(cpu_budget=S)
// (python/py_plan.cpp) and the app's Plan panel (ui/app/plan_panel.cpp), so all three stop a solve alike.
#pragma once

#include <string>

namespace varsim {

// CPU seconds a solve may take (Ipopt's max_cpu_time). The presets take at most 2.8 s (boat_dock); a solve past it
// stops after the iteration in progress with exit 4, so a plan file whose values never converge ends in bounded time
// (the horizons' caps keep one iteration to a few seconds).
constexpr double kPlanCpuBudgetSeconds = 20.0;
constexpr double kMaxPlanCpuBudgetSeconds = 86400.0;  // a day: a bound a typo cannot turn into "forever"

// `text` as a budget in (0, kMaxPlanCpuBudgetSeconds] (the user-number rules of engine/sim/number_text.h); anything
// else throws BadInput "LABEL TEXT: [why; ]allowed > 0 to 86400 (CPU seconds of the solve)", where `label` names
// the option as the caller's user typed it ("--cpu-budget ", "varsim.plan: cpu_budget=").
double parsePlanCpuBudget(const std::string& label, const std::string& text);

}  // namespace varsim
