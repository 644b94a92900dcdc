// plan/plan_problem.h — the registry of trajectory-optimisation problems (issue 10, seed 000 Sec. 6): one entry
// per vehicle scene, self-registered like scenes (one VARSIM_REGISTER_PLAN_PROBLEM line in plan/<vehicle>_plan.cpp),
// so `varsim plan`, the app's Plan panel, the tests and bench_plan handle every vehicle alike.
//
// Layering: plan/ sees engine/ (the DMOC transcriptions, engine/control/) and scenes/ (a problem plans in the
// scene's own world with the scene's own parameters and limits, and its replay drives that scene's controls),
// and it is the one layer linking Ipopt. Nothing in engine/ or scenes/ sees plan/; ui/ (headless and app) uses it.
//
// Life of a plan (the same for the headless command and the app's worker thread):
//   1. PlanSetup: the scene's validated ParamSet (from the problem file's scene part, or the app's running
//      scene) + the plan ParamSet validated against PlanProblemInfo::params(). loadPlanProblem() fills both
//      from a problem file {"scene": NAME, "params": {scene keys}, "plan": {plan keys}} (plus --set overrides).
//   2. info.build(setup) -> PlanInstance, which owns the Nlp (throws BadInput naming key, value and range, e.g.
//      an integrator the transcription does not share, a target inside a wall).
//   3. solveWithIpopt(instance->nlp(), settings, onIteration) (plan/ipopt_solver.h) on any thread; the iteration
//      callback's iterate maps to a world polyline with instance->ghostPath(x) (the app's ghost curve);
//      settings.cancel stops it, settings.warmStart re-plans from a previous result.
//   4. On success: writeCsv(path, x) (the standard columns + controls + dyn_residual), inputTrack(x) played on the
//      scene built from replayParams(x) (the open-loop replay through the ordinary stepper: `varsim run SCENE
//      --input FILE`, or the app's Play), writeInputs(path, x) / replayCommand(path, x) for the headless command,
//      and baseline(x) (bench_plan's comparison with what a user would otherwise fly).
// Cost variants (smoothness, terminal penalty, free final time) are shared: wrap the transcription in DmocCosts
// (engine/control/dmoc_costs.h) and append dmocCostSpecs() to the problem's keys (see plan/car_plan.cpp).
// One problem kind per scene: variants of it (another target, cost variant) are plan keys of that entry.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/control/nlp.h"
#include "engine/sim/input_track.h"
#include "engine/sim/param.h"
#include "scenes/scene_file.h"

