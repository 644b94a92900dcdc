// tests/bench/mpc_bench_levers.h — what the receding-horizon benchmarks (bench_mpc's modes, bench_mpc_snake) share:
// a diagnostics row's columns by name, the percentile of the per-re-plan CPU times, the per-re-plan columns of a
// table, the command-line levers that set MpcSettings (and plan or scene keys) of one closed loop, and Ipopt's CPU
// split as table cells.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "plan/ipopt_solver.h"
#include "plan/mpc_controller.h"
#include "scenes/scene.h"

namespace mpc_bench {

using varsim::IpoptProfile;
using varsim::KktSolver;
using varsim::MpcController;
using varsim::MpcSettings;

// The named column of a diagnostics row of `scene`.
inline std::function<double(const std::vector<double>&, const char*)> columnReader(const varsim::Scene& scene) {
  return [cols = scene.columns()](const std::vector<double>& row, const char* name) {
    return row[size_t(std::find(cols.begin(), cols.end(), name) - cols.begin())];
  };
}

// The q-quantile of `v` (nearest rank), 0 when empty.
inline double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[size_t(std::min<double>(double(v.size() - 1), std::ceil(q * double(v.size())) - 1))];
}

// The per-re-plan columns of a table row from the CPU times `ms` (out.solves and the iteration sum already set).
template <class Out>
void solveStats(const MpcController& mpc, const std::vector<double>& ms, Out& out) {
  out.stale = mpc.staleSolves();
  out.meanIterations /= std::max(1, out.solves);
  out.p50 = percentile(ms, 0.5);
  out.p99 = percentile(ms, 0.99);
  out.maxMs = ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end());
}

// The levers of `bench_mpc levers`, `bench_mpc carfollow` and `bench_mpc boat`: horizon=N iterations=N restart=S
// shared=0|1 (the cold restart within the re-plan's budget: MpcSettings::restartShared) period=S shift=all
// dynamics_multipliers=shift|zero adopt=TOL (MpcSettings::dynamicsTolerance) rollout=true|false (MpcSettings::rollout)
// seconds=T gusts=G kkt=ldl|mumps profile=0|1 (Ipopt's CPU split: its task timers then cost their share of every
// re-plan) set:key=value (a plan or scene key of the controller's problem, e.g. set:dt=0.15 with horizon=20),
// anything else an Ipopt option by name (MpcSettings::ipoptOptions). False: a bad kkt= value.
struct Levers {
  MpcSettings settings;
  double seconds = 66.0, gusts = 0.0;
  std::vector<std::string> sets;
  std::string label;
  bool parse(int argc, char** argv) {
    for (int i = 2; i < argc; ++i) {
      const std::string a = argv[i], key = a.substr(0, a.find('=')), value = a.substr(a.find('=') + 1);
      label += (label.empty() ? "" : " ") + a;
      if (key == "horizon") settings.horizon = std::stoi(value);
      else if (key == "iterations") settings.maxIterations = std::stoi(value);
      else if (key == "restart") settings.restart = std::stod(value);
      else if (key == "shared") settings.restartShared = value == "1";
      else if (key == "shift") settings.shiftInequalityMultipliers = value == "all";
      else if (key == "dynamics_multipliers") settings.shiftDynamicsMultipliers = value == "shift";
      else if (key == "period") settings.period = std::stod(value);
      else if (key == "adopt") settings.dynamicsTolerance = std::stod(value);
      else if (key == "rollout") settings.rollout = value == "true";
      else if (key == "seconds") seconds = std::stod(value);
      else if (key == "gusts") gusts = std::stod(value);
      else if (key == "profile") settings.profile = value == "1";
      else if (KktSolver kkt; key == "kkt" && !varsim::parseKktSolver(value, kkt))
        return std::printf("kkt=%s: ldl or mumps\n", value.c_str()), false;
      else if (key == "kkt") settings.kktSolver = kkt;
      else if (key.rfind("set:", 0) == 0) sets.push_back(a.substr(4));
      else settings.ipoptOptions.emplace_back(key, value);
    }
    if (label.empty()) label = "(preset)";
    return true;
  }
};

inline void printProfile(const IpoptProfile& p, bool taken) {
  if (!taken) return (void)std::printf("(profile=1) | | | | | | |\n");
  std::printf("%.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", p.total, p.functions + p.jacobian, p.hessian,
              p.factorization, p.backsolve, p.symbolic, p.rest());
}

}  // namespace mpc_bench
