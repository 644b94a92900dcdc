// plan/mpc_controller.cpp — the receding-horizon loop: measure (plan endpoints' startFrom), rebuild the plan
// problem at the horizon, solve warm within the iteration cap, adopt the solution if it is feasible, and feed its
// input events to the running scene step by step. The dynamics are the plan problems' own (no second copy).
#include "plan/mpc_controller.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "plan/plan_endpoints.h"
#include "scenes/live_edit.h"

namespace varsim {
namespace {

// An unfinished solve whose iterate satisfies every row and bound this closely is still a plan the vehicle can
// fly (its dynamics residual is far below what one period of closed loop corrects); anything worse is stale.
// The dynamics rows may be given more (MpcSettings::dynamicsTolerance).
constexpr double kFeasible = 1e-6;

struct Violation {
  double dynamics = 0.0, rest = 0.0;  // the dynamics rows' largest |residual|; every other row's and bound's
  bool rolledOut = false;             // of a roll-out (its dynamics rows are the scene's step: not a criterion)
};

// The rows' violations of iterate x (the dynamics rows first, `dynamicsRows` of them, as shiftSolution assumes);
// an iterate of the wrong size (a solve that never started: an option Ipopt refused) violates everything.
Violation violation(const Nlp& nlp, const Eigen::VectorXd& x, int dynamicsRows) {
  if (x.size() != nlp.numVariables()) return {kNlpInfinity, kNlpInfinity};
  Eigen::VectorXd xL, xU, gL, gU;
  nlp.bounds(xL, xU, gL, gU);
  const Eigen::VectorXd g = nlp.constraints(x);
  const Eigen::VectorXd over = (gL - g).cwiseMax(g - gU);
  Violation v;
  v.rest = std::max((xL - x).maxCoeff(), (x - xU).maxCoeff());
  for (int i = 0; i < int(g.size()); ++i) (i < dynamicsRows ? v.dynamics : v.rest) = std::max(i < dynamicsRows ? v.dynamics : v.rest, over[i]);
  return v;
}

// The larger of the two, infinite when not finite (an iterate that diverged).
double worst(const Violation& v) {
  const double w = std::max(v.dynamics, v.rest);
  return std::isfinite(v.dynamics) && std::isfinite(v.rest) ? w : kNlpInfinity;
}

Eigen::VectorXd shifted(const Eigen::VectorXd& v, int stride, int segments, int steps, bool extrapolate) {
  Eigen::VectorXd out = v;
  const int state = int(v.size()) - stride * segments;
  for (int i = 0; i < stride * segments; ++i) {
    const int src = i + steps * stride;
    if (src < stride * segments) out[i] = v[src];
    else if (!extrapolate) out[i] = 0.0;  // multipliers of the vacated tail: none yet
    else {
      // The vacated tail continues the last segment: its twist and controls held, the node state extrapolated
      // linearly from nodes N-1 and N (rest when the plan ends at rest; in motion, moving on, which the dynamics
      // rows nearly satisfy where a tail at rest with no control violated them).
      const int j = i % stride, m = i / stride + steps - segments;  // node k is the old node k + steps = N + m
      const double last = v[stride * segments + (j < state ? j : 0)];
      out[i] = j < state ? last + m * (last - v[stride * (segments - 1) + j]) : v[stride * (segments - 1) + j];
    }
  }
  for (int j = 0; extrapolate && steps > 0 && j < state; ++j) {  // node N: the old node N + steps
    const double last = v[stride * segments + j];
    out[stride * segments + j] = last + steps * (last - v[stride * (segments - 1) + j]);
  }
  return out;
}

// Measured (docs/mpc.md, range ends): one cold re-plan of the boat at 200 segments takes 0.68 s of CPU (0.51 s with
// the presets' L-BFGS Hessian), at 500 1.7 s (its plan's own N goes to 1000 with the segment Hessian); the
// snakeboard's at 1000 segments 0.99 s, at 5000 4.8 s (its plan's N goes to 20000). A 20 s run re-plans 100 to 200 times: at 1000 segments it ran for more than
// 150 s (boat) and at 20000 for hours (snakeboard).
struct MpcHorizonCap {
  const char* scene;
  long segments;
  const char* why;
};
constexpr MpcHorizonCap kMpcHorizonCaps[] = {
    {"boat", 200, " (the boat's receding horizon: a re-plan at 200 segments takes 0.7 s of CPU)"},
    {"snakeboard", 200, " (the snakeboard's receding horizon: a re-plan at 1000 segments takes 1 s of CPU)"}};

// The vehicles' defaults for MpcSettings' unset fields. The helicopter (docs/mpc.md, heli_follow's 66 s through the
// canyon): a 3 s horizon within a fixed budget of 12 iterations, LDL^T and a cold restart every 10 s keep a re-plan's
// CPU p99 at 25 to 31 ms, and the roll-out makes every budgeted solve a plan it can fly (tracking 0.67 times the path
// pilot's error, the push and the take-off of the checks rejected and made); its dynamics multipliers restart at
// zero (moved with the plan: 8.2 iterations per re-plan instead of 7.6, 0.70 times the pilot's error against 0.67). The car
// (car_follow's 60 s through the parking lot): LDL^T and a cold restart every 2 s whose cold solve shares the
// re-plan's 30 iterations keep a re-plan's CPU p99 under 20 ms (17.8 to 18.6 ms; 20.4 to 21.4 ms every 1 s with a
// budget of its own, 15.5 to 17.7 ms without restarts) and find the way back to a goal that circles behind the car on
// open ground (bench_mpc's circling goal: mean tracking error 1.53 m, 1.47 m every 1 s with its own budget, 2.81 m
// without). The boat (bench_mpc boat: boat_hold and boat_follow for 10 to 20 s, horizon 30, period 0.2 s): LDL^T and
// no cold restarts, with the presets' L-BFGS Hessian (their key hessian = lbfgs), keep a re-plan's CPU p99 at 15 to
// 43 ms (MUMPS, the segment Hessian and a cold restart every 1 s: 143 to 246 ms), the distance from the dock the same
// to 0.2 mm and no re-plan stale either way (the restarts changed no distance); its horizon of 30 segments (3 s, the
// app's) against 60: p99 15 to 43 ms against 64 to 131 ms, the largest distance from the dock in the stronger wind
// 0.048 m against 0.178 m. The snakeboard (bench_mpc_snake, snakeboard_follow's 30 s goal track): LDL^T and a budget
// of 60 iterations leave 2 of 300 re-plans stale (MUMPS within 30: 25) at a CPU p99 of 18 ms (53 ms), mean tracking
// error 0.858 m (0.865 m); its horizon of 30 segments against 60: p99 18 ms against 38 ms, mean tracking error
// 0.858 m against 1.530 m. The cold solve of those two and of the other vehicles keeps a budget of its own.
// A helicopter problem whose horizons end held by equalities (PlanInstance::fixedEnd: at rest, or on the target pose)
// has no roll-out to adopt (no roll-out meets them: 0 of 660 re-plans adopted within 12 iterations, docs/mpc.md), so
// it takes what was measured there: 30 iterations, a cold restart every 1 s, LDL^T, and with the target pose fixed
// the problem's own N as the horizon (a 3 s horizon cannot reach heli_canyon's pad 330 m away).
// Every vehicle re-plans every 0.1 s but the boat, every two steps of the scene's dt (0.2 s at its presets' h = 0.1 s,
// the period of the measurements above): its plan holds the first segment's thrust at the one the boat already holds
// (boat_dmoc.h: u_0 fixed), so its own thrust acts from the second step on and a re-plan every step would never
// change the thrust (an explicit shorter period is refused).
struct MpcVehicleDefaults {
  const char* scene;
  int horizon, maxIterations;
  double restart;
  KktSolver kkt;
  bool rollout, shiftDynamics, restartShared;
  double period;    // s between re-plans, when periodSteps is 0
  int periodSteps;  // > 0: the period is that many steps of the scene's dt
};
constexpr MpcVehicleDefaults kMpcDefaults{"", 60, 30, 1.0, KktSolver::Mumps, false, true, false, 0.1, 0};
constexpr MpcVehicleDefaults kMpcVehicleDefaults[] = {
    {"helicopter", 30, 12, 10.0, KktSolver::Ldl, true, false, false, 0.1, 0},
    {"car", 60, 30, 2.0, KktSolver::Ldl, false, true, true, 0.1, 0},
    {"boat", 30, 30, 0.0, KktSolver::Ldl, false, true, false, 0.0, 2},
    {"snakeboard", 30, 60, 1.0, KktSolver::Ldl, false, true, false, 0.1, 0}};
constexpr MpcVehicleDefaults kMpcFixedEndDefaults[] = {
    {"helicopter", 30, 30, 1.0, KktSolver::Ldl, false, false, false, 0.1, 0}};

const MpcVehicleDefaults& vehicleDefaults(const std::string& scene, bool fixedEnd) {
  for (const MpcVehicleDefaults& v : kMpcFixedEndDefaults)
    if (fixedEnd && scene == v.scene) return v;
  for (const MpcVehicleDefaults& v : kMpcVehicleDefaults)
    if (scene == v.scene) return v;
  return kMpcDefaults;
}

// `end`: the problem's fixed end when its vehicle's defaults roll out (else no end rows are asked for); `dt`: the
// scene's step.
MpcSettings resolved(MpcSettings s, const std::string& scene, const PlanInstance::FixedEnd& end, long problemN,
                     double dt) {
  const MpcVehicleDefaults& d = vehicleDefaults(scene, !end.heldBy.empty());
  s.horizon = s.horizon.value_or(end.pose ? int(problemN) : d.horizon);
  s.period = s.period.value_or(d.periodSteps > 0 ? d.periodSteps * dt : d.period);
  s.maxIterations = s.maxIterations.value_or(d.maxIterations);
  s.restart = s.restart.value_or(d.restart);
  s.kktSolver = s.kktSolver.value_or(d.kkt);
  s.rollout = s.rollout.value_or(d.rollout);
  s.shiftDynamicsMultipliers = s.shiftDynamicsMultipliers.value_or(d.shiftDynamics);
  s.restartShared = s.restartShared.value_or(d.restartShared);
  return s;
}

const MpcHorizonCap* mpcHorizonCap(const std::string& scene) {
  for (const MpcHorizonCap& c : kMpcHorizonCaps)
    if (scene == c.scene) return &c;
  return nullptr;
}

}  // namespace

IpoptResult shiftSolution(const IpoptResult& r, int segments, int steps, int dynamicsPerSegment,
                          const std::vector<RowBlock>& blocks) {
  IpoptResult s = r;
  const int n = int(r.x.size()), stride = n / segments;
  s.x = shifted(r.x, stride, segments, steps, true);
  s.zL = shifted(r.zL, stride, segments, steps, false);
  s.zU = shifted(r.zU, stride, segments, steps, false);
  s.lambda.setZero();
  std::vector<RowBlock> all = {{0, dynamicsPerSegment, segments, true}};
  all.insert(all.end(), blocks.begin(), blocks.end());
  for (const RowBlock& b : all) {
    const int rows = std::min<int>(b.perSegment * b.count, int(r.lambda.size()) - b.first);
    for (int i = 0; i < rows; ++i) {
      const int src = i + steps * b.perSegment;
      if (src < rows) s.lambda[b.first + i] = r.lambda[b.first + src];
      else if (!b.equality && rows >= b.perSegment) s.lambda[b.first + i] = r.lambda[b.first + rows - b.perSegment + i % b.perSegment];
    }
  }
  return s;
}

MpcController::MpcController(PlanSetup setup, MpcSettings settings)
    : setup_(std::move(setup)),
      problem_(PlanProblemRegistry::find(setup_.scene.scene)) {
  const std::string& scene = setup_.scene.scene;
  if (!problem_ || !PlanEndpointsRegistry::find(scene))
    throw BadInput(setup_.source + ": scene '" + scene + "' has no plan problem with a start from a running scene");
  if (dmocFreeTime(setup_))
    throw BadInput(setup_.source + ": key 'free_time' = 1: the receding horizon needs a fixed step (allowed: 0)");
  // A roll-out (asked for, or the vehicle's default) needs the problem's end free: ask the problem (at the horizon
  // asked for or the vehicle's; its end rows do not depend on it), whose fixed end also picks the defaults when the
  // roll-out is turned off. A problem refused as given (a target above the ceiling, a pad with a goal velocity) is
  // refused at every re-plan (replan: stale) or by the goal's checks.
  std::unique_ptr<PlanInstance> probe;
  if (settings.rollout.value_or(false) || vehicleDefaults(scene, false).rollout) {
    PlanSetup s = setup_;
    const long maxN = std::lround(setup_.plan.spec("N")->maxValue);  // the horizon's range is checked below
    s.plan.setReal("N", std::clamp<long>(settings.horizon.value_or(vehicleDefaults(scene, false).horizon), 2, maxN));
    try {
      probe = problem_->build(s);
    } catch (const BadInput&) {
    }
  }
  const PlanInstance::FixedEnd end = probe ? probe->fixedEnd() : PlanInstance::FixedEnd{};
  const long problemN = std::lround(setup_.plan.real("N"));
  const double dt = setup_.scene.params.real("dt");
  settings_ = resolved(settings, scene, end, problemN, dt);
  // The problem's own N range (its measured cost bound, plan/<vehicle>_plan.cpp) caps the horizon; the boat's and the
  // snakeboard's receding horizons are capped lower, at what re-plans every period of a run for minutes, not hours.
  const MpcHorizonCap* cap = mpcHorizonCap(scene);
  const long maxHorizon = cap ? cap->segments : std::lround(setup_.plan.spec("N")->maxValue);
  const int horizon = *settings_.horizon;
  if (horizon < 2 || horizon > maxHorizon)
    throw BadInput(setup_.source + ": horizon " + std::to_string(horizon) + ": allowed 2 to " +
                   std::to_string(maxHorizon) + (cap ? cap->why : " (the problem's key 'N')"));
  const double period = *settings_.period;
  if (!(period >= dt && period <= horizon * dt))
    throw BadInput(setup_.source + ": period " + formatNumber(period) + " s: allowed the scene's dt (" +
                   formatNumber(dt) + " s) to the horizon (" + formatNumber(horizon * dt) + " s)");
  if (*settings_.maxIterations < 1 || *settings_.maxIterations > 100000)
    throw BadInput(setup_.source + ": max iterations " + std::to_string(*settings_.maxIterations) + ": allowed 1 to 100000");
  periodSteps_ = std::max(1, int(std::lround(period / dt)));
  // The boat's plan holds its first segment's thrust at the scene's held one (boat_dmoc.h: u_0 fixed) and its own
  // thrust reaches the boat from the second step on: a re-plan every step would never change the thrust.
  if (scene == "boat" && periodSteps_ < 2)
    throw BadInput(setup_.source + ": period " + formatNumber(period) + " s: allowed >= 2 steps of the " +
                   "scene's dt (" + formatNumber(2.0 * dt) + " s) for the boat: a plan's first thrust is the held one");
  const double restart = *settings_.restart;
  if (!(restart >= 0.0 && restart <= 3600.0))
    throw BadInput(setup_.source + ": restart " + formatNumber(restart) + " s: allowed 0 (never) to 3600 s");
  if (!(settings_.dynamicsTolerance >= kFeasible && settings_.dynamicsTolerance <= 1.0))
    throw BadInput(setup_.source + ": dynamics tolerance " + formatNumber(settings_.dynamicsTolerance) +
                   ": allowed 1e-06 to 1");
  restartSteps_ = restart > 0.0 ? std::max(1L, std::lround(restart / dt)) : 0;
  setup_.plan.setReal("N", horizon);
  if (settings.rollout.value_or(false)) refuseRollOut(probe ? *probe : *problem_->build(setup_), problemN);  // asked for
}

void MpcController::refuseRollOut(const PlanInstance& plan, long problemN) const {
  const std::string& scene = setup_.scene.scene;
  if (!plan.hasRollOut())
    throw BadInput(setup_.source + ": rollout true: scene '" + scene +
                   "' has no roll-out of its plans (allowed: false; true for the helicopter)");
  const PlanInstance::FixedEnd end = plan.fixedEnd();
  const MpcVehicleDefaults& fixed = vehicleDefaults(scene, true);
  if (!end.heldBy.empty())
    throw BadInput(setup_.source + ": rollout true: " + end.heldBy + ", which a roll-out's free end cannot meet " +
                   "(allowed: false; unset, this problem runs without a roll-out, at most " +
                   std::to_string(fixed.maxIterations) + " iterations, a cold restart every " +
                   formatNumber(fixed.restart) + " s" +
                   (end.pose ? ", a horizon of the problem's N, " + std::to_string(problemN) + " segments)" : ")"));
}

std::vector<std::string> MpcController::goalKeys() const {
  // The helicopter's goal is a named pad unless target_pad = point: then target_x/y/z are the goal.
  if (setup_.plan.spec("target_pad"))
    return setup_.plan.choice("target_pad") == "point" ? std::vector<std::string>{"target_x", "target_y", "target_z"}
                                                       : std::vector<std::string>{};
  for (const char* prefix : {"target", "dock"})
    if (setup_.plan.spec(std::string(prefix) + "_x") && setup_.plan.spec(std::string(prefix) + "_y"))
      return {std::string(prefix) + "_x", std::string(prefix) + "_y"};
  return {};
}

void MpcController::setGoal(const std::vector<std::pair<std::string, double>>& planKeys) {
  for (const auto& [key, value] : planKeys) setup_.plan.setReal(key, value);
  goalStep_ = -1;
}

void MpcController::replan(const Scene& running, long step) {
  try {
    solve(running, step);
  } catch (const BadInput& e) {
    // The measured state or the moved goal is outside what the problem accepts (a spin the scene refuses to start
    // from, a target beyond a key's range): no plan this period; the last feasible one keeps running.
    last_ = {step, 0, std::string("refused: ") + e.what(), false, false, 0.0, 0.0, {}};
    ++solves_, ++stale_;
  }
}

void MpcController::solve(const Scene& running, long step) {
  PlanSetup s = setup_;
  PlanEndpointsRegistry::find(s.scene.scene)->startFrom(running, s.scene.params);
  const std::vector<std::string> keys = goalKeys();
  const double dt = s.scene.params.real("dt");
  const double age = goalStep_ >= 0 ? double(step - goalStep_) * dt : 0.0;  // s since the goal was set
  for (size_t i = 0; i < keys.size() && i < goalVelocity_.size(); ++i) {
    if (!std::isfinite(goalVelocity_[i])) continue;  // no usable estimate: aim at the goal itself
    // Only a problem that knows a moving goal (the helicopter's target_vx for target_x) is given the velocity: the
    // others' plans end at rest, and aiming them where the goal will be made the car's worse (a target pushed
    // into a kerb at the aisle's end).
    const std::string velocityKey = keys[i].substr(0, keys[i].size() - 1) + "v" + keys[i].back();
    const ParamSpec *spec = s.plan.spec(keys[i]), *vSpec = s.plan.spec(velocityKey);
    if (!vSpec) continue;
    // The goal moves on from where it was set: a track of points is followed along the lines between them.
    s.plan.setReal(keys[i], std::clamp(s.plan.real(keys[i]) + goalVelocity_[i] * age, spec->minValue, spec->maxValue));
    s.plan.setReal(velocityKey, std::clamp(goalVelocity_[i], vSpec->minValue, vSpec->maxValue));
  }
  std::unique_ptr<PlanInstance> plan = problem_->build(s);
  IpoptSettings ipopt;
  ipopt.maxIterations = *settings_.maxIterations;
  ipopt.options = settings_.ipoptOptions;
  ipopt.kktSolver = *settings_.kktSolver;
  ipopt.profile = settings_.profile;
  ipopt.structure = &structure_;
  IpoptResult warm, coldStart;
  const int segments = plan->segments();
  // A previous solve of this problem's size as a warm start shifted to this step; false: none.
  const auto shiftedFrom = [&](const IpoptResult& from, long fromStep, IpoptResult& to) {
    if (fromStep < 0 || from.x.size() != plan->nlp().numVariables() ||
        from.lambda.size() != plan->nlp().numConstraints())
      return false;
    to = shiftSolution(from, segments, int(std::min<long>(step - fromStep, segments)),
                       *settings_.shiftDynamicsMultipliers ? plan->dynamicsRowsPerSegment() : 0,
                       settings_.shiftInequalityMultipliers ? plan->rowBlocks() : std::vector<RowBlock>{});
    return true;
  };
  if (settings_.warmStart && shiftedFrom(warmFrom_, warmStep_, warm)) ipopt.warmStart = &warm;
  const auto t0 = std::chrono::steady_clock::now();
  const int dynamicsRows = plan->dynamicsRowsPerSegment() * segments;
  // An unfinished solve is rolled out (settings_.rollout): x becomes its controls as the model scene flies them from
  // the measured start, and the next warm start continues from that (measured in docs/mpc.md: from the solver's own
  // iterate the push check ends 7.2 m off at 3 s instead of 0.10 m, and the calm canyon track is lost).
  const auto measure = [&](IpoptResult& x) {
    if (x.solved) return Violation{};
    const Violation iterate = violation(plan->nlp(), x.x, dynamicsRows);
    if (!*settings_.rollout || worst(iterate) >= kNlpInfinity) return iterate;
    Eigen::VectorXd rolled = x.x;
    if (!plan->rollOut(rolled)) return iterate;
    x.x = std::move(rolled);
    x.objective = plan->nlp().objective(x.x);
    Violation v = violation(plan->nlp(), x.x, dynamicsRows);
    v.rolledOut = true;
    return v;
  };
  const auto flyable = [&](const Violation& v) {
    return v.rest <= kFeasible && (v.rolledOut || v.dynamics <= settings_.dynamicsTolerance);
  };
  IpoptResult r = solveWithIpopt(plan->nlp(), ipopt);
  Violation v = measure(r);
  int iterations = r.iterations;
  IpoptProfile profile = r.profile;
  bool adopted = flyable(v);
  // A warm start stays in the plan it has (the car waiting with the goal behind it, where turning round costs more
  // within the horizon); a cold solve now and then finds the other plan, adopted when it costs less. When neither
  // is flyable the next solve continues from the less violated one, so a warm start that diverged is left behind.
  // With a shared budget (settings_.restartShared) the cold solve runs the iterations the warm one left; when it does
  // not finish it continues from its shifted iterate in the next re-plans' leftovers until it does or the next
  // restart begins anew, so no re-plan does more than maxIterations of work.
  const bool shared = *settings_.restartShared, due = restartSteps_ > 0 && step - lastRestart_ >= restartSteps_;
  if (ipopt.warmStart && due) lastRestart_ = step, coldStep_ = -1;
  IpoptSettings cold = ipopt;
  cold.warmStart = shared && shiftedFrom(coldFrom_, coldStep_, coldStart) ? &coldStart : nullptr;
  if (shared) cold.maxIterations -= r.iterations;
  if (ipopt.warmStart && (due || cold.warmStart) && cold.maxIterations > 0) {
    IpoptResult c = solveWithIpopt(plan->nlp(), cold);
    iterations += c.iterations;
    profile += c.profile;
    const Violation vc = measure(c);
    coldStep_ = shared && !c.solved && worst(vc) < kNlpInfinity && c.status != "Diverging_Iterates" ? step : -1;
    if (coldStep_ >= 0) coldFrom_ = c;
    if (flyable(vc) ? (!shared || c.solved) && (!adopted || c.objective < r.objective)
                    : !shared && !adopted && worst(vc) < worst(v)) {
      adopted = flyable(vc);
      restartsTaken_ += adopted;
      r = std::move(c), v = vc;
    }
  }
  last_ = {step, iterations, r.status, adopted, ipopt.warmStart != nullptr, v.dynamics,
           std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), profile, v.rolledOut};
  ++solves_;
  if (last_.adopted) track_ = plan->inputTrack(r.x), planStep_ = step;
  else ++stale_;
  // The next solve continues from this one's iterate (or roll-out) even when it is not adopted: after a goal jump an
  // unfinished solve is progress towards the new plan, while the adopted one only ages (its shift runs out of
  // segments). An iterate that diverged (or a solve that never ran) is no start: the next solve is cold.
  warmFrom_ = std::move(r);
  warmStep_ = worst(v) < kNlpInfinity && warmFrom_.status != "Diverging_Iterates" ? step : -1;
}

InputVector MpcController::beforeStep(Scene& running, ParamSet& edited, long step) {
  if (goalStep_ < 0) goalStep_ = step;  // the goal (re)set since the last step holds from this step on
  if (planStep_ < 0 || (step - last_.step) >= periodSteps_) replan(running, step);
  if (planStep_ < 0) return neutralInputs(running.controls());  // no feasible plan yet: hands off
  const long local = step - planStep_;
  const auto [first, last] = track_.eventsAt(local);
  for (size_t i = first; i < last; ++i) applyInputEvent(running, setup_.scene.scene, edited, track_.events()[i]);
  return track_.at(local);
}

}  // namespace varsim
