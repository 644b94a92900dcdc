// ui/core/autopilot.cpp — the app's Autopilot (MPC): the worker thread's re-plans on a copy of the vehicle, the
// physics side's hand-over and plan following, and the predicted path; see the header.
#include "ui/core/autopilot.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "engine/sim/errors.h"
#include "scenes/live_edit.h"
#include "ui/core/asset_files.h"
#include "ui/core/plan_defaults.h"
#include "ui/core/plan_solve.h"

namespace varsim {

namespace {

// The MPC preset each vehicle flies with (its plan keys: weights, margins, terminal penalty), the horizon and where
// along the vehicle's heading the goal starts; the period is the vehicle's default (MpcController: 0.1 s, the boat's
// two steps, 0.2 s at its preset's h = 0.1 s). The boat re-plans boat_hold's transcription with thrust 200 times as
// costly (boat_follow): the boat cannot brake (stern thrusters only push, the wind is its brake), and with
// boat_hold's weight a goal moved 3 m ahead is overshot by 1.3 m, with boat_follow's by 0.02 m (docs/mpc.md). The
// snakeboard re-plans a 3 s horizon at h = 0.1 s (snakeboard_follow: tens of ms of CPU where snakeboard_reach's
// 160-node gait takes seconds) towards a goal at the heading it has; its forward is its body -x, so "ahead" is
// negative along theta.
struct AutopilotPreset {
  const char* scene;
  const char* file;
  double horizonSeconds;
  double goalAhead;         // m along the vehicle's heading column where M puts the goal
  bool headingFromVehicle;  // the goal's target_heading is the vehicle's heading when engaged (not the preset's)
};
constexpr AutopilotPreset kPresets[] = {{"car", "problems/car_follow.json", 3.0, 8.0, false},
                                        {"helicopter", "problems/heli_follow.json", 3.0, 8.0, false},
                                        {"boat", "problems/boat_follow.json", 3.0, 3.0, false},
                                        {"snakeboard", "problems/snakeboard_follow.json", 3.0, -4.0, true}};

const AutopilotPreset* presetFor(const std::string& scene) {
  for (const AutopilotPreset& p : kPresets)
    if (scene == p.scene) return &p;
  return nullptr;
}

const AutopilotPreset& requirePreset(const std::string& scene) {
  const AutopilotPreset* p = presetFor(scene);
  if (!p)
    throw BadInput("Autopilot: scene '" + scene + "' has none (the car, the helicopter, the boat and the snakeboard have one)");
  return *p;
}

int columnOf(const std::vector<std::string>& columns, const char* name) {
  const auto it = std::find(columns.begin(), columns.end(), name);
  return it == columns.end() ? -1 : int(it - columns.begin());
}

}  // namespace

Autopilot::~Autopilot() { stopWorker(); }

bool Autopilot::available(const std::string& scene) { return presetFor(scene) != nullptr; }

double Autopilot::goalAhead(const std::string& scene) { return requirePreset(scene).goalAhead; }

ParamSet Autopilot::flightParams(const std::string& scene, const Scene& running, const ParamSet& params) {
  const PlanSetup preset = loadPlanProblem(assetPath(requirePreset(scene).file));
  ParamSet out = params;
  for (const ParamSpec& spec : preset.scene.params.specs())
    if (!isStartKey(spec.key) && out.spec(spec.key)) out.set(spec.key, preset.scene.params.value(spec.key), "autopilot");
  // Only the start keys come from where it is: a plan's start also holds the helicopter's actuators with its assist
  // off (plan/helicopter_plan_endpoints.cpp), which would become the user's keys that a hand-back restores.
  const ParamSet started = planStartParams(scene, running, out);
  for (const ParamSpec& spec : started.specs())
    if (isStartKey(spec.key)) out.set(spec.key, started.value(spec.key), "autopilot");
  return out;
}

void Autopilot::engage(const std::string& scene, const Scene& running, double goalX, double goalY, bool synchronous) {
  stopWorker();
  const AutopilotPreset& preset = requirePreset(scene);
  PlanSetup setup = loadPlanProblem(assetPath(preset.file));
  setup.scene = {scene, running.params()};  // the controller's model: the vehicle as it runs
  setup.source = "Autopilot";
  MpcSettings settings;
  settings.horizon = std::clamp(int(std::lround(preset.horizonSeconds / running.dt())), 10, 200);
  if (preset.headingFromVehicle && setup.plan.spec("target_heading") && running.params().spec("start_heading"))
    setup.plan.setReal("target_heading", running.params().real("start_heading"));  // flightParams: where it is
  // The boat holds station bow into the wind it runs in (the presets' dock heading for the scene's default wind):
  // its thrusters only push and it turns at about 0.12 rad/s on one thruster, so a dock it would have to face away
  // from the wind at is one it drifts off.
  if (setup.plan.spec("dock_heading") && running.params().spec("wind")) {
    const Eigen::Vector3d wind = running.params().vec3("wind");
    const std::vector<double>& attitude = running.params().vector("start_attitude");
    if (std::hypot(wind.x(), wind.y()) > 0.0 && attitude.size() == 3) {
      const double into = std::atan2(-wind.y(), -wind.x()), twoPi = 6.283185307179586;  // turn < half a circle
      setup.plan.setReal("dock_heading", into + twoPi * std::round((attitude[2] - into) / twoPi));
    }
  }
  controller_ = std::make_unique<MpcController>(setup, settings);
  goalKeys_ = controller_->goalKeys();
  if (goalKeys_.size() < 2) throw BadInput("Autopilot: the " + scene + "'s problem has no goal position to move");
  for (size_t i = 0; i < 2; ++i) {
    const ParamSpec* spec = setup.plan.spec(goalKeys_[i]);
    goalLo_[i] = spec ? spec->minValue : -1e300;
    goalHi_[i] = spec ? spec->maxValue : 1e300;
  }
  model_ = SceneRegistry::create(scene, running.params());
  predictor_ = SceneRegistry::create(scene, running.params());
  modelEdited_ = edited_ = running.params();
  scene_ = scene;
  synchronous_ = synchronous;
  periodSteps_ = controller_->periodSteps();
  plan_ = Plan{};
  appliedTo_ = handedOver_ = -1;
  eventKeys_.clear();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = requested_ = finished_ = false;
    view_ = AutopilotView{};
    view_.active = true;
    view_.goalHasHeight = goalKeys_.size() == 3;
    if (view_.goalHasHeight) view_.goal[2] = controller_->goal(goalKeys_[2]);
  }
  active_ = true;
  setGoal(goalX, goalY);
  worker_ = std::thread([this] { loop(); });
}

