// Benchmark (prints a table; not a timed test): CPU time per step of the LGVI for every (group, tau, C)
// and of the RK4 baseline on the same body and the same run (the reference tumbling body of
// reference/README.md under gravity, h = 1/60 s), with mean Newton iterations per step and the ratio to
// RK4. Targets (issue 2): (cay, C_TLN) <= RK4, (cay, C_cay) <= 1.5x RK4. Thread CPU time, best of 5, and
// RK4 is re-timed next to every configuration (the ratio uses the neighbouring RK4 time), so that a
// shared, loaded machine skews the ratios as little as possible.
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <string>

#include "engine/integrators/lgvi_se3.h"
#include "engine/integrators/rk4_rigid_body.h"

using namespace varsim;

namespace {

const RigidBodyInertia kBody = principalInertia(2.0, Vector3d(2.0, 4.0, 7.0));
const Vector6d kXi0 = (Vector6d() << 0.3, 1.5, -0.2, 0.5, 0.0, 0.2).finished();
constexpr double kH = 1.0 / 60.0;
constexpr long kSteps = 200000;  // 55 min of simulated time per run
constexpr int kRepeats = 5;      // best of

struct Timing {
  double nsPerStep = 1e300;
  double meanIterations = 0.0;
  double checksum = 0.0;  // keeps the work observable
};

double cpuNanoseconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e9 * double(ts.tv_sec) + double(ts.tv_nsec);
}

template <class Step>
Timing timeRuns(const Step& run) {
  Timing best;
  for (int r = 0; r < kRepeats; ++r) {
    const double t0 = cpuNanoseconds();
    const Timing t = run();
    const double ns = (cpuNanoseconds() - t0) / kSteps;
    if (ns < best.nsPerStep) best = t, best.nsPerStep = ns;
  }
  return best;
}

Timing timeLgvi(const LgviOptions& o, const WrenchField& f) {
  return timeRuns([&] {
    LgviSe3 lg(kBody, o);
    lg.initialize(se3::Pose{}, kXi0, 0.0, kH, f);
    long iterations = 0;
    for (long k = 0; k < kSteps; ++k) {
      lg.step(kH, f);
      iterations += lg.newtonIterations();
    }
    return Timing{0.0, double(iterations) / kSteps, lg.pose().x.sum()};
  });
}

const char* tangentName(Tangent c) {
  switch (c) {
    case Tangent::Cay: return "C_cay";
    case Tangent::Exp: return "dexp^-1 (exact)";
    case Tangent::ExpTrunc: return "C_exp (trunc)";
    case Tangent::Tln: return "C_TLN";
  }
  return "?";
}

}  // namespace

Timing timeRk4(const WrenchField& f) {
  return timeRuns([&] {
    Rk4RigidBody rk(kBody);
    rk.initialize(se3::Pose{}, kXi0, 0.0);
    for (long k = 0; k < kSteps; ++k) rk.step(kH, f);
    return Timing{0.0, 0.0, rk.pose().x.sum()};
  });
}

int main() {
  const WrenchField gravity = gravityField(kBody.mass, Vector3d(0.0, 0.0, -9.81));
  const Timing rk4 = timeRk4(gravity);
  std::printf("Rigid body, h = 1/60 s, %ld steps under gravity, best of %d runs (CPU ns per step; ratio to the RK4 run timed next to it)\n\n", kSteps, kRepeats);
  std::printf("| integrator | group | tau | C | ns/step | Newton it./step | vs RK4 |\n");
  std::printf("|---|---|---|---|---:|---:|---:|\n");
  std::printf("| RK4 (x, q, w, v) | - | - | - | %.0f | - | 1.00 |\n", rk4.nsPerStep);
  for (LgviGroup group : {LgviGroup::SE3, LgviGroup::SO3xR3}) {
    for (Retraction tau : {Retraction::Cay, Retraction::Exp}) {
      for (Tangent c : {Tangent::Cay, Tangent::Tln, Tangent::Exp, Tangent::ExpTrunc}) {
        LgviOptions o;
        o.group = group;
        o.retraction = tau;
        o.tangent = c;
        const Timing t = timeLgvi(o, gravity), rk4Here = timeRk4(gravity);
        std::printf("| LGVI | %s | %s | %s | %.0f | %.2f | %.2f |\n", group == LgviGroup::SE3 ? "SE(3)" : "SO(3)xR3",
                    tau == Retraction::Cay ? "cay" : "exp", tangentName(c), t.nsPerStep, t.meanIterations,
                    t.nsPerStep / rk4Here.nsPerStep);
      }
    }
  }
  // The full 6x6 Newton (reducedNewton = false) for the SE(3) Cayley pairs, for reference.
  for (Tangent c : {Tangent::Cay, Tangent::Tln}) {
    LgviOptions o;
    o.tangent = c;
    o.reducedNewton = false;
    const Timing t = timeLgvi(o, gravity), rk4Here = timeRk4(gravity);
    std::printf("| LGVI, full 6x6 Newton | SE(3) | cay | %s | %.0f | %.2f | %.2f |\n", tangentName(c), t.nsPerStep,
                t.meanIterations, t.nsPerStep / rk4Here.nsPerStep);
  }
  return 0;
}
