// The Python plan (varsim._varsim.Plan); see py_plan.h.
#include "python/py_plan.h"

#include <pybind11/stl.h>

#include <mutex>

#include "engine/sim/errors.h"
#include "plan/mpc_run.h"

namespace py = pybind11;

namespace varsim::python {

namespace {
// One Ipopt solve at a time in this process: the app and the command never run two at once, and Debian's
// sequential MUMPS is not documented as re-entrant.
std::mutex& solveMutex() {
  static std::mutex m;
  return m;
}

// `varsim mpc ARGS` (args[0] == "mpc"): the command's exit code and summary line; the CSV goes where --csv says.
std::pair<int, std::string> mpcRun(const std::vector<std::string>& args) {
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(solveMutex());  // its re-plans are Ipopt solves: one at a time, as plans
  const MpcRunResult r = runMpc(args);
  return {r.exitCode, r.summary};
}
}  // namespace

std::unique_ptr<PyPlan> makePlan(const std::string& problem, bool text, const py::dict& sets,
                                 const py::object& cpuBudget, const py::object& kkt) {
  // The command's parser on the value's text (a float's repr round-trips): one range, one message.
  const double budget = cpuBudget.is_none() ? kPlanCpuBudgetSeconds
                                            : parsePlanCpuBudget("varsim.plan: cpu_budget=", paramText(cpuBudget));
  const KktSolver solver = kkt.is_none() ? IpoptSettings{}.kktSolver : kktSolverArg("varsim.plan: kkt=", paramText(kkt));
  std::vector<std::string> kv;
  for (const auto& [key, value] : sets) kv.push_back(key.cast<std::string>() + "=" + paramText(value));
  const PlanSetup setup = text ? parsePlanProblem(problem, "varsim.plan(dict)", kv) : loadPlanProblem(problem, kv);
  auto plan = std::make_unique<PyPlan>(setup, budget);
  plan->setKktSolver(solver);
  return plan;
}

void PyPlan::solve() {
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(solveMutex());
  log_.clear();
  session_.solve([this](const std::string& line) { log_.push_back(line); }, cpuBudget_);
}

void PyPlan::write(const std::string& csvPath, const std::string& inputsPath) const {
  session_.write(csvPath, inputsPath);
}

py::dict PyPlan::stats() const {
  const PlanStats s = session_.stats();
  py::dict d(py::arg("variables") = s.variables, py::arg("constraints") = s.constraints,
             py::arg("jacobian_nonzeros") = s.nonzeros, py::arg("hessian_nonzeros") = s.hessianNonzeros,
             py::arg("iterations") = s.iterations, py::arg("wall_seconds") = s.wallSeconds,
             py::arg("cpu_seconds") = s.cpuSeconds, py::arg("cost") = s.cost,
             py::arg("max_dyn_residual") = s.maxDynResidual, py::arg("max_violation") = s.maxViolation,
             py::arg("status") = s.status);
  return d;
}

std::unique_ptr<PyScene> PyPlan::replay() const {
  if (!solved()) throw BadInput("replay: the plan did not solve (" + status() + ")");
  const PlanInstance& p = session_.instance();
  const Eigen::VectorXd& x = session_.result().x;
  auto out = std::make_unique<PyScene>(SceneConfig{scene(), p.replayParams(x)}, py::dict(), "varsim.plan replay");
  out->play(p.inputTrack(x));
  return out;
}

void bindPlan(py::module_& m) {
  m.def("mpc_run", &mpcRun, py::arg("args"),
        "`varsim mpc` with these arguments (args[0] == 'mpc'): (exit code, summary line); GIL released while it runs.");
  py::class_<PyPlan>(m, "Plan", "A plan problem and its Ipopt solve, as `varsim plan` runs it (see varsim.plan).")
      .def_static(
          "load",
          [](const std::string& problem, bool text, const py::dict& sets, const py::object& cpuBudget,
             const py::object& kkt) { return makePlan(problem, text, sets, cpuBudget, kkt); },
          py::arg("problem"), py::arg("text"), py::arg("sets"), py::arg("cpu_budget") = py::none(),
          py::arg("kkt") = py::none(),
          "Problem from a file path, or from JSON text when text=True; sets: dict of --set overrides; cpu_budget: "
          "CPU seconds of the solve as --cpu-budget (None: its default); kkt: 'ldl' or 'mumps' as --kkt (None: ldl).")
      .def("solve", &PyPlan::solve,
           "Solve with Ipopt within cpu_budget (GIL released; one solve at a time per process).")
      .def_property_readonly("cpu_budget", &PyPlan::cpuBudget, "CPU seconds the solve may take (--cpu-budget).")
      .def_property_readonly("solved", &PyPlan::solved, "True when Ipopt converged (exit 0 of `varsim plan`).")
      .def_property_readonly("status", &PyPlan::status, "Ipopt's return status, named.")
      .def_property_readonly("iterations", &PyPlan::iterations, "Ipopt iterations.")
      .def_property_readonly("cost", &PyPlan::cost, "Objective at the last iterate.")
      .def_property_readonly("segments", &PyPlan::segments, "N: the plan covers N steps of the scene's dt.")
      .def_property_readonly("scene", &PyPlan::scene, "The planned scene's name.")
      .def_property_readonly("header", &PyPlan::header, "The command's first line (sizes).")
      .def_property_readonly("log", &PyPlan::log, "The command's per-iteration lines.")
      .def("outcome", &PyPlan::outcome, py::arg("inputs_path"), "The command's last line.")
      .def("write", &PyPlan::write, py::arg("csv_path"), py::arg("inputs_path"),
           "Write the plan CSV and the replay inputs file, as --csv and --inputs.")
      .def("stats", &PyPlan::stats, "Sizes, iterations, solve wall/CPU time (s), cost, residuals (dict).")
      .def("replay", &PyPlan::replay, "A Scene built with the plan's replay parameters playing its inputs from step 0.");
}

}  // namespace varsim::python