std::vector<std::string> Autopilot::disengage() {
  stopWorker();
  active_ = false;
  std::lock_guard<std::mutex> lock(mutex_);
  view_ = AutopilotView{};
  return eventKeys_;
}

void Autopilot::stopWorker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void Autopilot::setGoal(double x, double y) {
  std::lock_guard<std::mutex> lock(mutex_);
  goal_ = {std::clamp(x, goalLo_[0], goalHi_[0]), std::clamp(y, goalLo_[1], goalHi_[1])};
  view_.goal[0] = goal_[0];
  view_.goal[1] = goal_[1];
}

void Autopilot::moveGoal(double dx, double dy) {
  std::array<double, 2> g;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    g = goal_;
  }
  setGoal(g[0] + dx, g[1] + dy);
}

AutopilotView Autopilot::view() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return view_;
}

std::vector<std::string> Autopilot::applyEvents(Scene& scene, ParamSet& edited, const Plan& plan, long fromLocal,
                                                long toLocal) const {
  // A key set several times in the range takes its last value (the steps a late plan missed are not re-run).
  std::map<std::string, const InputEvent*> last;
  std::vector<std::string> order;
  for (long k = std::max(0L, fromLocal); k <= toLocal; ++k) {
    const auto [first, end] = plan.inputs.eventsAt(k);
    for (size_t i = first; i < end; ++i) {
      const InputEvent& e = plan.inputs.events()[i];
      if (!last.count(e.key)) order.push_back(e.key);
      last[e.key] = &e;
    }
  }
  for (const std::string& key : order) applyInputEvent(scene, scene_, edited, *last[key]);
  return order;
}

