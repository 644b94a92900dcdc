// plan/mpc_controller.h — receding-horizon (model-predictive) control on the plan problems' DMOC transcriptions:
// every control period the registered plan problem of the scene is rebuilt from the running vehicle's measured
// state (its plan endpoints' startFrom), solved by the same Ipopt adapter as `varsim plan`, warm-started from the
// previous solution shifted by the steps since, and its controls reach the vehicle as the plan's input events.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "plan/ipopt_solver.h"
#include "plan/plan_problem.h"
#include "scenes/scene.h"

namespace varsim {

// Unset optional fields take the vehicle's default (MpcController resolves them; settings() reads them back): 60
// segments, a re-plan every 0.1 s (the boat every two steps of the scene's dt: a plan's first thrust is the held
// one), 30 iterations, a cold restart every 1 s and MUMPS, no roll-out; the helicopter 30 segments (3 s), 12
// iterations, a cold restart every 10 s, LDL^T and the roll-out, unless its problem's horizons end held by equalities
// (PlanInstance::fixedEnd: at rest, or on the target pose): then 30 iterations, a cold restart every 1 s, LDL^T, no
// roll-out (true refused) and, the pose fixed, the problem's N as the horizon; the car a cold restart every 2 s
// within the re-plan's budget and LDL^T; the boat 30 segments, LDL^T and no cold restarts; the snakeboard 30
// segments, 60 iterations and LDL^T (measured in docs/mpc.md).
struct MpcSettings {
  std::optional<int> horizon;        // segments of the scene's dt per solve (the plan key N), >= 2
  std::optional<double> period;      // s between re-solves; rounded to a whole number (>= 1) of the scene's dt
  std::optional<int> maxIterations;  // Ipopt iteration cap per solve: the deterministic budget
  // Warm starts also move the multipliers of the problem's inequality rows (PlanInstance::rowBlocks: the helicopter's
  // actuator rates and clearances) with the plan instead of restarting them at zero. Measured on heli_follow
  // (docs/mpc.md): fewer iterations and almost no stale re-plans, but the goal followed farther off; off by default.
  bool shiftInequalityMultipliers = false;
  // Warm starts move the dynamics rows' multipliers with the plan (true) or restart them at zero (false); unset: the
  // vehicle's default (the helicopter restarts them, measured in docs/mpc.md; the others move them).
  std::optional<bool> shiftDynamicsMultipliers;
  bool warmStart = true;   // false: every solve starts from the problem's initial guess (benchmark's cold column)
  // s between extra cold solves beside the warm one (the cheaper feasible one is adopted), 0: never; a value
  // below the period restarts at every re-plan
  std::optional<double> restart;
  // The cold solve of a restart shares the re-plan's iteration budget (true): it runs only the iterations the warm
  // solve left of maxIterations, is adopted only when it finishes (and costs less), and an unfinished one continues
  // in the next re-plans' leftovers, so no re-plan does more than maxIterations of work; false: its own
  // maxIterations, an unfinished flyable cold solve adopted too. Unset: the vehicle's default (the car shares,
  // measured in docs/mpc.md; the others do not).
  std::optional<bool> restartShared;
  std::optional<KktSolver> kktSolver;  // Ipopt's linear solver for every solve
  // An unfinished solve (the iteration budget spent) is adopted when every bound and every row beyond the dynamics
  // holds to 1e-6 and the dynamics rows to this (their units: m, m/s, rad). The default asks as much of them;
  // a larger value adopts a budgeted iterate whose controls are the plan (the real vehicle steps its own dynamics
  // under them and the next period re-plans from where it went). From 1e-6 to 1.
  double dynamicsTolerance = 1e-6;
  // An unfinished solve is rolled out (PlanInstance::rollOut): its controls flown by the controller's model scene from
  // the measured start, the stepped states replacing the iterate's (its dynamics rows then hold to round-off), and it
  // is adopted when every bound and every row beyond the dynamics holds to 1e-6 (dynamicsTolerance unused); true is
  // refused for a problem without a roll-out or whose horizons end held by equalities (PlanInstance::fixedEnd).
  std::optional<bool> rollout;
  // Ipopt options by name for every solve (IpoptSettings::options; bench_mpc's levers)
  std::vector<std::pair<std::string, std::string>> ipoptOptions;
  bool profile = false;  // Ipopt's timing statistics in MpcSolve::profile (IpoptSettings::profile: off, cheaper)
};

// What the last re-plan did (the CSV's controller columns, the benchmark's numbers).
struct MpcSolve {
  long step = -1;          // the physics step before which it ran; -1: none yet
  int iterations = 0;      // Ipopt's, of the warm solve plus the cold one when a restart ran
  std::string status;      // Ipopt's status name
  bool adopted = false;    // its plan drives the vehicle; false: the previous plan keeps running (stale)
  bool warm = false;       // it started from the shifted previous solution
  double dynamics = 0.0;   // largest dynamics row residual of the kept plan (0 when Ipopt solved it)
  double seconds = 0.0;    // wall time of the solve (timing only: never in a deterministic output)
  IpoptProfile profile;    // Ipopt's CPU time split, summed over the warm and the cold solve (MpcSettings::profile)
  bool rolledOut = false;  // the kept plan is the roll-out of an unfinished solve (MpcSettings::rollout)
};

// Every plan variable layout the shift assumes: node k's state and segment k's controls interleaved with a fixed
// stride, node N's state last (n = stride N + state), the dynamics rows first, `dynamicsPerSegment` rows per segment
// (PlanInstance::dynamicsRowsPerSegment). Shifts x, bound multipliers, the dynamics multipliers and those of `blocks`
// (PlanInstance::rowBlocks: actuator rates, clearance rows) `steps` segments earlier; the vacated tail continues
// node N (see shifted() in the .cpp), the dynamics multipliers of the tail restart at zero, an inequality block's
// hold its last segment's; rows in no block restart at zero.
IpoptResult shiftSolution(const IpoptResult& r, int segments, int steps, int dynamicsPerSegment,
                          const std::vector<RowBlock>& blocks = {});

class MpcController {
 public:
  // `setup` is the controller's model: its scene parameters (the vehicle as the controller believes it to be) and
  // its plan keys (target, weights, margins). Throws BadInput on a scene without a plan problem or plan endpoints,
  // free_time = 1 (a receding horizon needs a fixed step), a horizon < 2, a period below the scene's dt (the
  // boat's: below two steps) or past the horizon, or a dynamics tolerance outside 1e-6 to 1.
  MpcController(PlanSetup setup, MpcSettings settings);

