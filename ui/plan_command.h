// ui/plan_command.h — `varsim plan PROBLEM.json [--set key=value]... --csv FILE --inputs FILE`: loads a
// trajectory-optimisation problem (assets/problems/*.json), transcribes it (engine/control/), solves it with
// Ipopt (plan/ipopt_solver.h), writes the plan and an input file that `varsim run` replays open loop.
#pragma once

#include <string>
#include <vector>

namespace varsim {

constexpr int kExitUnsolved = 4;  // the optimisation did not solve (Ipopt's status is named on stderr)

// What a solve measured (for tests/bench/bench_plan.cpp); wall time covers the Ipopt solve only.
struct PlanStats {
  int variables = 0, constraints = 0, nonzeros = 0, iterations = 0;
  double wallSeconds = 0.0, cost = 0.0, maxDynResidual = 0.0, maxViolation = 0.0;
  std::string status;
};

// args[0] == "plan"; throws BadInput (exit 2); returns 0 solved or kExitUnsolved. Fills `stats` if given.
int planCommand(const std::vector<std::string>& args, PlanStats* stats = nullptr);

}  // namespace varsim
