// ui/core/plan_defaults.h — what the Plan panel starts from and what its Plan button solves, without ImGui (the
// tests call the same functions). The horizon is a time in seconds (the preset's N steps of the preset's dt); a
// solve runs at the problem's own dt (the preset's), not the running scene's, with N = round(T / dt), and with the
// preset's scene settings (world, gait, waves) under the vehicle's current state. Ipopt's outcome is told in plain
// words (planOutcomeText).
#pragma once

#include <string>

#include "plan/plan_problem.h"
#include "scenes/scene.h"

namespace varsim {

// The panel's starting values for one scene: the preset's plan keys, the preset's scene settings and the horizon.
struct PlanDefaults {
  ParamSet plan;         // the preset's plan keys (N is derived from horizonSeconds at each solve)
  ParamSet presetScene;  // the preset's scene parameters (its dt, world, gait, start)
  double horizonSeconds = 0.0;  // T = N dt of the preset
  double dt = 0.0;              // the problem's own step: the preset's dt
  std::string note;             // why the preset could not be read, if so (the defaults are used)
};

// The start keys (start_*, speed, steer) plan/plan_endpoints' startFrom writes from the running state; every other
// key of a preset's scene part is a setting.
bool isStartKey(const std::string& key);

// The defaults of `scene`'s plan problem (planPreset): throws BadInput if no problem plans for the scene.
PlanDefaults planDefaults(const std::string& scene);

// The preset's scene keys the plan uses in place of the running scene's ("dt = 0.05 s, world = open, ..."),
// empty when the running scene already has them all. `withStart`: the start keys count too (PlanStart::Preset).
std::string planSceneDifferences(const PlanDefaults& d, const ParamSet& running, bool withStart);

// Where a plan starts: the scene's start as the preset sets it (the default: what the preset was tuned to solve,
// e.g. the boat headed upwind towards its dock), or where the vehicle is now (re-planning mid-run).
enum class PlanStart { Preset, Current };

// The setup the Plan button solves: the running scene's parameters overlaid with the preset's scene settings (every
// preset key for PlanStart::Preset; for Current all but the start keys, which are set to where the vehicle is now,
// plan/plan_endpoints.h), dt = d.dt, N = round(horizonSeconds / dt); a goal heading is moved by whole turns to the
// one nearest the start heading (the transcription does not wrap angles). Throws BadInput (a horizon or state out
// of range) naming the key and range.
PlanSetup planPanelSetup(const std::string& scene, const Scene& running, const ParamSet& runningParams,
                         const PlanDefaults& d, const ParamSet& plan, double horizonSeconds, PlanStart start);

// Ipopt's status and the solve's numbers as a sentence a user can act on ("converged in 23 iterations (1.2 s)",
// "no plan reaches the goal from here within the limits: ...").
std::string planOutcomeText(const std::string& status, bool solved, int iterations, double seconds, int maxIterations,
                            double budgetSeconds);

}  // namespace varsim