namespace varsim {

class Scene;

struct PlanSetup {
  SceneConfig scene;   // scene name + its validated parameters (the world, the vehicle, dt, the start state)
  ParamSet plan;       // validated against the entry's params(): N, target, weights, margins, max_iter, ...
  std::string source;  // where it came from, for messages and the inputs file's comment (problem file path)
};

// A baseline a user would otherwise use to fly the plan (e.g. a PD tracker along the planned path, a flight assist),
// run through the ordinary stepper: its control effort against the optimal plan's (bench_plan's comparison).
struct PlanBaseline {
  std::string name;          // e.g. "PD path tracker"
  double effort = 0.0;       // h sum u^T W u of the baseline's controls, the plan's W
  double planEffort = 0.0;   // the same sum over the optimal plan's controls
  double maxDeviation = 0.0; // m, largest distance of the baseline's position from the plan's at the same step
  double finalError = 0.0;   // m, distance of its final position from the plan's final position
  double finalSpeed = 0.0;   // m/s, its speed at the end (the plans end at rest); 0 if the vehicle reports none
  double minClearance = 0.0; // m, smallest separation from obstacles along the way (negative: collides); 0 if none
};

// Rows of an Nlp laid out per segment: `count` segments of `perSegment` rows from row `first`. A receding horizon
// (plan/mpc_controller.h) moves their multipliers with the plan; `equality`: a vacated tail restarts at zero, else
// it holds the last segment's multipliers (an inequality active at the horizon's end stays active beyond it).
struct RowBlock {
  int first = 0, perSegment = 0, count = 0;
  bool equality = true;
};

// One solvable instance of a problem (built once per solve; const, so the app may read it from two threads).
class PlanInstance {
 public:
  virtual ~PlanInstance() = default;
  virtual const Nlp& nlp() const = 0;
  virtual int segments() const = 0;  // N: the plan covers N steps of the scene's dt
  // max over steps k of |x_{k+1} - step(x_k, u_k)|_inf (the transcription's dynamics residual of the plan).
  virtual double maxDynResidual(const Eigen::VectorXd& x) const = 0;
  // The plan as CSV: t at every node 0..N, the scene's standard columns, controls, `dyn_residual` (0 at node
  // 0), problem-specific columns. Numbers %.17g. Throws BadInput if the file cannot be written.
  virtual void writeCsv(const std::string& path, const Eigen::VectorXd& x) const = 0;
  // The controls of x as the scene's inputs (sticks and/or live parameter events per step) such that N steps
  // of the scene built from setup().scene reproduce the planned nodes (<= 1e-8: same integrator, same h).
  virtual InputTrack inputTrack(const Eigen::VectorXd& x) const = 0;
  // World points (m, z up) of the vehicle's main body at every node of any iterate x (also infeasible ones).
  virtual std::vector<Eigen::Vector3d> ghostPath(const Eigen::VectorXd& x) const = 0;
  // The dynamics rows come first in nlp(), this many per segment (the helicopter's and the boat's 12 rows of eqs.
  // (9)-(10) for a node state of 6 chart variables); a receding horizon shifts their multipliers by whole segments.
  virtual int dynamicsRowsPerSegment() const = 0;
  // The per-segment row blocks of nlp() beyond the dynamics rows; rows in no block restart a shifted warm start at
  // zero multipliers.
  virtual std::vector<RowBlock> rowBlocks() const { return {}; }
  // The roll-out of x (a receding horizon's unfinished solve, plan/mpc_controller.h): the scene built from
  // replayParams(x) steps N times under inputTrack(x), exactly as the replay does, and x's nodes, twists and controls
  // become the stepped ones (storeNode): the plan's controls as the scene flies them, its dynamics rows holding to
  // the stepper's round-off (a contact the rows leave out aside). false, x unchanged, when the problem has no
  // storeNode (hasRollOut()) or the scene refused a step or an event.
  bool rollOut(Eigen::VectorXd& x) const;
  virtual bool hasRollOut() const { return false; }
  // The plan's end as equality rows a roll-out's free end cannot meet (a receding horizon's defaults and its refusal
  // of a roll-out, plan/mpc_controller.h): `heldBy` says which (empty: the end is free), `pose`: the end pose is the
  // target exactly, so a horizon must be long enough to reach it.
  struct FixedEnd {
    std::string heldBy;
    bool pose = false;
  };
  virtual FixedEnd fixedEnd() const { return {}; }
  // The problem's baseline flown along the solved plan x; false when the problem has none.
  virtual bool baseline(const Eigen::VectorXd& /*x*/, PlanBaseline& /*out*/) const { return false; }

  // The scene parameters the plan x replays with: setup().scene.params, except what the plan chose (e.g. dt = the
  // optimal h when the final time is free). The app's Play builds the scene from these.
  virtual ParamSet replayParams(const Eigen::VectorXd& /*x*/) const { return setup_.scene.params; }

  const PlanSetup& setup() const { return setup_; }
  // `varsim run SCENE [--set k=v for every key of replayParams(x) off its default] --steps N --input PATH`. Live
  // keys count too: a key read at construction (the snakeboard's gait=false) cannot come from the input file's events.
  std::string replayCommand(const std::string& inputsPath, const Eigen::VectorXd& x) const;
  // Saves inputTrack(x) with the scene's controls and a comment naming the source and replayCommand(path, x).
  void writeInputs(const std::string& path, const Eigen::VectorXd& x) const;

 protected:
  explicit PlanInstance(PlanSetup setup) : setup_(std::move(setup)) {}
  // rollOut's writer: node k (0..N) of x from `scene` stepped to it (its pose, for k > 0 the twist of segment k-1,
  // for k < N the controls acting from node k).
  virtual void storeNode(const Scene& /*scene*/, int /*k*/, Eigen::VectorXd& /*x*/) const {}

 private:
  PlanSetup setup_;
};

// What every vehicle's plan shares: the DMOC transcription `dmoc_` (spec().N segments, dynResidual(x, k)) as the
// NLP, unless a vehicle wraps it (the car's cost variants override nlp()).
template <class Dmoc>
class DmocPlanInstance : public PlanInstance {
 public:
  const Nlp& nlp() const override { return dmoc_; }
  int segments() const override { return dmoc_.spec().N; }
  int dynamicsRowsPerSegment() const override { return dmoc_.numDynamics() / segments(); }
  double maxDynResidual(const Eigen::VectorXd& x) const override {
    double r = 0.0;
    for (int k = 0; k < segments(); ++k) r = std::max(r, dmoc_.dynResidual(x, k));
    return r;
  }

