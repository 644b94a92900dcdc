// ui/mpc_command.h — `varsim mpc PROBLEM.json [options]`: runs a plan problem's vehicle in closed loop under the
// receding-horizon controller (plan/mpc_controller.h) and writes the scene's CSV plus the controller's columns.
#pragma once

#include <string>
#include <vector>

namespace varsim {

extern const char* const kMpcUsage;

// args[0] == "mpc"; throws BadInput (exit 2); returns 0 when the run completed, 4 when no solve was ever adopted
// (the controller never had a feasible plan).
int mpcCommand(const std::vector<std::string>& args);

}  // namespace varsim