  // Before physics step `step` (from 0) of `running`: re-solves when a period has passed since the last re-plan,
  // applies the adopted plan's events for this step to `running` (`edited`: the runner's edited parameters, as
  // for an input file's events) and returns the stick inputs for the step.
  InputVector beforeStep(Scene& running, ParamSet& edited, long step);

  // Moves the goal: plan keys (target_x, ...) validated against the problem's ranges (BadInput otherwise).
  void setGoal(const std::vector<std::pair<std::string, double>>& planKeys);
  double goal(const std::string& planKey) const { return setup_.plan.real(planKey); }
  // The goal's velocity, one entry per goalKeys() (m/s; fewer entries: the rest 0). Used by problems with velocity
  // keys (the helicopter's target_vx/vy/vz for target_x/y/z: its plan ends where the goal will be and, with
  // weight_track, follows the goal's path on the way; ignored by the others): each re-plan gives the problem the
  // velocity and the goal moved on by it for the time since setGoal (a track of points is followed as the lines
  // between them); clamped to the keys' ranges.
  void setGoalVelocity(std::vector<double> velocity) { goalVelocity_ = std::move(velocity); }
  // The plan keys of the goal's position (target_x/target_y, the boat's dock_x/dock_y, the helicopter's
  // target_x/y/z with target_pad = point); empty when the problem's
  // goal is not a free position (the helicopter's named landing pad).
  std::vector<std::string> goalKeys() const;

  const MpcSettings& settings() const { return settings_; }  // every optional field resolved
  const MpcSolve& lastSolve() const { return last_; }
  int periodSteps() const { return periodSteps_; }
  // The adopted plan (the app's autopilot applies and draws it from its worker's copy): its controls as the scene's
  // input events and sticks, local step 0 = physics step planStep(); planStep() < 0 before the first adopted plan.
  const InputTrack& plannedInputs() const { return track_; }
  long planStep() const { return planStep_; }
  int solves() const { return solves_; }
  int staleSolves() const { return stale_; }  // re-plans not adopted
  int restartsTaken() const { return restartsTaken_; }  // re-plans that adopted the cold solve over the warm one

 private:
  // An asked-for roll-out of a problem without one or whose horizons end held by equalities: BadInput naming why
  // (and what the defaults run: `problemN`, the problem file's N, is their horizon when the end pose is fixed).
  void refuseRollOut(const PlanInstance& plan, long problemN) const;
  void replan(const Scene& running, long step);  // solve(), or a stale re-plan when the problem refuses the state
  void solve(const Scene& running, long step);
  PlanSetup setup_;
  MpcSettings settings_;
  const PlanProblemInfo* problem_ = nullptr;
  int periodSteps_ = 1;
  IpoptResult warmFrom_;                // the last solve's result (adopted or not): the next warm start
  long warmStep_ = -1;                  // the physics step its node 0 is
  IpoptResult coldFrom_;                // an unfinished cold solve continued within later re-plans' budgets
  long coldStep_ = -1;                  // the physics step its node 0 is; -1: none
  NlpStructure structure_;              // the problem's Jacobian/Hessian pattern, the same for every re-plan
  InputTrack track_;                    // its controls as the scene's inputs
  long planStep_ = -1;                  // the physics step its node 0 is
  MpcSolve last_;
  int solves_ = 0, stale_ = 0, restartsTaken_ = 0;
  long restartSteps_ = 0, lastRestart_ = 0;
  std::vector<double> goalVelocity_;
  long goalStep_ = -1;  // the physics step the goal was set at (-1: set since the last step)
};

}  // namespace varsim
