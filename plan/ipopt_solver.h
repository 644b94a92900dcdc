// plan/ipopt_solver.h — solves an engine Nlp (engine/control/nlp.h) with Ipopt (Debian coinor-libipopt-dev,
// its C++ TNLP interface, MUMPS as shipped; the Nlp's exact Hessian when it has one, else limited-memory). The
// only place that includes Ipopt: the engine stays Eigen + SuiteSparse; ui uses this layer.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/control/nlp.h"

namespace varsim {
namespace kkt {
class OrderCache;
}

struct IpoptResult;

// The sparsity structure of an Nlp's constraint Jacobian and Hessian (triplet rows and columns in the Nlp's order),
// for the Nlp's promise of an x-independent pattern: evaluated once, then Ipopt's structure queries are answered
// from it and each iteration evaluates values only.
struct NlpStructure {
  int variables = -1, constraints = -1;  // the sizes it was taken at (the key)
  std::vector<int> jacobianRows, jacobianCols, hessianRows, hessianCols;
  // The LDL^T KKT solver's orders for this structure's KKT patterns, re-used by the later solves (made by the first
  // solve with KktSolver::Ldl; plan/kkt_order_cache.h).
  std::shared_ptr<kkt::OrderCache> kktOrders;
  // The Ipopt application the later solves re-use (its options cleared and set anew for each; made by the first
  // solve): registering Ipopt's options for every re-plan was 4 % of car_follow's closed-loop CPU.
  std::shared_ptr<struct KeptIpoptApplication> application;
};

// The sparse symmetric indefinite solver for Ipopt's KKT systems: MUMPS (Ipopt's default as Debian ships it) or the
// project's AMD + LDL^T with 1x1 and 2x2 pivots in a fixed order (plan/kkt_ldl_solver.h), registered as Ipopt's
// MA27 (plan/ma27_bridge.h).
enum class KktSolver { Mumps, Ldl };
const char* kktSolverName(KktSolver s);                 // "mumps", "ldl"
bool parseKktSolver(const std::string& name, KktSolver& out);  // false: not one of the names
// The option parser of `varsim plan --kkt`, `varsim mpc --kkt` and varsim.plan(kkt=): BadInput naming `what` (e.g.
// "--kkt "), the value and the allowed names when `name` is not one of them.
KktSolver kktSolverArg(const std::string& what, const std::string& name);

struct IpoptSettings {
  int maxIterations = 500;      // Ipopt max_iter, >= 1
  // Ipopt max_cpu_time: CPU seconds of the process since the solve began, checked once per iteration (status
  // Maximum_CpuTime_Exceeded past it). 0: no bound.
  double maxCpuSeconds = 0.0;
  // Take Ipopt's timing statistics (IpoptResult::profile). Off, Ipopt's clocks read nothing during the solve
  // (plan/ipopt_clock.h): its task timers cost a system call each (car_follow's re-plans: p99 23.3 ms with them,
  // 19.4 ms without, docs/mpc.md); a CPU bound (maxCpuSeconds) still reads the CPU clock.
  bool profile = false;
  // A bound on Ipopt's dual infeasibility inf_du (scaled): past it the multipliers have blown up and the next KKT
  // factorisations can take minutes inside MUMPS (heli_canyon with target_pad = east: inf_du 4.9e17 at iteration
  // 20, then 43 s CPU in iteration 21's factorisations), so the solve stops with status "Diverging_Multipliers".
  // The presets stay below 1.3e4 (snakeboard_reach; heli_canyon 55 at mass -20 %). 0: no bound.
  double maxDualInfeasibility = 0.0;
  double tolerance = 1e-5;      // Ipopt tol (scaled NLP error; the L-BFGS Hessian converges slowly below)
  double constraintTol = 1e-10; // Ipopt constr_viol_tol: the dynamics residual the plan must reach
  // MUMPS options: AMD ordering (0) and no MUMPS scaling (0) factor the banded DMOC KKT systems fastest
  // (car_park N = 200: 0.29 s CPU against 0.48 s with Ipopt's defaults 7 and 77, same 26 iterations).
  int mumpsPivotOrder = 0;
  int mumpsScaling = 0;
  // LDL^T: every bench_plan preset ends at MUMPS's plan in the same iterations, heli_canyon in ~0.6 of its CPU time
  // (docs/planning.md, "The KKT solver").
  KktSolver kktSolver = KktSolver::Ldl;
  // Set from another thread (the app's Cancel): checked once per iteration; the solve then stops with
  // status "cancelled". Null: not cancellable.
  const std::atomic<bool>* cancel = nullptr;
  // Re-planning: start from a previous solve of an Nlp of the same size (its x and multipliers, Ipopt's warm start)
  // instead of nlp.initialGuess(). Null, or sizes that do not match: a cold start.
  const IpoptResult* warmStart = nullptr;
  // Re-planning: the structure of the previous solves' Nlp, re-used when the sizes match (the caller solves the
  // same problem, rebuilt with other parameter values) and refilled otherwise. Null: taken for this solve only.
  NlpStructure* structure = nullptr;
  // Further Ipopt options by name, set after the ones above (a benchmark's levers: "mumps_permuting_scaling" = "0",
  // "mu_oracle" = "probing"): the value is read as the option's registered type; an unknown name or a value Ipopt
  // refuses ends the solve with status "Invalid_Option".
  std::vector<std::pair<std::string, std::string>> options;
};

// Where a solve's CPU time went, from Ipopt's own timing statistics (seconds of CPU; print_timing_statistics); all 0
// unless IpoptSettings::profile.
struct IpoptProfile {
  double total = 0.0;          // Ipopt's whole algorithm (evaluations included)
  double functions = 0.0;      // objective, gradient and constraint values
  double jacobian = 0.0;       // constraint Jacobian
  double hessian = 0.0;        // Hessian of the Lagrangian
  double factorization = 0.0;  // numerical factorisations of the KKT matrix (MUMPS), inertia corrections included
  double backsolve = 0.0;      // solves with the factors
  double symbolic = 0.0;       // symbolic analysis (ordering) and Ipopt's conversion of the KKT matrix to MUMPS's
  double rest() const { return total - functions - jacobian - hessian - factorization - backsolve - symbolic; }
  IpoptProfile& operator+=(const IpoptProfile& o) {
    total += o.total, functions += o.functions, jacobian += o.jacobian, hessian += o.hessian;
    factorization += o.factorization, backsolve += o.backsolve, symbolic += o.symbolic;
    return *this;
  }
};

struct IpoptIteration {
  int iteration;
  double objective, primalInfeasibility, dualInfeasibility;
  // The current iterate in the Nlp's own variable order (e.g. for the app's ghost path); null during Ipopt's
  // feasibility restoration phase, whose iterates are not those of the Nlp. Valid during the callback only.
  const Eigen::VectorXd* x = nullptr;
};

struct IpoptResult {
  bool solved = false;     // Solve_Succeeded or Solved_To_Acceptable_Level
  // Ipopt's ApplicationReturnStatus, named ("Infeasible_Problem_Detected", ...), or "cancelled" (settings.cancel).
  std::string status;
  int iterations = 0;
  double objective = 0.0;
  Eigen::VectorXd x;       // the last iterate
  Eigen::VectorXd lambda, zL, zU;  // its constraint and bound multipliers (for a warm start)
  IpoptProfile profile;
};

// `onIteration` (optional) sees every Ipopt iteration on the solving thread; returning false stops the solve
// (status User_Requested_Stop). Uses nlp.hessian() when nlp.hasHessian(), else Ipopt's L-BFGS.
IpoptResult solveWithIpopt(const Nlp& nlp, const IpoptSettings& settings,
                           const std::function<bool(const IpoptIteration&)>& onIteration = {});

}  // namespace varsim
