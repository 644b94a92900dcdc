// ui/plan_command.cpp — the headless planner's command line: problem file = {"scene": NAME, "params": {scene keys},
// "plan": {plan keys}} for any scene with a registered plan problem (plan/plan_problem.h), solved by the session
// Python's varsim.plan() runs too (plan/plan_session.h); prints one line per Ipopt iteration to stderr, writes the
// plan CSV and the replay inputs file, exit 0 solved / 2 bad input / 4 unsolved (also when the CPU budget ran out).
#include "ui/plan_command.h"

#include <cstdio>

#include "engine/sim/cli_args.h"
#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "plan/plan_session.h"

namespace varsim {

const char* const kPlanUsage =
    "usage: varsim plan PROBLEM.json [--set key=value]... --csv FILE --inputs FILE [--cpu-budget S] [--kkt ldl|mumps]";

namespace {

struct PlanArgs {
  PlanSetup setup;
  std::string csvPath, inputsPath;
  double cpuBudget = kPlanCpuBudgetSeconds;
  KktSolver kkt = IpoptSettings{}.kktSolver;
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
    else if (flag == "--csv" || flag == "--inputs" || flag == "--cpu-budget" || flag == "--kkt") seen.once(flag);
    if (flag == "--set") sets.push_back(value);
    else if (flag == "--csv" && !value.empty()) o.csvPath = value;
    else if (flag == "--inputs" && !value.empty()) o.inputsPath = value;
    else if (flag == "--cpu-budget") o.cpuBudget = parsePlanCpuBudget("--cpu-budget ", value);
    else if (flag == "--kkt") o.kkt = kktSolverArg("--kkt ", value);
    else throw BadInput("option '" + shortText(flag) + "' with '" + shortText(value) +
                        "': allowed --set, --csv, --inputs, --cpu-budget, --kkt");
  }
  refuseSameFile({{"problem file", args[1]}, {"--csv", o.csvPath}, {"--inputs", o.inputsPath}});
  o.setup = loadPlanProblem(args[1], sets);
  if (o.csvPath.empty() || o.inputsPath.empty()) throw BadInput(std::string("--csv and --inputs are required; ") + kPlanUsage);
  return o;
}

}  // namespace

int planCommand(const std::vector<std::string>& args, PlanStats* stats) {
  const PlanArgs o = parsePlanArgs(args);
  PlanSession session(o.setup);
  session.setKktSolver(o.kkt);
  std::fprintf(stderr, "%s\n", session.header().c_str());
  const IpoptResult& r =
      session.solve([](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); }, o.cpuBudget);
  if (stats) *stats = session.stats();
  if (!r.solved) {
    const bool budget = r.status == "Maximum_CpuTime_Exceeded";
    std::fprintf(stderr, "varsim: %s%s\n", session.outcome(o.inputsPath).c_str(),
                 budget ? "; raise it with --cpu-budget S" : "");
    return kExitUnsolved;
  }
  session.write(o.csvPath, o.inputsPath);
  std::fprintf(stderr, "%s\n", session.outcome(o.inputsPath).c_str());
  return 0;
}

}  // namespace varsim
