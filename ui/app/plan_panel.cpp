// ui/app/plan_panel.cpp — the Plan panel's window: goal, horizon and weights on the left, Plan / Cancel / Play,
// the result line, and the convergence plot (objective, primal and dual infeasibility per Ipopt iteration, log
// scale) on the right. The solve itself runs on the PlanJob's worker (ui/core/plan_solve.h).
#include "ui/app/plan_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/sim/errors.h"
#include "plan/plan_endpoints.h"
#include "ui/app/app_state.h"
#include "ui/app/label_fit.h"
#include "ui/app/panels.h"
#include "ui/app/plot_widget.h"
#include "ui/core/plan_solve.h"

namespace varsim {

namespace {

constexpr double kPi = 3.14159265358979323846;
const char* kHeadingKey = "target_heading";

std::vector<PlanGoal> goalsOf(const AppState& app) {
  const PlanEndpointsInfo* e = PlanEndpointsRegistry::find(app.plan.scene);
  return e && e->goals ? e->goals(app.driver.params()) : std::vector<PlanGoal>{};
}

// A new scene (or one without a problem) starts the panel afresh: a running solve is cancelled, Play ends.
void followScene(AppState& app) {
  PlanPanelState& st = app.plan;
  const std::string scene = app.driver.loaded() ? app.driver.sceneName() : std::string();
  if (scene == st.scene) return;
  st.job.reset();  // the old scene's solve, log and ghost are dropped: they belong to another scene
  st.playback.stop(app.driver);
  st.scene = scene;
  st.havePlan = false;
  st.picking = false;
  st.goal = 0;
  st.result.clear();
  st.defaults = PlanDefaults{};
  st.start = PlanStart::Preset;
  st.planParams = ParamSet{};
  if (!PlanProblemRegistry::find(scene)) return;
  try {
    st.defaults = planDefaults(scene);
    st.planParams = st.defaults.plan;
    st.horizonSeconds = st.defaults.horizonSeconds;
  } catch (const BadInput& e) {
    st.defaults.note = e.what();
  }
  // The goal entry the preset's target is (else the "point" entry after the named goals).
  const std::vector<PlanGoal> goals = goalsOf(app);
  st.goal = int(goals.size());
  for (size_t i = 0; i < goals.size(); ++i) {
    bool same = true;
    for (const auto& [key, value] : goals[i].values)
      same = same && st.planParams.spec(key) && std::abs(st.planParams.real(key) - value) < 1e-3;
    if (same) st.goal = int(i);
  }
}

void setPlanValue(AppState& app, const std::string& key, double v) {
  if (!app.plan.planParams.spec(key)) return;
  try {
    app.plan.planParams.setReal(key, v);
  } catch (const BadInput& e) {
    app.notify(e.what(), true);
  }
}

void drawHeading(AppState& app) {
  PlanPanelState& st = app.plan;
  if (!st.planParams.spec(kHeadingKey)) return;
  float deg = float(st.planParams.real(kHeadingKey) * 180.0 / kPi);
  ImGui::SetNextItemWidth(170.0f);
  if (ImGui::SliderFloat("heading [deg]", &deg, -180.0f, 180.0f, "%.0f"))
    setPlanValue(app, kHeadingKey, deg * kPi / 180.0);
}

void drawPlanKey(AppState& app, const ParamSpec& spec);

// A named target among choices (the helicopter's target_pad): drawn with the goal.
bool isGoalChoice(const ParamSpec& spec) { return spec.type == ParamType::Choice && spec.key.rfind("target", 0) == 0; }

void drawGoal(AppState& app) {
  PlanPanelState& st = app.plan;
  for (const ParamSpec& spec : st.planParams.specs())
    if (isGoalChoice(spec)) drawPlanKey(app, spec);
  const std::vector<PlanGoal> goals = goalsOf(app);
  const bool canClick = st.planParams.spec("target_x") && st.planParams.spec("target_y");
  if (goals.empty() && !canClick) return drawHeading(app);  // the goal is a target choice (a named pad)
  char clicked[96];
  std::snprintf(clicked, sizeof clicked, "point (%.2f, %.2f)", canClick ? st.planParams.real("target_x") : 0.0,
                canClick ? st.planParams.real("target_y") : 0.0);
  st.goal = std::clamp(st.goal, 0, int(goals.size()));
  const std::string current = st.goal < int(goals.size()) ? goals[size_t(st.goal)].name : clicked;
  if (ImGui::BeginCombo(fitLabel("goal").c_str(), current.c_str())) {  // wide enough for "point (-4.00, 0.50)"
    for (size_t i = 0; i < goals.size(); ++i)
      if (ImGui::Selectable(goals[i].name.c_str(), int(i) == st.goal)) {
        st.goal = int(i);
        for (const auto& [key, value] : goals[i].values) setPlanValue(app, key, value);
      }
    if (canClick && ImGui::Selectable(clicked, st.goal == int(goals.size()))) st.goal = int(goals.size());
    ImGui::EndCombo();
  }
  if (!canClick) return;
  ImGui::SameLine();
  if (ImGui::Checkbox("pick", &st.picking) && st.picking)
    app.notify("Plan: press on the ground for the goal, drag for its heading");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("press on the ground in the 3-D view: the goal's position; drag: its heading");
  drawHeading(app);
}

// One plan key: Enter applies; a value out of range is refused with the range named.
void drawPlanKey(AppState& app, const ParamSpec& spec) {
  ParamSet& p = app.plan.planParams;
  ParamValue v = p.value(spec.key);
  const std::string label = fitLabel(spec.key + (spec.unit.empty() ? "" : " [" + spec.unit + "]"));
  bool changed = false;
  if (spec.type == ParamType::Bool) {
    bool b = v.numbers.at(0) != 0.0;
    changed = ImGui::Checkbox(label.c_str(), &b);
    v.numbers[0] = b ? 1.0 : 0.0;
  } else if (spec.type == ParamType::Choice) {
    if (ImGui::BeginCombo(label.c_str(), v.choice.c_str())) {
      for (const std::string& c : spec.choices)
        if (ImGui::Selectable(c.c_str(), c == v.choice)) v.choice = c, changed = true;
      ImGui::EndCombo();
    }
  } else if (spec.type == ParamType::Real || spec.type == ParamType::Integer) {
    changed =
        ImGui::InputDouble(label.c_str(), &v.numbers.at(0), 0, 0, spec.type == ParamType::Integer ? "%.0f" : "%.6g",
                           ImGuiInputTextFlags_EnterReturnsTrue);
  } else {
    ImGui::Text("%s = %s", spec.key.c_str(), p.valueText(spec.key).c_str());  // set in the problem file
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\nrange: %s", spec.help.c_str(), spec.rangeText().c_str());
  if (!changed) return;
  try {
    p.set(spec.key, v, "Plan panel");
  } catch (const BadInput& e) {
    app.notify(e.what(), true);
  }
}

// The preset's scene settings the plan uses in place of the running scene's (e.g. the car at dt = 0.05 s; the
// snakeboard with gait off on open ground): named on a line, and the scene can be loaded so at once.
void drawPresetScene(AppState& app) {
  PlanPanelState& st = app.plan;
  const std::string differ = planSceneDifferences(st.defaults, app.driver.params(), st.start == PlanStart::Preset);
  if (differ.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrapped("plans with %s (Play loads the scene so)", differ.c_str());
  ImGui::PopStyleColor();
  if (ImGui::SmallButton("Load the preset's scene")) {
    st.playback.stop(app.driver);
    app.loadScene(st.scene, st.defaults.presetScene);
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("reload the scene with the preset's settings and start: %s", differ.c_str());
}

// Horizon: T in seconds (the preset's N dt to start with); N = T / dt at the problem's own dt, shown beside it.
void drawHorizon(AppState& app) {
  PlanPanelState& st = app.plan;
  const double dt = st.defaults.dt;
  if (!st.planParams.spec("N") || !(dt > 0.0)) return;
  ImGui::SetNextItemWidth(80.0f);
  double T = st.horizonSeconds;
  if (ImGui::InputDouble("horizon [s]", &T, 0, 0, "%.4g", ImGuiInputTextFlags_EnterReturnsTrue)) {
    if (T > 0.0 && std::isfinite(T)) st.horizonSeconds = T;
    else app.notify("Plan panel: horizon " + formatNumber(T) + " s refused; allowed: T > 0", true);
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("time to reach the goal; the plan has N = T / dt steps of the problem's dt = %.6g s", dt);
  ImGui::SameLine();
  ImGui::TextDisabled("N = %.0f, dt = %.3g s", std::max(1.0, std::round(st.horizonSeconds / dt)), dt);
  int from = st.start == PlanStart::Current ? 1 : 0;
  ImGui::SetNextItemWidth(170.0f);
  if (ImGui::Combo("start", &from, "the preset's start\0where it is now\0")) st.start = from ? PlanStart::Current : PlanStart::Preset;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("the preset's start: what the preset is tuned to solve (Play reloads the scene there);\n"
                      "where it is now: re-plan from the vehicle's current state");
}

// The CPU budget, the setting of `varsim plan --cpu-budget S` (one default and range, plan/plan_budget.h): a solve
// still unconverged after that much CPU time of its thread stops by itself and says so. The presets converge in
// 1-12 s of the worker's CPU (car 26 iterations, helicopter 37, boat 14, snakeboard 71); a far re-plan may need more.
void drawBudget(AppState& app) {
  PlanPanelState& st = app.plan;
  double seconds = st.cpuBudgetSeconds;
  ImGui::SetNextItemWidth(80.0f);
  if (ImGui::InputDouble("CPU budget [s]", &seconds, 0, 0, "%.4g", ImGuiInputTextFlags_EnterReturnsTrue)) {
    try {
      st.cpuBudgetSeconds = parsePlanCpuBudget("Plan panel: CPU budget ", formatNumber(seconds));
    } catch (const BadInput& e) {
      app.notify(e.what(), true);
    }
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("CPU seconds a solve may take before it stops by itself (varsim plan --cpu-budget; default %g,\n"
                      "allowed > 0 to %g); a running solve keeps the budget it started with",
                      kPlanCpuBudgetSeconds, kMaxPlanCpuBudgetSeconds);
}

void drawSettings(AppState& app) {
  const ParamSet& p = app.plan.planParams;
  drawHorizon(app);
  drawBudget(app);
  if (!ImGui::TreeNode("weights and limits")) return;
  for (const ParamSpec& spec : p.specs()) {
    const bool shown = spec.key == "N" || spec.key == kHeadingKey || isGoalChoice(spec);
    if (!shown) drawPlanKey(app, spec);
  }
  ImGui::TreePop();
}

// True when both sets hold the same keys with the same values (as their exact text forms).
bool sameValues(const ParamSet& a, const ParamSet& b) {
  if (a.specs().size() != b.specs().size()) return false;
  for (const ParamSpec& spec : a.specs())
    if (!b.spec(spec.key) || a.valueText(spec.key) != b.valueText(spec.key)) return false;
  return true;
}

void startPlan(AppState& app) {
  PlanPanelState& st = app.plan;
  SimDriver& d = app.driver;
  st.playback.stop(d);
  PlanSetup setup;
  try {
    setup = planPanelSetup(st.scene, d.scene(), d.params(), st.defaults, st.planParams, st.horizonSeconds, st.start);
  } catch (const BadInput& e) {
    st.result = std::string("cannot plan from here: ") + e.what();
    st.resultIsError = true;
    return;
  }
  st.result = "solving from t = " + formatNumber(d.scene().time()) + " s";
  st.resultIsError = false;
  // Re-planning starts from the last plan (Ipopt's warm start; a cold start when the problem's size changed) only
  // when it starts where the last plan started: from a moved start the old iterate is far from feasible at node 0
  // and Ipopt wandered (heli canyon re-plan mid-flight: 219 iterations unconverged warm, 57 cold).
  const bool sameStart = st.havePlan && sameValues(st.plan.sceneParams, setup.scene.params);
  std::shared_ptr<const IpoptResult> warm = st.warmStart && sameStart ? st.plan.solver : nullptr;
  st.startNote = st.warmStart && st.havePlan && !sameStart ? " (cold start: the vehicle moved since the last plan)" : "";
  st.result += st.startNote;
  st.havePlan = false;
  st.job.setWorkerNice(10);
  st.maxIterations = setup.plan.spec("max_iter") ? int(setup.plan.integer("max_iter")) : 0;
  st.solveBudgetSeconds = st.cpuBudgetSeconds;
  st.job.start(planSolve(std::move(setup), std::move(warm), st.solveBudgetSeconds));
}

void drawButtons(AppState& app) {
  PlanPanelState& st = app.plan;
  const bool running = st.job.running();
  ImGui::BeginDisabled(running);
  if (ImGui::Button("Plan the path")) startPlan(app);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("optimal control from the chosen start to the goal (Ipopt, on a worker thread)");
  ImGui::SameLine();
  ImGui::Checkbox("warm", &st.warmStart);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("re-plan from the last plan (Ipopt's warm start) instead of the problem's initial guess");
  ImGui::SameLine();
  ImGui::BeginDisabled(!running);
  if (ImGui::Button("Cancel")) st.job.cancel();
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(running || !st.havePlan);
  if (ImGui::Button("Play")) {
    try {
      st.playback.play(app.driver, st.scene, st.plan);
      app.notify("Play: input source plan (touch a control to take over)");
    } catch (const BadInput& e) {
      app.notify(std::string("Play refused: ") + e.what(), true);
    }
  }
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("fly the plan through the stepper from its start (the replay `varsim run --input` does)");
  drawPresetScene(app);
}

void drawStatus(AppState& app) {
  PlanPanelState& st = app.plan;
  const PlanJob::Snapshot s = st.job.snapshot();
  if (s.state == PlanJob::State::Running) {
    const PlanIterationRecord last = s.log.empty() ? PlanIterationRecord{} : s.log.back();
    ImGui::TextWrapped("solving: iteration %d, %.1f s, objective %.4g, inf_pr %.2e", last.iteration, s.seconds,
                       last.objective, last.primalInfeasibility);
  } else if (!st.result.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(st.resultIsError ? ImVec4(1, 0.45f, 0.4f, 1) : ImVec4(0.6f, 1, 0.6f, 1), "%s",
                       st.result.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  if (!st.defaults.note.empty()) ImGui::TextWrapped("%s", st.defaults.note.c_str());
  if (const PlanEndpointsInfo* e = PlanEndpointsRegistry::find(st.scene); !e || !e->startFrom)
    ImGui::TextWrapped("plans from the scene's start (no start keys for the current state)");
  ImGui::PopStyleColor();
}

// Objective, inf_pr and inf_du against the iteration number, on the app's plot widget (log |y|).
void drawConvergence(AppState& app, float height) {
  const PlanJob::Snapshot s = app.plan.job.snapshot();
  static PlotHistory data(4096);
  data.setSeries({"objective", "inf_pr", "inf_du"});
  for (const PlanIterationRecord& r : s.log)
    data.push(double(r.iteration), {r.objective, r.primalInfeasibility, r.dualInfeasibility});
  const PlotSpec spec{"Ipopt iterations", {"objective", "inf_pr", "inf_du"}, true};
  const double last = s.log.empty() ? 0.0 : double(s.log.back().iteration);
  PlotView& view = app.plotViews["Plan: Ipopt iterations"];
  view.xName = "iteration";
  view.xUnit.clear();
  drawPlot(spec, data, TimeWindow{0.0, std::max(10.0, last)}, view, -1.0, height);
}

}  // namespace

bool planTabShown(AppState& app) {
  followScene(app);
  return app.plan.open && PlanProblemRegistry::find(app.plan.scene) != nullptr;
}

void drawPlanContents(AppState& app) {
  const PlanProblemInfo* info = PlanProblemRegistry::find(app.plan.scene);
  if (!info) return;
  app.plan.shown = true;
  ImGui::TextUnformatted(info->title.c_str());
  drawGoal(app);
  drawSettings(app);
  drawButtons(app);
  drawStatus(app);
  drawConvergence(app, std::max(110.0f, ImGui::GetContentRegionAvail().y - 40.0f));
}

void drawPlanPanel(AppState& app) {
  // With the Plots panel shown the Plan panel is its second tab (panels_plots.cpp): it covers neither the 3-D view
  // nor the plots. Alone it takes the plots column.
  if (!planTabShown(app) || app.settings.panels.plots) return;
  if (!beginPanel(app, "Plan", "Plan", &app.plan.open)) return;
  drawPlanContents(app);
  ImGui::End();
}

void planBeforeStep(AppState& app) {
  PlanPanelState& st = app.plan;
  PlanOutcome outcome;
  PlanJob::State state;
  if (st.job.takeFinished(outcome, state)) {
    const PlanJob::Snapshot s = st.job.snapshot();
    const int iterations = state == PlanJob::State::Solved ? outcome.iterations : s.log.empty() ? 0 : s.log.back().iteration;
    std::string line = planOutcomeText(state == PlanJob::State::Cancelled ? "cancelled" : s.status,
                                       state == PlanJob::State::Solved, iterations, s.seconds, st.maxIterations,
                                       st.solveBudgetSeconds);
    if (state == PlanJob::State::Solved) {
      char cost[48];
      std::snprintf(cost, sizeof cost, ", cost %.4g; Play flies it", outcome.cost);
      line += cost;
      st.plan = std::move(outcome);
      st.havePlan = true;
    }
    // A failed or cancelled solve leaves the scene as it was: nothing of it reaches the driver.
    st.result = line + st.startNote;
    st.resultIsError = state != PlanJob::State::Solved;
    app.notify("Plan: " + st.result, st.resultIsError && state != PlanJob::State::Cancelled);
  }
  if (!st.stepNotice.empty()) app.notify(st.stepNotice);
  st.stepNotice.clear();
  if (!app.driver.loaded()) return;
  const std::string notice = st.playback.update(app.driver, app.live.touched());
  if (!notice.empty()) app.notify(notice);
}

void planAfterStep(AppState& app) {
  // On the physics worker (app.physicsThread): the notice waits for planBeforeStep on the UI thread.
  const std::string notice = app.plan.playback.afterStep(app.driver);
  if (!notice.empty()) app.plan.stepNotice = notice;
}

std::string planHudLine(const AppState& app) {
  return app.driver.loaded() ? app.plan.playback.hudLine(app.driver) : std::string();
}

}  // namespace varsim