InputVector Autopilot::beforeStep(Scene& running, long step) {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    // Every period; synchronous, also every step until a first plan is adopted (as the controller re-plans).
    const bool due = handedOver_ < 0 || step - handedOver_ >= periodSteps_ || (synchronous_ && plan_.step < 0);
    // The re-plan made for this step is waited for: it starts from the state this step has.
    if (due && requested_) changed_.wait(lock, [this] { return finished_ || stop_; });
    const auto adopt = [this, step] {
      if (!finished_ || (result_.step >= 0 && step < result_.step)) return;  // a plan for a later step waits for it
      finished_ = false;
      if (result_.step >= 0 && result_.step != plan_.step) {
        plan_ = std::move(result_);
        appliedTo_ = plan_.step - 1;
      }
    };
    adopt();
    if (due && !stop_) {
      request_ = {step, running.saveState(), goal_, synchronous_ ? 0 : periodSteps_, plan_};
      requested_ = true;
      handedOver_ = step;
      changed_.notify_all();
      if (synchronous_) {
        changed_.wait(lock, [this] { return finished_ || stop_; });
        adopt();
      }
    }
  }
  if (plan_.step < 0 || step < plan_.step) return neutralInputs(running.controls());  // no plan yet: hands off
  for (const std::string& key : applyEvents(running, edited_, plan_, appliedTo_ + 1 - plan_.step, step - plan_.step))
    if (std::find(eventKeys_.begin(), eventKeys_.end(), key) == eventKeys_.end()) eventKeys_.push_back(key);
  appliedTo_ = step;
  return plan_.inputs.at(step - plan_.step);
}

bool Autopilot::readyFor(long step) const {
  if (synchronous_) return true;
  std::lock_guard<std::mutex> lock(mutex_);
  const bool due = handedOver_ < 0 || step - handedOver_ >= periodSteps_;
  return !(due && requested_);
}

void Autopilot::loop() {
  for (;;) {
    Request r;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [this] { return stop_ || (requested_ && !finished_); });
      if (stop_) return;
      r = request_;
    }
    solve(r);
  }
}

void Autopilot::stepAhead(const Request& r) {
  model_->loadState(r.state);
  const Plan& cur = r.current;
  const InputVector neutral = neutralInputs(model_->controls());
  if (cur.step >= 0) applyEvents(*model_, modelEdited_, cur, 0, r.step - cur.step - 1);  // the keys as they stand
  for (long k = r.step; k < r.step + r.ahead; ++k) {
    if (cur.step < 0 || k < cur.step) {
      model_->step(model_->dt(), neutral);
      continue;
    }
    applyEvents(*model_, modelEdited_, cur, k - cur.step, k - cur.step);
    model_->step(model_->dt(), cur.inputs.at(k - cur.step));
  }
}

void Autopilot::solve(const Request& r) {
  Plan p;
  std::vector<std::array<float, 3>> path;
  const long target = r.step + r.ahead;
  try {
    stepAhead(r);
    const std::vector<double> start = model_->saveState();
    controller_->setGoal({{goalKeys_[0], r.goal[0]}, {goalKeys_[1], r.goal[1]}});
    controller_->beforeStep(*model_, modelEdited_, target);  // re-plans: a period has passed since the last
    p = {controller_->planStep(), controller_->plannedInputs()};
    if (p.step >= 0) path = predict(start, target, p);
  } catch (const std::exception&) {
    p = Plan{};  // a state the problem refuses: the last plan keeps running (stale)
  }
  std::lock_guard<std::mutex> lock(mutex_);
  result_ = std::move(p);
  finished_ = true;
  requested_ = false;
  view_.last = controller_->lastSolve();
  view_.solves = controller_->solves();
  view_.stale = controller_->staleSolves();
  if (!path.empty()) {
    view_.predicted = std::move(path);
    view_.predictedFrom = target;
  }
  changed_.notify_all();
}

std::vector<std::array<float, 3>> Autopilot::predict(const std::vector<double>& state, long from, const Plan& plan) {
  // The vehicle's path under the plan from the state it was made for: the plan's own controls through the scene's
  // stepper (which reproduces the planned nodes), so what is drawn is what the vehicle will do without a disturbance.
  predictor_->loadState(state);
  ParamSet edited = predictor_->params();
  const long local0 = from - plan.step, last = plan.inputs.lastStep();
  const std::vector<std::string> columns = predictor_->columns();
  const int cx = columnOf(columns, "x"), cy = columnOf(columns, "y"), cz = columnOf(columns, "z");
  std::vector<std::array<float, 3>> out;
  std::vector<double> row;
  predictor_->diagnostics(row);
  const auto add = [&] {
    out.push_back({float(row[size_t(cx)]), float(row[size_t(cy)]), cz >= 0 ? float(row[size_t(cz)]) : 0.0f});
  };
  if (cx < 0 || cy < 0) return out;
  add();
  try {
    applyEvents(*predictor_, edited, plan, 0, local0);
    for (long k = local0; k <= last; ++k) {
      if (k > local0) applyEvents(*predictor_, edited, plan, k, k);
      predictor_->step(predictor_->dt(), plan.inputs.at(k));
      predictor_->diagnostics(row);
      add();
    }
  } catch (const std::exception&) {
    // A predicted step the scene refuses ends the drawn path there.
  }
  return out;
}

}  // namespace varsim
