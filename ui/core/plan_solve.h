// ui/core/plan_solve.h — what the app's Plan button runs (and the tests run the same way): the registered plan
// problem of the running scene (plan/plan_problem.h), started where the vehicle is, solved by Ipopt on the
// PlanJob's worker with the job's cancel flag, every iterate reported with its ghost path, and a converged plan
// returned playable (its input track, the scene parameters it starts from, N).
#pragma once

#include <string>

#include "plan/plan_problem.h"
#include "scenes/scene.h"
#include "ui/core/plan_job.h"

namespace varsim {

// The scene's problem as its preset file (under the assets directory) sets it up: the scene part (world, dt,
// start) and the plan keys; the scene's and the plan's defaults when it cannot be read, with the reason in
// *note. Throws BadInput if no problem plans for the scene.
PlanSetup planPreset(const std::string& scene, std::string* note);

// The running scene's parameters with its start state set to the current state (plan/plan_endpoints.h), so the
// plan starts where the vehicle is and Play continues from there; unchanged for a scene without that hook (the
// plan then starts at the scene's start). Throws BadInput when the state fits no start key's range.
ParamSet planStartParams(const std::string& scene, const Scene& running, const ParamSet& params);

// The solve of `setup` for PlanJob::start. The setup is validated (BadInput ends the job as Failed). `warm`: a
// previous outcome's solver state to start from (re-planning; Ipopt's warm start, used when the sizes match).
// `budgetSeconds` > 0: a solve still unconverged after that much CPU time (of the solving thread) stops at its next iteration with the status
// "Time_Budget_Exceeded" (the panel's budget; max_iter bounds the iterations as well).
PlanJob::Solve planSolve(PlanSetup setup, std::shared_ptr<const IpoptResult> warm = nullptr, double budgetSeconds = 0.0);

}  // namespace varsim
