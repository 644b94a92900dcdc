// ui/core/plan_defaults.cpp — the Plan panel's starting values, the setup its Plan button solves and the outcome
// in plain words; see the header.
#include "ui/core/plan_defaults.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/sim/errors.h"
#include "ui/core/plan_solve.h"

namespace varsim {

namespace {

constexpr double kPi = 3.14159265358979323846;

}  // namespace

bool isStartKey(const std::string& key) { return key.rfind("start_", 0) == 0 || key == "speed" || key == "steer"; }

PlanDefaults planDefaults(const std::string& scene) {
  PlanDefaults d;
  const PlanSetup preset = planPreset(scene, &d.note);
  d.plan = preset.plan;
  d.presetScene = preset.scene.params;
  d.dt = d.presetScene.spec("dt") ? d.presetScene.real("dt") : 0.0;
  if (d.plan.spec("N")) d.horizonSeconds = double(d.plan.integer("N")) * d.dt;
  return d;
}

std::string planSceneDifferences(const PlanDefaults& d, const ParamSet& running, bool withStart) {
  std::string out;
  for (const ParamSpec& spec : d.presetScene.specs()) {
    if ((!withStart && isStartKey(spec.key)) || !running.spec(spec.key)) continue;
    const std::string want = d.presetScene.valueText(spec.key);
    if (want == running.valueText(spec.key)) continue;
    out += (out.empty() ? "" : ", ") + spec.key + " = " + want + (spec.unit.empty() ? "" : " " + spec.unit);
  }
  return out;
}

PlanSetup planPanelSetup(const std::string& scene, const Scene& running, const ParamSet& runningParams,
                         const PlanDefaults& d, const ParamSet& plan, double horizonSeconds, PlanStart start) {
  PlanSetup setup;
  setup.scene.scene = scene;
  setup.plan = plan;
  setup.source = "the app's Plan panel";
  ParamSet params = runningParams;
  for (const ParamSpec& spec : d.presetScene.specs())
    if ((start == PlanStart::Preset || !isStartKey(spec.key)) && params.spec(spec.key))
      params.set(spec.key, d.presetScene.value(spec.key), "plan preset");
  setup.scene.params = start == PlanStart::Current ? planStartParams(scene, running, params) : params;
  if (setup.plan.spec("N") && d.dt > 0.0) {
    if (!(horizonSeconds > 0.0) || !std::isfinite(horizonSeconds))
      throw BadInput("Plan panel: horizon T = " + formatNumber(horizonSeconds) + " s; allowed: T > 0");
    const double n = std::max(1.0, std::round(horizonSeconds / d.dt));
    setup.plan.set("N", ParamValue{{n}, {}}, "Plan panel: horizon T = " + formatNumber(horizonSeconds) + " s gives N");
  }
  if (setup.plan.spec("target_heading") && setup.scene.params.spec("start_heading")) {
    const double from = setup.scene.params.real("start_heading"), to = setup.plan.real("target_heading");
    setup.plan.setReal("target_heading", to + 2.0 * kPi * std::round((from - to) / (2.0 * kPi)));
  }
  return setup;
}

std::string planOutcomeText(const std::string& status, bool solved, int iterations, double seconds, int maxIterations,
                            double budgetSeconds) {
  char head[96];
  std::snprintf(head, sizeof head, "after %d iterations (%.1f s)", iterations, seconds);
  if (solved)
    return std::string("converged ") + head + (status == "Solved_To_Acceptable_Level" ? " to the acceptable tolerance" : "");
  std::string why;
  if (status == "Time_Budget_Exceeded") {
    char b[64];
    std::snprintf(b, sizeof b, "not converged within the %g s budget", budgetSeconds);  // CPU s of the solve
    why = b;
    why += ": a longer horizon, a nearer goal or a plan from the scene's start usually converge sooner";
  } else if (status == "Maximum_Iterations_Exceeded") {
    why = "not converged within max_iter = " + std::to_string(maxIterations) +
          " iterations: try a longer horizon or raise max_iter under weights and limits";
  } else if (status == "Infeasible_Problem_Detected" || status == "Restoration_Failed") {
    why = "no plan reaches the goal from here within the limits: try a longer horizon (T), another goal, or Reset "
          "the scene and plan from its start";
  } else if (status == "cancelled") {
    why = "cancelled";
  } else {
    why = "the solver stopped (" + status + "): try a longer horizon or another goal";
  }
  return why + " — " + head + "; the scene is unchanged";
}

}  // namespace varsim
