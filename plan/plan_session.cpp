// plan/plan_session.cpp — the headless plan solve shared by `varsim plan` and Python; see plan_session.h.
#include "plan/plan_session.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <vector>

#include "engine/sim/errors.h"

namespace varsim {

PlanSession::PlanSession(const PlanSetup& setup) {
  const PlanProblemInfo* info = PlanProblemRegistry::find(setup.scene.scene);
  if (!info) throw BadInput(setup.source + ": scene '" + setup.scene.scene + "' has no plan problem");
  plan_ = info->build(setup);
}

std::string PlanSession::header() const {
  const Nlp& nlp = plan_->nlp();
  return "plan " + plan_->setup().source + ": " + std::to_string(nlp.numVariables()) + " variables, " +
         std::to_string(nlp.numConstraints()) + " constraints";
}

const IpoptResult& PlanSession::solve(const Log& log, double cpuBudgetSeconds) {
  IpoptSettings settings;
  settings.maxIterations = int(plan_->setup().plan.integer("max_iter"));
  settings.maxCpuSeconds = cpuBudget_ = cpuBudgetSeconds;
  settings.maxDualInfeasibility = 1e10;  // ipopt_solver.h: six orders above every preset's largest
  settings.kktSolver = kktSolver_;
  bestInfeasibility_ = -1.0;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  result_ = solveWithIpopt(plan_->nlp(), settings, [this, &log](const IpoptIteration& it) {
    if (bestInfeasibility_ < 0.0 || it.primalInfeasibility < bestInfeasibility_) {
      bestInfeasibility_ = it.primalInfeasibility;
      bestIteration_ = it.iteration;
    }
    if (log) {
      char line[160];
      std::snprintf(line, sizeof line, "iter %4d  objective %.9e  inf_pr %.3e  inf_du %.3e", it.iteration,
                    it.objective, it.primalInfeasibility, it.dualInfeasibility);
      log(line);
    }
    return true;
  });
  wallSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  cpuSeconds_ = double(std::clock() - c0) / CLOCKS_PER_SEC;
  return result_;
}

std::string PlanSession::outcome(const std::string& inputsPath) const {
  const IpoptResult& r = result_;
  if (!r.solved) {
    char text[200] = "";
    if (r.status == "Maximum_CpuTime_Exceeded")
      std::snprintf(text, sizeof text, "the CPU budget of %g s ran out; ", cpuBudget_);
    std::string line = "not solved: " + std::string(text) + "Ipopt status " + r.status + " after " +
                       std::to_string(r.iterations) + " iterations";
    if (bestInfeasibility_ >= 0.0) {
      std::snprintf(text, sizeof text, "; smallest primal infeasibility %.3e (iteration %d)", bestInfeasibility_,
                    bestIteration_);
      line += text;
    }
    return line;
  }
  char cost[64];
  std::snprintf(cost, sizeof cost, "%.9g", r.objective);
  return "solved (" + r.status + "): " + std::to_string(r.iterations) + " iterations, cost " + cost +
         "; replay: " + plan_->replayCommand(inputsPath, r.x);
}

void PlanSession::write(const std::string& csvPath, const std::string& inputsPath) const {
  if (!result_.solved) throw BadInput("plan " + plan_->setup().source + ": not solved (" + result_.status + "); nothing to write");
  plan_->writeCsv(csvPath, result_.x);
  plan_->writeInputs(inputsPath, result_.x);
}

PlanStats PlanSession::stats() const {
  const Nlp& nlp = plan_->nlp();
  const IpoptResult& r = result_;
  std::vector<Eigen::Triplet<double>> t;
  nlp.jacobian(r.x, t);
  PlanStats s;
  s.variables = nlp.numVariables();
  s.constraints = nlp.numConstraints();
  s.nonzeros = int(t.size());
  if (nlp.hasHessian()) {
    nlp.hessian(r.x, 1.0, Eigen::VectorXd::Zero(nlp.numConstraints()), t);
    s.hessianNonzeros = int(t.size());
  }
  s.iterations = r.iterations;
  s.wallSeconds = wallSeconds_;
  s.cpuSeconds = cpuSeconds_;
  s.cost = r.objective;
  s.maxDynResidual = plan_->maxDynResidual(r.x);
  s.maxViolation = maxViolation(nlp, r.x);
  s.status = r.status;
  if (r.solved) s.hasBaseline = plan_->baseline(r.x, s.baseline);
  return s;
}

}  // namespace varsim
