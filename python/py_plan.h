// The Python plan: one PlanSession (plan/plan_session.h, the solve `varsim plan` runs) with Python-facing
// conversions, solved with the GIL released; its replay is a Scene playing the plan's input track from step 0.
// python/varsim/__init__.py wraps it as varsim.plan() -> PlanResult (table and inputs read from the written files).
#pragma once
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "plan/plan_session.h"
#include "python/py_scene.h"

namespace varsim::python {

class PyPlan {
 public:
  PyPlan(const PlanSetup& setup, double cpuBudgetSeconds) : session_(setup), cpuBudget_(cpuBudgetSeconds) {}

  // Within the CPU budget given at load; GIL released; concurrent solves from several threads take turns (one Ipopt
  // solve at a time).
  void solve();
  double cpuBudget() const { return cpuBudget_; }
  void setKktSolver(KktSolver solver) { session_.setKktSolver(solver); }
  bool solved() const { return session_.result().solved; }
  const std::string& status() const { return session_.result().status; }
  int iterations() const { return session_.result().iterations; }
  double cost() const { return session_.result().objective; }
  int segments() const { return session_.instance().segments(); }
  const std::string& scene() const { return session_.instance().setup().scene.scene; }
  std::string header() const { return session_.header(); }
  const std::vector<std::string>& log() const { return log_; }
  std::string outcome(const std::string& inputsPath) const { return session_.outcome(inputsPath); }
  void write(const std::string& csvPath, const std::string& inputsPath) const;
  pybind11::dict stats() const;
  std::unique_ptr<PyScene> replay() const;

 private:
  PlanSession session_;
  double cpuBudget_;  // CPU seconds (plan/plan_budget.h's range)
  std::vector<std::string> log_;  // the command's per-iteration lines
};

// Problem from a file path or, with `text`, from JSON text named `source`; `sets` as --set key=value; `cpuBudget`
// None (the default of `varsim plan`) or seconds, refused outside the range of --cpu-budget (plan/plan_budget.h);
// `kkt` None (the command's default) or the name of --kkt, refused as it is.
std::unique_ptr<PyPlan> makePlan(const std::string& problem, bool text, const pybind11::dict& sets,
                                 const pybind11::object& cpuBudget, const pybind11::object& kkt);

void bindPlan(pybind11::module_& m);

}  // namespace varsim::python
