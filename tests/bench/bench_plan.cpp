// tests/bench/bench_plan.cpp — `varsim plan` on every registered plan problem's preset (plan/plan_problem.h), and
// on the car_park preset at three resolutions of the same 10 s horizon: size of the NLP (variables, constraints,
// Jacobian and Hessian nonzeros), Ipopt iterations, wall and CPU time of the solve, cost, max dynamics residual,
// max constraint/bound violation and replay error (the inputs file replayed through the ordinary stepper by the
// command its comment names: largest |replay - plan| of the pose columns over all nodes); then each problem's
// baseline (e.g. the car's PD path tracker) flown along the plan through the stepper, its control effort against
// the optimal one; then heli_canyon at its default mass and +-20 % with Ipopt's timing statistics split (evaluations,
// MUMPS factorisations, back-solves, symbolic analysis, the rest). `bench_plan heli [option=value ...]`: that table
// only, with Ipopt/MUMPS options by name against a reference solve with the options as shipped (same plan or not:
// the largest |x - x_ref|); `bench_plan profile PRESET [kkt=..] [key=value ...]` the same split for any preset (a key
// of the preset's file sets the problem, any other an Ipopt option). Every solve runs with MUMPS and with the LDL^T
// bridge (plan/ma27_bridge.h). Prints Markdown tables (a benchmark, not a test: no assertions on time).
#include <algorithm>
#include <ctime>
#include <memory>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "plan/ipopt_solver.h"
#include "plan/plan_session.h"
#include "plan/plan_problem.h"
#include "tests/csv_table.h"
#include "ui/headless_runner.h"

using namespace varsim;

