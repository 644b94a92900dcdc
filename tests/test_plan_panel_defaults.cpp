// tests/test_plan_panel_defaults.cpp — the Plan panel's untouched defaults solve (issue 38): for the car,
// helicopter, boat and snakeboard at their scene defaults, the setup the Plan button builds (ui/core/
// plan_defaults.h: the preset's horizon in seconds at the problem's own dt, from the preset's start with its scene
// settings) converges through the panel's own solve (planSolve on a PlanJob). A solve past its
// budget stops with a plain-language reason; the horizon in seconds gives N at the problem's dt.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "engine/sim/errors.h"
#include "plan/plan_budget.h"
#include "ui/core/plan_defaults.h"
#include "ui/core/plan_job.h"
#include "ui/core/plan_solve.h"
#include "ui/core/sim_driver.h"

using namespace varsim;

namespace {

struct Finished {
  PlanOutcome outcome;
  PlanJob::State state = PlanJob::State::Idle;
  PlanJob::Snapshot snap;
};

Finished solveOnJob(const PlanSetup& setup, double budgetSeconds) {
  PlanJob job;
  job.start(planSolve(setup, nullptr, budgetSeconds));
  job.wait();
  Finished f;
  REQUIRE(job.takeFinished(f.outcome, f.state));
  f.snap = job.snapshot();
  return f;
}

}  // namespace

// ~13 s of CPU (the boat's finite-difference Hessian 11 s): Release only (tests/CMakeLists.txt VARSIM_TEST_EXCLUDE).
TEST_CASE("PlanPanelDefaultsConverge: the untouched defaults converge for car, helicopter, boat and snakeboard") {
  // The preset horizons in seconds (N dt of assets/problems/*.json); the running scenes step at 1/60 s, where the
  // same N gave 3.3 s, 5 s and 2.5 s horizons that did not solve.
  const struct {
    const char* scene;
    double horizon;
  } cases[] = {{"car", 10.0}, {"helicopter", 30.0}, {"boat", 15.0}, {"snakeboard", 8.0}};
  for (const auto& c : cases) {
    const std::string scene = c.scene;
    CAPTURE(scene);
    SimDriver driver;
    driver.load(c.scene, SceneRegistry::defaults(c.scene));
    const PlanDefaults d = planDefaults(c.scene);
    CHECK(d.note.empty());
    CHECK(d.horizonSeconds == doctest::Approx(c.horizon).epsilon(1e-12));
    const PlanSetup setup = planPanelSetup(c.scene, driver.scene(), driver.params(), d, d.plan, d.horizonSeconds, PlanStart::Preset);
    CHECK(setup.scene.params.real("dt") == d.dt);
    CHECK(setup.plan.integer("N") == d.plan.integer("N"));
    // From the preset's start the panel solves exactly the preset problem file (what `varsim plan` solves).
    for (const ParamSpec& spec : d.presetScene.specs()) {
      CAPTURE(spec.key);
      CHECK(setup.scene.params.valueText(spec.key) == d.presetScene.valueText(spec.key));
    }
    const Finished f = solveOnJob(setup, 0.0);
    INFO(f.snap.status);
    REQUIRE(f.state == PlanJob::State::Solved);
    CHECK(f.outcome.steps == d.plan.integer("N"));
    const std::string text = planOutcomeText(f.snap.status, true, f.outcome.iterations, f.snap.seconds, 500, 60.0);
    CHECK(text.rfind("converged after " + std::to_string(f.outcome.iterations) + " iterations", 0) == 0);
    MESSAGE(std::string(c.scene) << ": " << f.outcome.iterations << " iterations, " << f.snap.seconds << " s");
  }
}

TEST_CASE("Plan panel: the preset's scene settings are named and used under the vehicle's current state") {
  SimDriver driver;
  driver.load("snakeboard", SceneRegistry::defaults("snakeboard"));
  const PlanDefaults d = planDefaults("snakeboard");
  const std::string differ = planSceneDifferences(d, driver.params(), false);
  CHECK(differ.find("gait = false") != std::string::npos);
  CHECK(differ.find("dt = 0.05 s") != std::string::npos);
  CHECK(differ.find("start_") == std::string::npos);  // the start is where the board is, not the preset's
  // 4 s at the problem's 0.05 s: N = 80 whatever the running scene's step.
  const PlanSetup setup = planPanelSetup("snakeboard", driver.scene(), driver.params(), d, d.plan, 4.0, PlanStart::Current);
  CHECK(setup.plan.integer("N") == 80);
  CHECK_FALSE(setup.scene.params.flag("gait"));
  CHECK(setup.scene.params.choice("world") == "open");
  CHECK_THROWS_WITH_AS(planPanelSetup("snakeboard", driver.scene(), driver.params(), d, d.plan, -1.0, PlanStart::Current),
                       doctest::Contains("allowed: T > 0"), BadInput);
}

TEST_CASE("Plan panel: a solve past its budget stops by itself and says why in plain words") {
  SimDriver driver;
  driver.load("car", SceneRegistry::defaults("car"));
  const PlanDefaults d = planDefaults("car");
  const PlanSetup setup =
      planPanelSetup("car", driver.scene(), driver.params(), d, d.plan, d.horizonSeconds, PlanStart::Preset);
  const Finished f = solveOnJob(setup, 1e-9);  // over budget at the first iteration
  CHECK(f.state == PlanJob::State::Failed);
  CHECK(f.snap.status == "Time_Budget_Exceeded");
  const std::string text = planOutcomeText(f.snap.status, false, 0, f.snap.seconds, 500, 60.0);
  CHECK(text.rfind("not converged within the 60 s budget", 0) == 0);
  // The panel's budget is `varsim plan --cpu-budget`'s setting (default 20 s, any value in (0, 86400]), named exactly.
  CHECK(planOutcomeText(f.snap.status, false, 0, 0.0, 500, kPlanCpuBudgetSeconds)
            .rfind("not converged within the 20 s budget", 0) == 0);
  CHECK(planOutcomeText(f.snap.status, false, 0, 0.0, 500, 0.25).rfind("not converged within the 0.25 s budget", 0) == 0);
  CHECK(text.find("the scene is unchanged") != std::string::npos);
  CHECK(planOutcomeText("Infeasible_Problem_Detected", false, 173, 8.5, 500, 60.0)
            .rfind("no plan reaches the goal from here", 0) == 0);
  CHECK(planOutcomeText("Maximum_Iterations_Exceeded", false, 500, 20.0, 500, 60.0).find("max_iter = 500") !=
        std::string::npos);
}
