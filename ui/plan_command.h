// ui/plan_command.h — `varsim plan PROBLEM.json [--set key=value]... --csv FILE --inputs FILE`: loads a
// trajectory-optimisation problem (assets/problems/*.json) of any registered vehicle (plan/plan_problem.h),
// solves it with Ipopt (plan/ipopt_solver.h), writes the plan and an input file that `varsim run` replays open loop.
#pragma once

#include <string>
#include <vector>

#include "plan/plan_problem.h"

namespace varsim {

constexpr int kExitUnsolved = 4;  // the optimisation did not solve (Ipopt's status is named on stderr)

// args[0] == "plan"; throws BadInput (exit 2); returns 0 solved or kExitUnsolved. Fills `stats` if given.
int planCommand(const std::vector<std::string>& args, PlanStats* stats = nullptr);

}  // namespace varsim