 protected:
  template <class Spec>
  DmocPlanInstance(const PlanSetup& setup, const Spec& spec) : PlanInstance(setup), dmoc_(spec) {}
  Dmoc dmoc_;
};

struct PlanProblemInfo {
  std::string scene;   // the scene it plans for (a problem file's "scene"), e.g. "car"
  std::string title;   // UI name, e.g. "Park in a bay"
  std::string preset;  // default problem file under assets/, e.g. "problems/car_park.json" (bench, app)
  std::function<std::vector<ParamSpec>()> params;  // the plan keys with defaults and ranges
  std::function<std::unique_ptr<PlanInstance>(const PlanSetup&)> build;
};

class PlanProblemRegistry {
 public:
  static bool add(PlanProblemInfo info);
  static const std::vector<PlanProblemInfo>& all();  // sorted by scene name
  static const PlanProblemInfo* find(const std::string& scene);  // null if no problem plans for it
};

// The entry of a problem whose instance type is built from a PlanSetup (each plan/<vehicle>_plan.cpp registers one).
template <class Instance>
PlanProblemInfo planProblemOf(std::string scene, std::string title, std::string preset,
                              std::function<std::vector<ParamSpec>()> params) {
  return {std::move(scene), std::move(title), std::move(preset), std::move(params),
          [](const PlanSetup& s) -> std::unique_ptr<PlanInstance> { return std::make_unique<Instance>(s); }};
}

#define VARSIM_REGISTER_PLAN_PROBLEM(...)                                      \
  static const bool VARSIM_PLAN_CONCAT(varsimPlanProblemRegistered_, __LINE__) = \
      ::varsim::PlanProblemRegistry::add(__VA_ARGS__)
#define VARSIM_PLAN_CONCAT_INNER(a, b) a##b
#define VARSIM_PLAN_CONCAT(a, b) VARSIM_PLAN_CONCAT_INNER(a, b)

// Reads a problem file; `sets` are "key=value" overrides (plan keys first, else scene keys). Validates the
// scene part like a scene file plus the scene's own cross checks (builds the scene once) and the plan part
// against the entry's params(). Throws BadInput naming the file, key, value and allowed range.
PlanSetup loadPlanProblem(const std::string& path, const std::vector<std::string>& sets = {});
// The same from the file's text (Python's varsim.plan with a dict); `source` stands for the path in messages.
PlanSetup parsePlanProblem(const std::string& text, const std::string& source, const std::vector<std::string>& sets = {});

// The plan keys of the cost variants every DMOC problem offers (engine/control/dmoc_costs.h): weight_smooth,
// terminal_weight (0: the target is an equality), free_time (0/1: h a variable in [dt_min, dt_max]), weight_time.
// A problem appends them to its own keys and reads them back with dmocCostOptions.
std::vector<ParamSpec> dmocCostSpecs();
struct DmocCostOptions;
DmocCostOptions dmocCostOptions(const PlanSetup& setup);  // throws BadInput on dt_min/dt_max outside the scene's dt range
bool dmocFreeTime(const PlanSetup& setup);                // free_time = 1

// A scene key the transcription needs at one value (its integrator, group, world, ...): BadInput naming the problem
// file, the key, its value, the allowed value and `why` otherwise. Compares ParamSet::valueText (choices, flags).
void requireSceneValue(const PlanSetup& setup, const char* key, const std::string& allowed, const char* why);

// Largest violation of any constraint row or variable bound of nlp at x (0 when feasible).
double maxViolation(const Nlp& nlp, const Eigen::VectorXd& x);

// What a solve measured (bench_plan's table); wall and CPU time cover the Ipopt solve only (CPU: of the process,
// which on this shared 2-core machine is the honest figure when other jobs load it).
struct PlanStats {
  int variables = 0, constraints = 0, nonzeros = 0, hessianNonzeros = 0, iterations = 0;
  double wallSeconds = 0.0, cpuSeconds = 0.0, cost = 0.0, maxDynResidual = 0.0, maxViolation = 0.0;
  std::string status;
  bool hasBaseline = false;  // the plan solved and the problem has a baseline
  PlanBaseline baseline;
};

}  // namespace varsim
