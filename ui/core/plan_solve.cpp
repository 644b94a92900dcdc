// ui/core/plan_solve.cpp — the Plan panel's solve over the plan problem registry; see the header.
#include "ui/core/plan_solve.h"

#include <ctime>
#include <cstdlib>

#include "engine/sim/errors.h"
#include "plan/ipopt_solver.h"
#include "plan/plan_endpoints.h"
#include "ui/core/asset_files.h"

namespace varsim {

namespace {

const PlanProblemInfo& problemFor(const std::string& scene) {
  const PlanProblemInfo* info = PlanProblemRegistry::find(scene);
  if (!info) throw BadInput("scene '" + scene + "' has no plan problem");
  return *info;
}

// CPU seconds of the calling thread: the budget counts the solve's own work, so a loaded machine (the niced worker
// waiting for the cores) does not stop a solve that would converge.
double threadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

PlanPath toPlanPath(const std::vector<Eigen::Vector3d>& points) {
  PlanPath out;
  out.reserve(points.size());
  for (const Eigen::Vector3d& p : points) out.push_back({float(p.x()), float(p.y()), float(p.z())});
  return out;
}

}  // namespace

PlanSetup planPreset(const std::string& scene, std::string* note) {
  const PlanProblemInfo& info = problemFor(scene);
  if (!info.preset.empty()) {
    try {
      return loadPlanProblem(assetPath(info.preset));
    } catch (const BadInput& e) {
      if (note) *note = std::string("preset not read (defaults used): ") + e.what();
    }
  }
  PlanSetup setup;
  setup.scene = {scene, SceneRegistry::defaults(scene)};
  setup.plan = ParamSet(info.params());
  setup.source = "defaults";
  return setup;
}

ParamSet planStartParams(const std::string& scene, const Scene& running, const ParamSet& params) {
  ParamSet out = params;
  if (const PlanEndpointsInfo* e = PlanEndpointsRegistry::find(scene); e && e->startFrom) e->startFrom(running, out);
  return out;
}

PlanJob::Solve planSolve(PlanSetup setup, std::shared_ptr<const IpoptResult> warm, double budgetSeconds) {
  return [setup = std::move(setup), warm = std::move(warm), budgetSeconds](PlanJob::Progress& progress) {
    const double started = threadCpuSeconds();
    bool overBudget = false;
    const std::unique_ptr<PlanInstance> instance = problemFor(setup.scene.scene).build(setup);
    IpoptSettings settings;
    settings.maxIterations = int(setup.plan.integer("max_iter"));
    settings.cancel = progress.cancelFlag();
    settings.warmStart = warm.get();
    auto result = std::make_shared<IpoptResult>();
    IpoptResult& r = *result;
    r = solveWithIpopt(instance->nlp(), settings, [&](const IpoptIteration& it) {
      const PlanPath ghost = it.x ? toPlanPath(instance->ghostPath(*it.x)) : PlanPath{};
      const double elapsed = threadCpuSeconds() - started;
      overBudget = overBudget || (budgetSeconds > 0.0 && elapsed > budgetSeconds);
      return !overBudget && progress.iteration({it.iteration, it.objective, it.primalInfeasibility, it.dualInfeasibility}, ghost);
    });
    PlanOutcome out;
    out.solved = r.solved;
    out.status = overBudget && !r.solved ? "Time_Budget_Exceeded" : r.status;
    out.iterations = r.iterations;
    out.cost = r.objective;
    if (!r.solved) return out;
    out.solver = std::move(result);
    out.path = toPlanPath(instance->ghostPath(r.x));
    out.inputs = instance->inputTrack(r.x);
    out.sceneParams = instance->replayParams(r.x);  // the start, and dt = the optimal h when the final time is free
    out.steps = instance->segments();
    return out;
  };
}

}  // namespace varsim
