// Benchmark (prints tables; not a timed test): issue 12 — the floating-base steppers of seed 002 Sec. 5.
// Table 1: CPU cost per step (us) of the LGVI (eqs. 62-64, Newton with the analytic Jacobian), explicit Euler and
// RK4 for seed 002's three-body chain (m = 2) and for a base with serial arms of 5 and 10 hinges (axes
// alternating z, y), with the LGVI's mean Newton iterations. Table 2: the momentum map's relative change
// |J_k - J_0| / |J_0| (eq. 65, ERRATA Ad_{g^-1}^T) over 10^3 steps at h = 0.1 and the energy band, per scheme.
// Usage: bench_floating [--steps N] (cost steps, default 400).
#include <time.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "engine/floating/chain_builders.h"
#include "engine/integrators/floating_base.h"
#include "engine/sim/errors.h"

using namespace varsim;
using namespace varsim::floating;

namespace {

double cpuUs() {  // thread CPU time: the machine is shared
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

FloatingChain chainWith(int m) {
  if (m == 2)
    return threeBodyChain({1.0, 2.0, 1.0},
                          {Vector3d(0.8, 0.25, 0.25), Vector3d(0.8, 0.5, 0.5), Vector3d(0.8, 0.25, 0.25)},
                          {Vector3d::UnitZ(), Vector3d::UnitY()});
  std::vector<ArmLink> links(m);
  for (int i = 0; i < m; ++i)
    links[i] = ArmLink{0.5, Vector3d(0.4, 0.08, 0.08), i % 2 ? Vector3d::UnitY() : Vector3d::UnitZ()};
  return serialArm(5.0, Vector3d(0.8, 0.8, 0.8), links);
}

VectorXd startVelocity(int m) {
  VectorXd v(6 + m);
  v << 0.3, 0.2, -0.1, 0.1, 0.0, 0.05, VectorXd::LinSpaced(m, 1.0, -1.0);
  return v;
}

struct Result {
  double us = NAN, iters = 0, drift = 0, energyBand = 0;
  int steps = 0;
};

Result run(const FloatingChain& c, FloatingScheme s, double h, int steps) {
  FloatingOptions o;
  o.scheme = s;
  FloatingStepper st(c, o);
  const int m = c.joints();
  st.initialize(se3::Pose(), VectorXd::Constant(m, 0.2), startVelocity(m), h, {});
  const Vector6d J0 = st.momentumMap();
  const double E0 = st.energy(Vector3d::Zero());
  double emin = E0, emax = E0, busy = 0;
  Result r;
  try {
    for (; r.steps < steps; ++r.steps) {
      const double a = cpuUs();
      st.step({});
      busy += cpuUs() - a;
      r.iters += st.newtonIterations();
      const double d = (st.momentumMap() - J0).norm() / J0.norm(), E = st.energy(Vector3d::Zero());
      if (std::isfinite(d)) r.drift = std::max(r.drift, d);
      if (std::isfinite(E)) emin = std::min(emin, E), emax = std::max(emax, E);
    }
  } catch (const SimulationDiverged&) {
  }
  r.us = busy / std::max(r.steps, 1), r.iters /= std::max(r.steps, 1), r.energyBand = (emax - emin) / E0;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 400;
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--steps")) steps = std::atoi(argv[i + 1]);
  const FloatingScheme schemes[3] = {FloatingScheme::Lgvi, FloatingScheme::Euler, FloatingScheme::Rk4};
  std::printf("Cost per step (CPU us, h = 0.01, %d steps; LGVI mean Newton iterations)\n", steps);
  std::printf("| joints m | lgvi us | lgvi Newton | euler us | rk4 us |\n| --- | --- | --- | --- | --- |\n");
  for (int m : {2, 5, 10}) {
    const FloatingChain c = chainWith(m);
    Result r[3];
    for (int s = 0; s < 3; ++s) r[s] = run(c, schemes[s], 0.01, steps);
    std::printf("| %d | %.1f | %.2f | %.1f | %.1f |\n", m, r[0].us, r[0].iters, r[1].us, r[2].us);
  }
  std::printf(
      "\nMomentum map drift max_k |J_k - J_0|/|J_0| and energy band (max-min)/E0 over 10^3 steps (fewer: the\n"
      "step the scheme failed: Newton for lgvi, overflow for the explicit ones)\n");
  std::printf(
      "| joints m | h | scheme | steps run | momentum drift | energy band |\n| --- | --- | --- | --- | --- | --- |\n");
  for (const auto& [m, h] : {std::pair{2, 0.1}, std::pair{10, 0.1}, std::pair{10, 0.05}}) {
    const FloatingChain c = chainWith(m);
    for (FloatingScheme s : schemes) {
      const Result r = run(c, s, h, 1000);
      std::printf("| %d | %g | %s | %d | %.2e | %.2e |\n", m, h, schemeName(s).c_str(), r.steps, r.drift, r.energyBand);
    }
  }
  return 0;
}
