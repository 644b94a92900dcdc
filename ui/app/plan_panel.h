// ui/app/plan_panel.h — the Plan panel (issue 10 item 5) of every scene with a registered plan problem
// (plan/plan_problem.h): goal (a named bay/pad/dock or a clicked ground point, with a heading), the horizon in
// seconds (N derived at the problem's own dt, ui/core/plan_defaults.h), weights; Plan solves on a worker thread (ui/core/plan_job.h) while the view keeps drawing, with Cancel at any
// time, log-scale convergence plots and the current iterate drawn as a ghost curve; Play flies the converged plan
// through the stepper (ui/core/plan_playback.h) until a touched control takes over. A failed solve names Ipopt's
// status in plain words and leaves the scene as it was; a solve past its CPU budget (`varsim plan`'s setting, shown and editable) stops by itself.
#pragma once

#include <string>
#include <vector>

#include "engine/sim/param.h"
#include "plan/plan_budget.h"
#include "ui/core/plan_defaults.h"
#include "ui/core/plan_job.h"
#include "ui/core/plan_playback.h"

namespace varsim {

struct AppState;

struct PlanPanelState {
  bool open = true;
  bool shown = false;      // its contents were drawn last frame (the Plan tab selected, or its window)
  std::string scene;       // the scene this state follows ("" none; a switch resets the panel)
  ParamSet planParams;     // the problem's plan keys: the preset's values, then the user's
  PlanDefaults defaults;   // the preset: plan keys, scene settings, dt and horizon (plan_defaults.h)
  double horizonSeconds = 0.0;  // T: the preset's N dt, then the user's
  PlanStart start = PlanStart::Preset;  // from the preset's start (default) or where the vehicle is now
  int goal = 0;            // index into the problem's named goals; goals.size() = the clicked point
  bool picking = false;    // the next press on the ground sets the goal, a drag from it its heading
  bool pickPressed = false;
  PlanJob job;
  PlanPlayback playback;
  PlanOutcome plan;  // the last converged plan (Play)
  bool havePlan = false;
  bool warmStart = true;  // a re-plan starts from the last plan (if it starts where that plan started)
  int maxIterations = 0;  // the running solve's max_iter (for its outcome's sentence)
  // CPU seconds a solve may take: `varsim plan --cpu-budget`'s default and range (plan/plan_budget.h), set in the panel.
  double cpuBudgetSeconds = kPlanCpuBudgetSeconds;
  double solveBudgetSeconds = 0.0;  // the running solve's budget (for its outcome's sentence)
  std::string startNote;  // why the running solve started cold although warm was asked for ("" if not)
  std::string result;     // last solve's line: iterations, cost, time, or Ipopt's status
  bool resultIsError = false;
  std::string stepNotice;  // from planAfterStep (physics worker), shown by planBeforeStep (UI thread)
};

// The Plan panel's own window, only while the Plots panel is hidden; otherwise it is the Plots panel's "Plan" tab.
void drawPlanPanel(AppState& app);
// Whether the scene has a plan problem and View > Plan is on (the panel follows the scene first).
bool planTabShown(AppState& app);
// Goal, settings, buttons, status and the convergence plot (in the tab or the window).
void drawPlanContents(AppState& app);
// Once per frame before the physics steps: a finished solve is taken over and a touched control ends Play.
void planBeforeStep(AppState& app);
// After every physics step (driver afterStep, on the physics worker when the app runs one): Play hands over
// exactly at the plan's last step.
void planAfterStep(AppState& app);
// Appends the ghost curve (current iterate), the planned path and the goal marker to the frame's draw list.
void addPlanDrawing(AppState& app);
// The HUD line naming the input source ("input: PLAN, step k / N ..."), empty when there is none to show.
std::string planHudLine(const AppState& app);
// While picking a goal: press on the ground = position, drag = heading; after AppState::layoutView.
void handlePlanGoalClick(AppState& app);
// Where the mouse ray meets the scene's ground plane (false: it never does, e.g. above the horizon); also the
// Autopilot's goal drag (autopilot_ui.h).
bool groundPoint(const AppState& app, double& x, double& y);

}  // namespace varsim
