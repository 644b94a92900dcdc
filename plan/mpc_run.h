// plan/mpc_run.h — `varsim mpc PROBLEM.json [options]`: runs a plan problem's vehicle in closed loop under the
// receding-horizon controller (plan/mpc_controller.h) and writes the scene's CSV plus the controller's columns. The
// command (ui/headless_runner.cpp) and Python's varsim.mpc() (python/py_module.cpp) run this one function.
#pragma once

#include <string>
#include <vector>

namespace varsim {

extern const char* const kMpcUsage;

struct MpcRunResult {
  int exitCode = 0;     // 0 the run completed, 4 no solve was ever adopted (the controller never had a feasible plan)
  std::string summary;  // "mpc SOURCE: K steps of h=H, S solves (A adopted, ...)", the command's stderr line
};

// args[0] == "mpc"; throws BadInput (exit 2) and SimulationDiverged (exit 3).
MpcRunResult runMpc(const std::vector<std::string>& args);

}  // namespace varsim
