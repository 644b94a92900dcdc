// plan/plan_session.h — one headless solve of a plan problem, as `varsim plan` (ui/plan_command.cpp) and Python's
// varsim.plan() (python/py_plan.cpp) both run it: build the problem's instance from a PlanSetup, solve it with
// Ipopt (max_iter from the plan keys) reporting one progress line per iteration, then write the plan CSV and the
// replay inputs. One code path, so the command's files and Python's arrays hold the same bits.
#pragma once

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <string>

#include "plan/ipopt_solver.h"
#include "plan/plan_budget.h"
#include "plan/plan_problem.h"

namespace varsim {

constexpr int kExitUnsolved = 4;  // the optimisation did not solve (Ipopt's status is named on stderr)

class PlanSession {
 public:
  using Log = std::function<void(const std::string&)>;  // one progress line, without its newline

  explicit PlanSession(const PlanSetup& setup);  // builds the instance; throws BadInput as the problem's build does

  const PlanInstance& instance() const { return *plan_; }
  const IpoptResult& result() const { return result_; }
  // Ipopt's linear solver for solve() (default IpoptSettings's).
  void setKktSolver(KktSolver solver) { kktSolver_ = solver; }
  // "plan SOURCE: V variables, C constraints", the command's first line.
  std::string header() const;
  // Solves with Ipopt from the problem's initial guess within `cpuBudgetSeconds` (> 0); `log` (optional) gets each
  // iteration's line "iter    k  objective ...  inf_pr ...  inf_du ...". Records the solve's wall and CPU time.
  const IpoptResult& solve(const Log& log = {}, double cpuBudgetSeconds = kPlanCpuBudgetSeconds);
  // The last line: "solved (STATUS): K iterations, cost C; replay: COMMAND" or "not solved: Ipopt status S after K
  // iterations; smallest primal infeasibility I (iteration J)", naming the CPU budget when it ran out (the command
  // prefixes it with "varsim: ").
  std::string outcome(const std::string& inputsPath) const;
  // After a successful solve: the plan CSV and the inputs file `varsim run` replays (BadInput if unwritable).
  void write(const std::string& csvPath, const std::string& inputsPath) const;
  // What the solve measured (sizes, iterations, times, cost, residuals; the baseline if the plan solved). Costs a
  // Jacobian evaluation and, with a baseline, a replay: computed on request.
  PlanStats stats() const;

 private:
  std::unique_ptr<PlanInstance> plan_;
  IpoptResult result_;
  KktSolver kktSolver_ = IpoptSettings{}.kktSolver;
  double wallSeconds_ = 0.0, cpuSeconds_ = 0.0, cpuBudget_ = 0.0;
  double bestInfeasibility_ = -1.0;  // smallest inf_pr over the iterations (< 0: no iteration reported)
  int bestIteration_ = 0;
};

}  // namespace varsim
