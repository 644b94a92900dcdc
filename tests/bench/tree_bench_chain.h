// tests/bench/tree_bench_chain.h — what bench_tree and bench_tree_accuracy share: the seed 003 Fig. 3
// pendulum (1 kg point masses on rods of 1/N m, first joint 0.5 rad from straight down, the rest 0, at
// rest; or "curled": every joint 0.5 rad from its parent, a spiral that whips its tip), the three tree
// steppers by name, thread CPU time, and the energy-error scale (E0 - E_rest).
#pragma once

#include <time.h>

#include <cmath>
#include <memory>
#include <string>

#include "engine/integrators/tree_midpoint.h"
#include "engine/integrators/tree_rk4.h"
#include "engine/integrators/tree_trapezoidal.h"
#include "engine/sim/errors.h"
#include "engine/tree/pendulum_chain.h"
#include "engine/tree/tree_lagrangian.h"

namespace bench {

inline double cpuMs() {  // thread CPU time: the machine is shared
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

enum class Scheme { Midpoint, Trapezoidal, Rk4 };
inline const char* name(Scheme s) {
  return s == Scheme::Midpoint ? "midpoint" : s == Scheme::Trapezoidal ? "trapezoidal" : "rk4";
}
inline std::unique_ptr<varsim::tree::TreeStepper> makeStepper(Scheme s, varsim::tree::Tree& t) {
  if (s == Scheme::Midpoint) return std::make_unique<varsim::tree::TreeMidpoint>(t, 0.5);
  if (s == Scheme::Trapezoidal) return std::make_unique<varsim::tree::TreeTrapezoidal>(t);
  return std::make_unique<varsim::tree::TreeRk4>(t);
}

inline varsim::tree::Tree chain(int links) { return varsim::tree::pendulumChain(links, 1.0, 1.0 / links); }
inline Eigen::VectorXd startPose(int links, bool curled = false) {
  Eigen::VectorXd q0 = Eigen::VectorXd::Constant(links, curled ? 0.5 : 0.0);
  q0(0) = 0.5;
  return q0;
}

// |E - E0| / (E0 - E_rest) of chain states (q, qdot), energies from the tree.
struct EnergyScale {
  varsim::tree::Tree tree;
  double e0 = 0, rest = 0;
  explicit EnergyScale(int links, bool curled = false) : tree(chain(links)) {
    tree.setState(Eigen::VectorXd::Zero(links), Eigen::VectorXd::Zero(links));
    rest = varsim::tree::potentialEnergy(tree);
    tree.setState(startPose(links, curled), Eigen::VectorXd::Zero(links));
    e0 = varsim::tree::potentialEnergy(tree);
  }
  double error(const Eigen::VectorXd& q, const Eigen::VectorXd& qdot) {
    tree.setState(q, qdot);
    return std::abs(varsim::tree::kineticEnergy(tree) + varsim::tree::potentialEnergy(tree) - e0) / (e0 - rest);
  }
};

// `steps` steps of h from startPose at rest: CPU ms of the steps alone, max |E - E0| / (E0 - E_rest) over
// them when trackEnergy (outside the timed part), the final q; `failure` holds a divergence's message and
// failedAt the simulated time it happened.
struct ChainRun {
  double ms = NAN, energyError = NAN, failedAt = NAN;
  Eigen::VectorXd q;
  std::string failure;
};
inline ChainRun runChain(Scheme scheme, int links, double h, long steps, bool cache, bool trackEnergy,
                         bool curled = false) {
  varsim::tree::Tree t = chain(links);
  t.setCache(cache);
  auto s = makeStepper(scheme, t);
  const varsim::tree::TreeForcing none;
  s->initialize(startPose(links, curled), Eigen::VectorXd::Zero(links), h, none);
  EnergyScale scale(links, curled);
  ChainRun r;
  double busy = 0, worst = 0;
  long k = 0;
  try {
    for (; k < steps; ++k) {
      const double a = cpuMs();
      s->step(none);
      busy += cpuMs() - a;
      if (trackEnergy) worst = std::max(worst, scale.error(s->q(), s->qdot()));
    }
  } catch (const varsim::SimulationDiverged& e) {
    r.failure = e.what(), r.failedAt = double(k + 1) * h;
    return r;
  }
  r.ms = busy, r.q = s->q(), r.energyError = trackEnergy ? worst : NAN;
  return r;
}

}  // namespace bench