namespace {

std::vector<std::pair<std::string, PlanBaseline>> baselines;  // printed after the main table

// Replays the inputs file with `varsim run ...` from its comment line and returns the largest |replay - plan| over all
// nodes of the pose columns both CSVs have (x, y, z, theta, qw..qz); NaN if the replay fails.
double replayError(const std::string& planCsv, const std::string& inputs) {
  std::ifstream in(inputs);
  std::string line;
  std::getline(in, line);  // the controls' header
  std::getline(in, line);  // "# plan of FILE; replay: varsim run SCENE --set ... --steps N --input FILE"
  const size_t at = line.find("replay: varsim ");
  if (at == std::string::npos) return NAN;
  std::vector<std::string> args;
  std::istringstream words(line.substr(at + 15));
  for (std::string w; words >> w;) args.push_back(w);
  const std::string replayCsv = "/tmp/bench_plan_replay.csv";
  args.insert(args.end(), {"--csv", replayCsv});
  if (runHeadless(args) != 0) return NAN;
  test::CsvTable plan, replay;
  try {
    plan = test::readCsv(planCsv), replay = test::readCsv(replayCsv);
  } catch (const std::exception&) {  // a value the reader refuses (std::stod on a subnormal number)
    return NAN;
  }
  if (replay.rows.size() != plan.rows.size()) return NAN;
  double worst = 0.0;
  for (const char* c : {"x", "y", "z", "theta", "qw", "qx", "qy", "qz"}) {
    const auto has = [&](const test::CsvTable& t) { return std::count(t.header.begin(), t.header.end(), c) > 0; };
    if (!has(plan) || !has(replay)) continue;
    for (size_t k = 0; k < plan.rows.size(); ++k) worst = std::max(worst, std::abs(plan.at(k, c) - replay.at(k, c)));
  }
  return worst;
}

// The preset solved as `varsim plan` solves it (plan/plan_session.h) with each KKT solver; the LDL^T row also shows
// how far its plan is from MUMPS's (largest |x_ldl - x_mumps| over the plan's variables).
void row(const std::string& name, const std::string& problem, const std::vector<std::string>& sets) {
  const PlanSetup setup = loadPlanProblem(problem, sets);
  Eigen::VectorXd mumpsX;
  for (const KktSolver kkt : {KktSolver::Mumps, KktSolver::Ldl}) {
    PlanSession session(setup);
    session.setKktSolver(kkt);
    const IpoptResult& r = session.solve();
    const PlanStats s = session.stats();
    if (r.solved) session.write("/tmp/bench_plan.csv", "/tmp/bench_plan_inputs.csv");
    const double replay = r.solved ? replayError("/tmp/bench_plan.csv", "/tmp/bench_plan_inputs.csv") : NAN;
    if (kkt == KktSolver::Mumps) mumpsX = r.x;
    const double dx = kkt == KktSolver::Mumps || mumpsX.size() != r.x.size() ? NAN : (r.x - mumpsX).cwiseAbs().maxCoeff();
    std::printf("| %s | %s | %ld | %g | %d | %d | %d | %d | %d | %.2f | %.2f | %.9g | %.1e | %.1e | %.1e | %.1e | %s |\n",
                name.c_str(), kktSolverName(kkt), setup.plan.integer("N"), setup.scene.params.real("dt"), s.variables,
                s.constraints, s.nonzeros, s.hessianNonzeros, s.iterations, s.wallSeconds, s.cpuSeconds, s.cost,
                s.maxDynResidual, s.maxViolation, replay, dx, s.status.c_str());
    std::fflush(stdout);
    if (s.hasBaseline && kkt == KktSolver::Mumps)
      baselines.emplace_back(name + " N=" + std::to_string(setup.plan.integer("N")), s.baseline);
  }
}

using Options = std::vector<std::pair<std::string, std::string>>;

std::string problemFile(const std::string& preset) {
  return std::string(VARSIM_ASSET_DIR) + "/problems/" + preset + ".json";
}

// One Ipopt solve of a preset (the plan problem's own settings: max_iter from the file) with extra options:
// iterations, CPU time, Ipopt's timing statistics split, cost, and the largest |x - reference x| of the plan.
void profileRow(const std::string& preset, const std::string& name, const std::vector<std::string>& sets, KktSolver kkt,
                const Options& options, Eigen::VectorXd& reference) {
  const PlanSetup setup = loadPlanProblem(problemFile(preset), sets);
  const std::unique_ptr<PlanInstance> plan = PlanProblemRegistry::find(setup.scene.scene)->build(setup);
  IpoptSettings settings;
  settings.maxIterations = int(setup.plan.integer("max_iter"));
  settings.options = options;
  settings.kktSolver = kkt;
  settings.profile = true;
  const std::clock_t c0 = std::clock();
  const IpoptResult r = solveWithIpopt(plan->nlp(), settings);
  const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  if (reference.size() == 0 && r.solved) reference = r.x;
  const double dx = reference.size() == r.x.size() ? (r.x - reference).cwiseAbs().maxCoeff() : NAN;
  const IpoptProfile& p = r.profile;
  std::printf("| %s | %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.9g | %.1e | %s |\n",
              name.c_str(), kktSolverName(kkt), [&] {
                std::string o;
                for (const auto& [k, v] : options) o += (o.empty() ? "" : " ") + k + "=" + v;
                return o.empty() ? std::string("(defaults)") : o;
              }().c_str(),
              r.iterations, cpu, p.total, p.functions + p.jacobian, p.hessian, p.factorization, p.backsolve,
              p.symbolic, p.rest(), r.objective, dx, r.status.c_str());
}

// `bench_plan heli [kkt=ldl|mumps] [option=value ...]`: heli_canyon at the default mass and +-20 % with Ipopt's time
// split, first with MUMPS and Ipopt's options as shipped (the reference plan), then with the KKT solvers and options
// given (without any: the LDL^T bridge).
void printProfileHeader(const std::string& title) {
  std::printf("| %s | KKT solver | Ipopt options | iterations | CPU (s) | Ipopt total | f, g, Jacobian | "
              "Hessian | factorisation | back-solves | symbolic | rest | cost | max dx to the first row | status |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n", title.c_str());
}

void heliProfile(const std::vector<KktSolver>& solvers, const Options& options) {
  printProfileHeader("heli_canyon N = 300");
  const double mass = loadPlanProblem(std::string(VARSIM_ASSET_DIR) + "/problems/heli_canyon.json").scene.params.real("mass");
  for (const double f : {1.0, 0.8, 1.2}) {
    Eigen::VectorXd reference;
    char m[64];
    std::snprintf(m, sizeof m, "mass=%.17g", f * mass);
    const char* name = f == 1.0 ? "default mass" : f < 1.0 ? "mass -20 %" : "mass +20 %";
    profileRow("heli_canyon", name, {m}, KktSolver::Mumps, {}, reference);  // the reference: MUMPS, options as shipped
    for (const KktSolver kkt : solvers) profileRow("heli_canyon", name, {m}, kkt, options, reference);
  }
}

// `bench_plan profile PRESET [kkt=..] [key=value ...]`: the same split for any preset at its defaults; a key the
// preset's file knows (N, mass, hessian, ...) is set on the problem, any other is an Ipopt option.
void presetProfile(const std::string& preset, const std::vector<KktSolver>& solvers, const Options& options) {
  printProfileHeader(preset);
  std::vector<std::string> sets;
  Options ipopt;
  const PlanSetup defaults = loadPlanProblem(problemFile(preset));
  for (const auto& [k, v] : options) {
    if (defaults.plan.spec(k) || defaults.scene.params.spec(k)) sets.push_back(k + "=" + v);
    else ipopt.emplace_back(k, v);
  }
  Eigen::VectorXd reference;
  profileRow(preset, "defaults", sets, KktSolver::Mumps, {}, reference);
  for (const KktSolver kkt : solvers) profileRow(preset, "defaults", sets, kkt, ipopt, reference);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "heli" || (mode == "profile" && argc > 2)) {
    Options options;
    std::vector<KktSolver> solvers;
    for (int i = mode == "heli" ? 2 : 3; i < argc; ++i) {
      const std::string a = argv[i], key = a.substr(0, a.find('=')), value = a.substr(a.find('=') + 1);
      KktSolver kkt;
      if (key == "kkt" && parseKktSolver(value, kkt)) solvers.push_back(kkt);
      else options.emplace_back(key, value);
    }
    if (solvers.empty()) solvers.push_back(KktSolver::Ldl);
    if (mode == "heli") heliProfile(solvers, options);
    else presetProfile(argv[2], solvers, options);
    return 0;
  }
  std::printf(
      "| preset | KKT solver | N | dt (s) | variables | constraints | Jacobian nonzeros | Hessian nonzeros | iterations | "
      "wall (s) | CPU (s) | cost | max dyn_residual | max violation | replay error | max dx to MUMPS's plan | status |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const PlanProblemInfo& p : PlanProblemRegistry::all()) {
    const std::string file = std::string(VARSIM_ASSET_DIR) + "/" + p.preset;
    const std::string name = p.preset.substr(p.preset.rfind('/') + 1, p.preset.rfind('.') - p.preset.rfind('/') - 1);
    row(name, file, {});
    if (p.scene == "helicopter") row(name + " (east pad)", file, {"target_pad=east", "via_canyon=false", "N=150"});
    if (p.scene == "boat") row(name + " (L-BFGS)", file, {"hessian=lbfgs", "N=160"});  // N=150: Restoration_Failed
    if (p.scene == "car")
      for (const char* nd : {"N=100;dt=0.1", "N=400;dt=0.025"}) {
        const std::string t = nd;
        row(name, file, {t.substr(0, t.find(';')), t.substr(t.find(';') + 1)});
      }
  }
  std::printf("\n| preset | baseline (through the stepper) | its effort h sum u^T W u | optimal effort | ratio | "
              "max deviation from the plan (m) | final position error (m) | final speed (m/s) | min clearance (m) |\n"
              "|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& [name, b] : baselines)
    std::printf("| %s | %s | %.6g | %.6g | %.2f | %.3g | %.3g | %.3g | %.3g |\n", name.c_str(), b.name.c_str(),
                b.effort, b.planEffort, b.planEffort > 0.0 ? b.effort / b.planEffort : 0.0, b.maxDeviation,
                b.finalError, b.finalSpeed, b.minClearance);
  std::printf("\nWhere heli_canyon's time goes (Ipopt's timing statistics, CPU s; `bench_plan heli [option=value ...]` "
              "measures an Ipopt/MUMPS option against the options as shipped):\n\n");
  heliProfile({KktSolver::Ldl}, {});
  return 0;
}
