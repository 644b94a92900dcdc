// ui/plan_command.cpp — the headless planner: problem file = {"scene": NAME, "params": {scene keys}, "plan":
// {plan keys}} for any scene with a registered plan problem (plan/plan_problem.h); prints one line per Ipopt
// iteration to stderr, writes the plan CSV and the replay inputs file, exit 0 solved / 2 bad input / 4 unsolved.
#include "ui/plan_command.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>

#include "engine/sim/cli_args.h"
#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "plan/ipopt_solver.h"

namespace varsim {
namespace {

const char* kPlanUsage = "usage: varsim plan PROBLEM.json [--set key=value]... --csv FILE --inputs FILE";

struct PlanArgs {
  PlanSetup setup;
  std::string csvPath, inputsPath;
};

PlanArgs parsePlanArgs(const std::vector<std::string>& args) {
  if (args.size() < 2) throw BadInput(kPlanUsage);
  PlanArgs o;
  std::vector<std::string> sets;
  FlagsSeen seen;
  for (size_t i = 2; i < args.size(); ++i) {
    if (i + 1 >= args.size()) throw BadInput(args[i] + ": missing value; " + kPlanUsage);
    const std::string &flag = args[i], &value = args[++i];
    if (flag == "--set") seen.once("--set " + value.substr(0, value.find('=')) + "=");
    else if (flag == "--csv" || flag == "--inputs") seen.once(flag);
    if (flag == "--set") sets.push_back(value);
    else if (flag == "--csv" && !value.empty()) o.csvPath = value;
    else if (flag == "--inputs" && !value.empty()) o.inputsPath = value;
    else throw BadInput("option '" + shortText(flag) + "' with '" + shortText(value) + "': allowed --set, --csv, --inputs");
  }
  refuseSameFile({{"problem file", args[1]}, {"--csv", o.csvPath}, {"--inputs", o.inputsPath}});
  o.setup = loadPlanProblem(args[1], sets);
  if (o.csvPath.empty() || o.inputsPath.empty()) throw BadInput(std::string("--csv and --inputs are required; ") + kPlanUsage);
  return o;
}

PlanStats measure(const PlanInstance& plan, const IpoptResult& r, double wallSeconds, double cpuSeconds) {
  const Nlp& nlp = plan.nlp();
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
  s.wallSeconds = wallSeconds;
  s.cpuSeconds = cpuSeconds;
  s.cost = r.objective;
  s.maxDynResidual = plan.maxDynResidual(r.x);
  s.maxViolation = maxViolation(nlp, r.x);
  s.status = r.status;
  if (r.solved) s.hasBaseline = plan.baseline(r.x, s.baseline);
  return s;
}

}  // namespace

int planCommand(const std::vector<std::string>& args, PlanStats* stats) {
  const PlanArgs o = parsePlanArgs(args);
  const std::unique_ptr<PlanInstance> plan = PlanProblemRegistry::find(o.setup.scene.scene)->build(o.setup);
  const Nlp& nlp = plan->nlp();
  IpoptSettings settings;
  settings.maxIterations = int(o.setup.plan.integer("max_iter"));
  std::fprintf(stderr, "plan %s: %d variables, %d constraints\n", o.setup.source.c_str(), nlp.numVariables(),
               nlp.numConstraints());
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  const IpoptResult r = solveWithIpopt(nlp, settings, [](const IpoptIteration& it) {
    std::fprintf(stderr, "iter %4d  objective %.9e  inf_pr %.3e  inf_du %.3e\n", it.iteration, it.objective,
                 it.primalInfeasibility, it.dualInfeasibility);
    return true;
  });
  if (stats)
    *stats = measure(*plan, r, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                     double(std::clock() - c0) / CLOCKS_PER_SEC);
  if (!r.solved) {
    std::fprintf(stderr, "varsim: not solved: Ipopt status %s after %d iterations\n", r.status.c_str(), r.iterations);
    return kExitUnsolved;
  }
  plan->writeCsv(o.csvPath, r.x);
  plan->writeInputs(o.inputsPath, r.x);
  std::fprintf(stderr, "solved (%s): %d iterations, cost %.9g; replay: %s\n", r.status.c_str(), r.iterations,
               r.objective, plan->replayCommand(o.inputsPath, r.x).c_str());
  return 0;
}

}  // namespace varsim
