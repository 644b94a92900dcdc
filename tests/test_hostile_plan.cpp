// Hostile plan files (issue 37), in process: every plan key of every registered problem refuses a value of the
// wrong JSON type (a number written as a string, a boolean for a number, an array, an object, null) naming the
// file, the key, the value and the allowed range, as scene files do; and `varsim plan` stops at its CPU budget
// with exit 4, naming the budget, the iterations done and the smallest infeasibility reached.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/sim/errors.h"
#include "tests/plan_harness.h"
#include "plan/plan_problem.h"
#include "plan/plan_session.h"

using varsim::test::runCaptured;
using varsim::test::testOut;
using varsim::test::writeFile;

namespace {

// The message of parsePlanProblem on `text`, or "" when it was accepted.
std::string refusal(const std::string& text) {
  try {
    varsim::parsePlanProblem(text, "hostile_plan.json");
  } catch (const varsim::BadInput& e) {
    return e.what();
  }
  return "";
}

// A value of another JSON type than the key's: strings and booleans standing for numbers, containers, null.
std::vector<nlohmann::json> wrongTypesFor(const varsim::ParamSpec& spec) {
  using varsim::ParamType;
  std::vector<nlohmann::json> out = {nullptr, nlohmann::json::object(), nlohmann::json::array({nlohmann::json::array({1})})};
  if (spec.type == ParamType::Real || spec.type == ParamType::Integer) out.insert(out.end(), {"1", true, {1}});
  if (spec.type == ParamType::Bool) out.insert(out.end(), {"true", 1, 0});
  if (spec.type == ParamType::Choice) out.insert(out.end(), {1, true});
  return out;
}

}  // namespace

TEST_CASE("hostile plan files: a value of the wrong JSON type is refused for every plan key of every problem") {
  // Measured before: {"dock_x": "1"} in boat_dock was read as the number 1 and solved for minutes.
  int cases = 0;
  for (const varsim::PlanProblemInfo& info : varsim::PlanProblemRegistry::all()) {
    for (const varsim::ParamSpec& spec : info.params()) {
      for (const nlohmann::json& wrong : wrongTypesFor(spec)) {
        const nlohmann::json doc = {{"scene", info.scene}, {"params", nlohmann::json::object()},
                                    {"plan", {{spec.key, wrong}}}};
        const std::string msg = refusal(doc.dump());
        INFO(info.scene << " plan." << spec.key << " = " << wrong.dump() << ": " << msg);
        CHECK(msg.find("hostile_plan.json: plan: key '" + spec.key + "': expected ") != std::string::npos);
        CHECK(msg.find("allowed " + spec.rangeText()) != std::string::npos);
        ++cases;
      }
    }
  }
  CHECK(cases >= 4 * 6 * 6);  // four problems, each with more than six keys
  // The right types still load: the value text of a choice and true/false for a flag.
  CHECK(refusal(R"({"scene":"boat","plan":{"hessian":"lbfgs","N":20}})") == "");
  CHECK(refusal(R"({"scene":"helicopter","plan":{"via_canyon":false,"N":20}})") == "");
}

TEST_CASE("hostile plan files: the CPU budget stops a solve with exit 4 naming it, iterations and infeasibility") {
  // car_park at N = 20: Ipopt checks the budget after each iteration, so a budget of 1e-9 s stops the solve at its
  // first check (a fraction of a second even in the sanitized build).
  const std::string csv = testOut("hostile_budget.csv"), inputs = testOut("hostile_budget_in.csv");
  const varsim::test::HeadlessResult r =
      runCaptured({"plan", varsim::test::problemFile("car_park"), "--set", "N=20",
                   "--csv", csv, "--inputs", inputs, "--cpu-budget", "1e-9"});
  INFO(r.err);
  CHECK(r.exitCode == 4);
  CHECK(r.err.find("the CPU budget of 1e-09 s ran out; Ipopt status Maximum_CpuTime_Exceeded after ") !=
        std::string::npos);
  CHECK(r.err.find("smallest primal infeasibility ") != std::string::npos);
  CHECK(r.err.find("; raise it with --cpu-budget S") != std::string::npos);
  // The flag's own range: positive, at most a day, once.
  for (const char* bad : {"0", "-1", "1e999", "nan", "86401"}) {
    const varsim::test::HeadlessResult b = runCaptured({"plan", "x.json", "--csv", csv, "--inputs", inputs,
                                                        "--cpu-budget", bad});
    INFO(bad << ": " << b.err);
    CHECK(b.exitCode == 2);
    CHECK(b.err.find(std::string("--cpu-budget ") + bad) != std::string::npos);
  }
  const varsim::test::HeadlessResult twice =
      runCaptured({"plan", "x.json", "--cpu-budget", "5", "--cpu-budget", "6", "--csv", csv, "--inputs", inputs});
  CHECK(twice.exitCode == 2);
  CHECK(twice.err.find("--cpu-budget given twice") != std::string::npos);
  CHECK(varsim::kPlanCpuBudgetSeconds == 20.0);
}

TEST_CASE("HostilePlanDivergingMultipliersStopTheSolveBeforeItsNextFactorisation") {
  // heli_canyon to the east pad with MUMPS: inf_du passes 1e10 at iteration 14 (4.9e17 at iteration 20; iteration
  // 21's factorisations then took 43 s of CPU inside MUMPS, beyond any per-iteration budget); stopped there, exit 4.
  // (The default LDL^T solver's iterates take another path: solved in 9 iterations, cost 1.74869522.)
  const std::string csv = testOut("hostile_diverging.csv"), inputs = testOut("hostile_diverging_in.csv");
  const varsim::test::HeadlessResult r = runCaptured(
      {"plan", varsim::test::problemFile("heli_canyon"), "--set", "target_pad=east", "--kkt", "mumps", "--csv", csv,
       "--inputs", inputs});
  INFO(r.err);
  CHECK(r.exitCode == 4);
  CHECK(r.err.find("Ipopt status Diverging_Multipliers after 14 iterations") != std::string::npos);
}

TEST_CASE("hostile plan files: a moving goal with a pad target names the key, its value and the pad") {
  const std::string csv = testOut("hostile_pad.csv"), inputs = testOut("hostile_pad_in.csv");
  for (const char* key : {"target_vx", "target_vy", "target_vz"}) {
    const varsim::test::HeadlessResult r =
        runCaptured({"plan", varsim::test::problemFile("heli_canyon"), "--set", std::string(key) + "=-100", "--csv",
                     csv, "--inputs", inputs});
    INFO(r.err);
    CHECK(r.exitCode == 2);
    CHECK(r.err.find(std::string("key '") + key + "' = -100 with target_pad = ") != std::string::npos);
  }
}
