// ui/plan_command.h — `varsim plan PROBLEM.json [--set key=value]... --csv FILE --inputs FILE`: loads a
// trajectory-optimisation problem (assets/problems/*.json) of any registered vehicle (plan/plan_problem.h),
// solves it with Ipopt (plan/plan_session.h, the solve Python's varsim.plan() runs too), writes the plan and an input file that `varsim run` replays open loop.
#pragma once

#include <string>
#include <vector>

#include "plan/plan_problem.h"
#include "plan/plan_session.h"  // kExitUnsolved

namespace varsim {

extern const char* const kPlanUsage;

// args[0] == "plan"; throws BadInput (exit 2); returns 0 solved or kExitUnsolved. Fills `stats` if given.
int planCommand(const std::vector<std::string>& args, PlanStats* stats = nullptr);

}  // namespace varsim
