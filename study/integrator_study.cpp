// study/integrator_study.cpp — random cases, ground truth and per-method
// measurement of the integrator study (see the header). Rigid body: a free box
// (no gravity) with random mass, sides, attitude, omega_0 and v_0, as seed 000
// Fig. 4 ("a wide range of initial conditions"); the car and the snakeboard
// are in vehicle_study.cpp.
#include "study/integrator_study.h"

#include <cmath>
#include <cstdio>

#include "engine/sim/errors.h"
#include "scenes/rigid_body/free_body_sim.h"
#include "study/study_loop.h"
#include "study/vehicle_study.h"

namespace varsim::study {
namespace {

constexpr double kPi = 3.14159265358979323846;

std::vector<double> powersOfTwo(int from, int to) {  // 2^-from ... 2^-to
  std::vector<double> h;
  for (int j = from; j <= to; ++j) h.push_back(std::ldexp(1.0, -j));
  return h;
}

// ---- rigid body
// ----------------------------------------------------------------------------------------

struct RigidCase {
  RigidBodyInertia inertia;
  se3::Pose g0;
  Vector6d xi0;
};

// Mass 1-10 kg, box sides 0.2-2 m (so J obeys the triangle inequality), uniform
// random attitude (Shoemake), |omega_0| 1-4 rad/s in a uniform direction, v_0
// components in [-1, 1] m/s.
RigidCase rigidCase(std::uint64_t seed, int run) {
  StudyRng rng(seed, run);
  const double m = rng.uniform(1.0, 10.0);
  const Vector3d s(rng.uniform(0.2, 2.0), rng.uniform(0.2, 2.0), rng.uniform(0.2, 2.0));
  const Vector3d J =
      m / 12.0 * Vector3d(s.y() * s.y() + s.z() * s.z(), s.x() * s.x() + s.z() * s.z(), s.x() * s.x() + s.y() * s.y());
  RigidCase c{principalInertia(m, J), se3::Pose{}, Vector6d::Zero()};
  const double u1 = rng.uniform(0, 1), u2 = rng.uniform(0, 2 * kPi), u3 = rng.uniform(0, 2 * kPi);
  const quat::Quat q(std::sqrt(u1) * std::cos(u3), std::sqrt(1 - u1) * std::sin(u2), std::sqrt(1 - u1) * std::cos(u2),
                     std::sqrt(u1) * std::sin(u3));
  c.g0.R = quat::toRotation(q);
  const double z = rng.uniform(-1, 1), phi = rng.uniform(0, 2 * kPi), w = rng.uniform(1.0, 4.0);
  const double r = std::sqrt(1 - z * z);
  c.xi0 << w * r * std::cos(phi), w * r * std::sin(phi), w * z, rng.uniform(-1, 1), rng.uniform(-1, 1),
      rng.uniform(-1, 1);
  return c;
}

// The body's state at the checkpoints t = 1, 2, ..., T.
struct RigidSample {
  se3::Pose g;
  double energy;
  Vector3d momentum;  // angular momentum about the centre of mass, world frame:
                      // R J w (R pi for the LGVI)
};

// Steps `sim` to T, sampling every 1 s; stops at a SimulationDiverged (returns
// its time, or -1 if none).
double runRigid(FreeBodySim& sim, double h, double T, std::vector<RigidSample>& out, long* newton, StepMeter& meter) {
  const long perSecond = std::lround(1.0 / h), n = std::lround(T / h);
  for (long k = 1; k <= n; ++k) {
    meter.tick();
    try {
      sim.step(h);
    } catch (const SimulationDiverged&) {
      meter.skip(n - k);
      return double(k) * h;
    }
    if (newton) *newton += sim.newtonIterations();
    if (k % perSecond == 0) out.push_back({sim.pose(), sim.energy(), sim.pose().R * sim.nodeMomentumBody().head<3>()});
  }
  return -1.0;
}

// A study method on the scene's wrapper: the scene's `integrator` names, where lgvi is the paper's SE(3) scheme
// with tau = C = cay (the scene's default), plus two LGVI variants of rigid_body's `group`, `retraction` and
// `tangent` parameters: lgvi_so3xr3 (SO(3)xR^3, cay) and lgvi_exp (SE(3), tau = exp, C = exact dexp^-1).
FreeBodySim rigidSim(const std::string& method, const RigidCase& c, double h) {
  LgviOptions options;
  options.maxSubstepLevel = 0;  // each method at the h it is compared at: a failed Newton is a blow-up, not a split
  if (method == "lgvi_so3xr3") options.group = LgviGroup::SO3xR3;
  if (method == "lgvi_exp") options.retraction = Retraction::Exp, options.tangent = Tangent::Exp;
  const bool lgvi = method.rfind("lgvi", 0) == 0;
  return FreeBodySim(lgvi ? "lgvi" : method, c.inertia, options, c.g0, c.xi0, Vector3d::Zero(), h);
}

void rigidRun(const StudyProblem& p, std::uint64_t seed, int run, std::vector<RunResult>& results,
              StudyControl* control) {
  StepMeter meter(control);
  const RigidCase c = rigidCase(seed, run);
  FreeBodySim truthSim("rk4", c.inertia, LgviOptions{}, c.g0, c.xi0, Vector3d::Zero(), p.truthStep);
  std::vector<RigidSample> truth;
  if (runRigid(truthSim, p.truthStep, p.duration, truth, nullptr, meter) >= 0.0)
    throw SimulationDiverged("study: the RK4 ground truth diverged (run " + std::to_string(run) + ")");
  const double E0 = truthSim.kineticEnergy();  // no forces: E(0) = 1/2 xi0^T II
                                               // xi0 for every method
  const Vector3d M0 = c.g0.R * (c.inertia.J * c.xi0.head<3>());
  for (const std::string& method : p.methods) {
    for (double h : p.steps) {
      RunResult r{method, h, run};
      r.steps = std::lround(p.duration / h);
      r.hOmega = h * c.xi0.head<3>().norm();
      FreeBodySim sim = rigidSim(method, c, h);
      std::vector<RigidSample> got;
      long newton = 0;
      const double cpu0 = cpuNow(), wall0 = wallNow();
      const double failed = runRigid(sim, h, p.duration, got, &newton, meter);
      r.cpuSeconds = cpuNow() - cpu0, r.wallSeconds = wallNow() - wall0;
      r.blowup = failed >= 0.0;
      r.blowupTime = r.blowup ? failed : 0.0;
      r.newtonPerStep = double(newton) / double(r.steps);
      if (r.blowup) {
        r.posErr = r.rotErr = r.energyDrift = r.momentumDrift = NAN;
      } else {
        for (size_t j = 0; j < got.size(); ++j) {
          r.posErr += (got[j].g.x - truth[j].g.x).norm() / double(got.size());
          r.rotErr += quat::angleBetween(got[j].g.quaternion(), truth[j].g.quaternion()) / double(got.size());
          r.energyDrift = std::max(r.energyDrift, std::abs(got[j].energy - E0) / E0);
          r.momentumDrift = std::max(r.momentumDrift, (got[j].momentum - M0).norm() / M0.norm());
        }
      }
      results.push_back(r);
      if (control) ++control->rowsDone;
    }
  }
}

}  // namespace

StudyProblem problemFor(const std::string& figure) {
  const std::vector<std::string> rigid = {"lgvi", "lgvi_so3xr3", "lgvi_exp", "rk2", "rk2i", "rk4", "newmark",
                                          "newmark_so3xr3"};
  if (figure == "fig3") return {figure, "rigid_body", rigid, {0.25}, 60.0, 1, std::ldexp(1.0, -11)};
  if (figure == "fig4") return {figure, "rigid_body", rigid, powersOfTwo(0, 9), 240.0, 20, std::ldexp(1.0, -12)};
  if (figure == "fig5")
    return {figure, "car", {"variational", "rk2", "rk4"}, powersOfTwo(1, 7), 60.0, 50, std::ldexp(1.0, -13)};
  if (figure == "fig5s")
    return {figure, "snakeboard", {"variational", "rk2", "rk4"}, powersOfTwo(1, 7), 30.0, 50, std::ldexp(1.0, -13)};
  throw BadInput("study '" + figure + "': allowed fig3, fig4, fig5, fig5s");
}

long caseSteps(const StudyProblem& p) {
  long n = std::lround(p.duration / p.truthStep);
  for (double h : p.steps) n += long(p.methods.size()) * std::lround(p.duration / h);
  return n;
}

void runCase(const StudyProblem& problem, std::uint64_t seed, int run, std::vector<RunResult>& out,
             StudyControl* control) {
  if (problem.system == "car")
    carRun(problem, seed, run, out, control);
  else if (problem.system == "snakeboard")
    snakeboardRun(problem, seed, run, out, control);
  else
    rigidRun(problem, seed, run, out, control);
  if (control) ++control->casesDone;
}

std::vector<RunResult> runCase(const StudyProblem& problem, std::uint64_t seed, int run) {
  std::vector<RunResult> out;
  runCase(problem, seed, run, out, nullptr);
  return out;
}

const std::vector<std::string>& orbitColumns() {
  static const std::vector<std::string> columns = {"omega_x", "omega_y", "omega_z", "x",  "y",      "z",
                                                   "qw",      "qx",      "qy",      "qz", "energy", "L"};
  return columns;
}

std::vector<Orbit> orbits(const StudyProblem& problem, std::uint64_t seed, int run, double h, StudyControl* control) {
  StepMeter meter(control);
  const RigidCase c = rigidCase(seed, run);
  std::vector<std::string> methods = problem.methods;
  methods.insert(methods.begin(), "truth");
  std::vector<Orbit> out;
  for (const std::string& method : methods) {
    Orbit orbit;
    orbit.method = method;
    const bool truth = method == "truth";
    const double step = truth ? problem.truthStep : h;
    FreeBodySim sim = rigidSim(truth ? "rk4" : method, c, step);
    const long every = std::lround(h / step), n = std::lround(problem.duration / step);
    for (long k = 0; k <= n; ++k) {
      if (k % every == 0) {
        const se3::Pose& g = sim.pose();
        const Vector4d q = g.quaternion();
        const Vector6d xi = sim.velocity();
        orbit.t.push_back(double(k) * step);
        orbit.values.push_back({xi[0], xi[1], xi[2], g.x[0], g.x[1], g.x[2], q[0], q[1], q[2], q[3], sim.energy(),
                                sim.spatialMomentum().head<3>().norm()});
      }
      if (k == n) break;
      meter.tick();
      try {
        sim.step(step);
      } catch (const SimulationDiverged&) {
        orbit.blowup = true;
        meter.skip(n - k - 1);
        break;  // the orbit ends where the method blew up
      }
    }
    out.push_back(std::move(orbit));
  }
  return out;
}

std::vector<std::string> orbitRows(const StudyProblem& problem, std::uint64_t seed, int run, double h) {
  return orbitCsvRows(orbits(problem, seed, run, h));
}

std::vector<std::string> orbitCsvRows(const std::vector<Orbit>& orbitsToWrite) {
  std::string header = "method,t";
  for (const std::string& c : orbitColumns()) header += "," + c;
  std::vector<std::string> rows = {header};
  char number[32];
  for (const Orbit& orbit : orbitsToWrite) {
    for (size_t i = 0; i < orbit.t.size(); ++i) {
      std::string line = orbit.method;
      std::snprintf(number, sizeof number, ",%.17g", orbit.t[i]);
      line += number;
      for (double v : orbit.values[i]) {
        std::snprintf(number, sizeof number, ",%.17g", v);
        line += number;
      }
      rows.push_back(line);
    }
  }
  return rows;
}

}  // namespace varsim::study
