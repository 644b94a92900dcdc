// tests/bench/bench_plan.cpp — `varsim plan` on the car_park preset at three resolutions of the same 10 s
// horizon (N dt = 10 s): size of the NLP, Ipopt iterations, wall time of the solve, cost, max dynamics residual
// and max constraint/bound violation. Prints a Markdown table (a benchmark, not a test: no assertions on time).
#include <cstdio>
#include <string>

#include "ui/plan_command.h"

using namespace varsim;

int main(int argc, char** argv) {
  const std::string problem = argc > 1 ? argv[1] : std::string(VARSIM_SOURCE_DIR) + "/assets/problems/car_park.json";
  std::printf("| preset | N | dt (s) | variables | constraints | Jacobian nonzeros | iterations | wall (s) | cost | "
              "max dyn_residual | max violation | status |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& [N, dt] : {std::pair<int, const char*>{100, "0.1"}, {200, "0.05"}, {400, "0.025"}}) {
    PlanStats s;
    planCommand({"plan", problem, "--set", "N=" + std::to_string(N), "--set", std::string("dt=") + dt, "--csv",
                 "/tmp/bench_plan.csv", "--inputs", "/tmp/bench_plan_inputs.csv"},
                &s);
    std::printf("| car_park | %d | %s | %d | %d | %d | %d | %.2f | %.6g | %.1e | %.1e | %s |\n", N, dt, s.variables,
                s.constraints, s.nonzeros, s.iterations, s.wallSeconds, s.cost, s.maxDynResidual, s.maxViolation,
                s.status.c_str());
    std::fflush(stdout);
  }
  return 0;
}
