// ui/core/autopilot.h — the app's "Autopilot (MPC)" on a vehicle (issue 34 item 4): plan/mpc_controller, the
// receding-horizon loop `varsim mpc` runs, flies the running vehicle to a goal the user moves. Each control period
// the physics side hands the vehicle's state to a worker thread, which re-plans on its own copy of the scene (the
// controller reads only the state) while the physics keeps stepping on the last adopted plan for that period. The
// worker first steps its copy one period ahead on that plan (what the vehicle will do meanwhile), so the new plan
// starts where the vehicle will be when it takes over; a re-plan not done by then is waited for (the simulation
// runs slower than real time instead of flying a plan made for an older state). The plan's controls reach the
// vehicle as its input events and sticks, the way an input file's do. Synchronous mode (smoke tests) waits for
// each re-plan before the step it measured: the closed loop of `varsim mpc`, step for step.
#pragma once

#include <array>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/sim/input_track.h"
#include "plan/mpc_controller.h"
#include "scenes/scene.h"

namespace varsim {

// What the view and the HUD show (copied under the worker's lock).
struct AutopilotView {
  bool active = false;
  std::vector<std::array<float, 3>> predicted;  // the vehicle's path under the adopted plan (world m)
  long predictedFrom = 0;                       // the physics step of predicted[0] (one point per step after it)
  std::array<double, 3> goal{};                 // x, y (z: the helicopter's height goal)
  bool goalHasHeight = false;
  MpcSolve last;            // the latest re-plan: iterations, status, adopted, wall seconds
  int solves = 0, stale = 0;
};

class Autopilot {
 public:
  Autopilot() = default;
  ~Autopilot();
  Autopilot(const Autopilot&) = delete;
  Autopilot& operator=(const Autopilot&) = delete;

  // The scenes it flies: a plan problem with plan endpoints and an MPC preset (assets/problems/car_follow.json,
  // heli_follow.json, boat_follow.json, snakeboard_follow.json).
  static bool available(const std::string& scene);
  // Where along the vehicle's heading (m) the app's M puts the goal: 8 m, the boat 3 m (it cannot brake), the
  // snakeboard -4 m (its forward is its body -x). Throws BadInput.
  static double goalAhead(const std::string& scene);
  // The scene parameters it flies with: `params` with the preset's settings (its dt, world) and the start keys set to
  // where `running` is now. When they differ from `params` the caller rebuilds the scene at them first (the vehicle
  // continues from where it is, as the Plan panel's Play does). Throws BadInput.
  static ParamSet flightParams(const std::string& scene, const Scene& running, const ParamSet& params);
  // Starts on `running` (built from flightParams): the controller's plan keys are the preset's, the goal (x, y) its
  // target (the helicopter keeps the preset's height; the boat's dock heading is bow into the wind it runs in; the
  // snakeboard's target heading is the one it has).
  // Physics must be idle. Throws BadInput.
  void engage(const std::string& scene, const Scene& running, double goalX, double goalY, bool synchronous);
  // Stops (the worker finishes its solve first); returns the scene keys the plan's events set, which the caller
  // restores to the user's values.
  std::vector<std::string> disengage();
  bool active() const { return active_; }

  // UI thread: moves the goal (the next re-plan sees it); clamped to the problem's ranges.
  void setGoal(double x, double y);
  void moveGoal(double dx, double dy);

  // Physics side, before step `step` of `running`: takes a finished re-plan, hands the state to the worker once a
  // period has passed since the last hand-over (and waits for it in synchronous mode), applies the adopted plan's
  // events up to this step to `running` (those a late plan's first steps held too: the last value of each key), and
  // returns the step's stick inputs (neutral before the first adopted plan).
  InputVector beforeStep(Scene& running, long step);
  // False when beforeStep(step) would wait for the worker (not in synchronous mode: there it always waits).
  bool readyFor(long step) const;

  AutopilotView view() const;

 private:
  struct Plan {
    long step = -1;  // the physics step its node 0 is
    InputTrack inputs;
  };
  struct Request {
    long step = -1;            // the physics step the state was measured before
    std::vector<double> state;
    std::array<double, 2> goal{};
    int ahead = 0;             // steps to predict on `current` before planning (0: synchronous)
    Plan current;              // the plan the vehicle flies meanwhile
  };
  void loop();
  void solve(const Request& r);  // worker thread
  // The vehicle's path under `plan` from `state` at physics step `from`.
  std::vector<std::array<float, 3>> predict(const std::vector<double>& state, long from, const Plan& plan);
  // Steps model_ from r.state over r.ahead steps on r.current (events and sticks; neutral before a first plan).
  void stepAhead(const Request& r);
  void stopWorker();
  // Applies the plan's events of local steps [fromLocal, toLocal] to `scene`; returns the keys they set.
  std::vector<std::string> applyEvents(Scene& scene, ParamSet& edited, const Plan& plan, long fromLocal,
                                       long toLocal) const;

  std::string scene_;
  bool active_ = false, synchronous_ = false;
  std::unique_ptr<MpcController> controller_;  // worker thread only (after engage)
  std::unique_ptr<Scene> model_, predictor_;   // the worker's copies of the vehicle
  ParamSet modelEdited_;
  std::vector<std::string> goalKeys_;
  std::array<double, 2> goalLo_{}, goalHi_{};  // the problem's ranges of the goal keys

  // Physics side.
  ParamSet edited_;                     // the running scene's parameters as the plans' events left them
  std::vector<std::string> eventKeys_;  // scene keys the plans' events set
  Plan plan_;
  long appliedTo_ = -1;   // physics step up to which plan_'s events are applied
  long handedOver_ = -1;  // physics step of the last state handed to the worker
  int periodSteps_ = 1;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::thread worker_;
  bool stop_ = false, requested_ = false, finished_ = false;
  Request request_;
  Plan result_;
  std::array<double, 2> goal_{};  // under mutex_
  AutopilotView view_;
};

}  // namespace varsim
