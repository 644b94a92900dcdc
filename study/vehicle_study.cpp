// study/vehicle_study.cpp — random cases, truth and per-method scoring of the car (fig5) and snakeboard (fig5s)
// studies (see the header). Both sample (x, y, theta, E) every 1 s and score them the same way.
#include "study/vehicle_study.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "engine/integrators/vehicle_rk.h"
#include "engine/sim/errors.h"
#include "study/study_loop.h"

namespace varsim::study {
namespace {

constexpr double kPi = 3.14159265358979323846;

// One run of a method at step h: fills (x, y, theta, E) every 1 s; returns the failure time or -1.
using VehicleLoop = std::function<double(VehicleIntegrator, double h, std::vector<Vector4d>& out, StepMeter&)>;

// The truth (RK4 at the problem's truth step), then every (method, h) scored against it: mean position and heading
// error over the checkpoints, energy error max |E - energyRef_j| / energyScale.
void scoreVehicle(const StudyProblem& p, int run, const VehicleLoop& loop, double stepMeasure, bool energyVsTruth,
                  double energy0, std::vector<RunResult>& results, StudyControl* control) {
  StepMeter meter(control);
  std::vector<Vector4d> truth;
  if (loop(VehicleIntegrator::Rk4, p.truthStep, truth, meter) >= 0.0)
    throw SimulationDiverged("study: the RK4 ground truth diverged (run " + std::to_string(run) + ")");
  double scale = energy0;
  if (energyVsTruth) {  // the energy is driven (not conserved): compare with the truth's, scaled by its mean
    scale = 0.0;
    for (const Vector4d& s : truth) scale += s[3] / double(truth.size());
  }
  for (const std::string& method : p.methods) {
    for (double h : p.steps) {
      RunResult r{method, h, run};
      r.steps = std::lround(p.duration / h);
      r.hOmega = h * stepMeasure;
      std::vector<Vector4d> got;
      const double cpu0 = cpuNow(), wall0 = wallNow();
      const double failed = loop(vehicleIntegratorFromName(method), h, got, meter);
      r.cpuSeconds = cpuNow() - cpu0, r.wallSeconds = wallNow() - wall0;
      r.blowup = failed >= 0.0;
      r.blowupTime = r.blowup ? failed : 0.0;
      r.momentumDrift = NAN;
      if (r.blowup) {
        r.posErr = r.rotErr = r.energyDrift = NAN;
      } else {
        for (size_t j = 0; j < got.size(); ++j) {
          r.posErr += (got[j].head<2>() - truth[j].head<2>()).norm() / double(got.size());
          r.rotErr += std::abs(got[j][2] - truth[j][2]) / double(got.size());
          r.energyDrift =
              std::max(r.energyDrift, std::abs(got[j][3] - (energyVsTruth ? truth[j][3] : energy0)) / scale);
        }
      }
      results.push_back(r);
      if (control) ++control->rowsDone;
    }
  }
}

// ---- car: sigma(t) = A sin(w t + phase): A in [0.1, 0.6] (steering up to 31 deg), w in [0.3, 1.5] rad/s;
// rear-wheel rate psi_dot(0) in [2, 8] rad/s (0.7-2.8 m/s with rho = 0.35); no torque, so the energy is a constant
// of the motion (steering is workless) and its drift measures the method. The car of CarParams' defaults.
struct CarCase {
  double amplitude, omega, phase, psiDot0;
  double sigma(double t) const { return amplitude * std::sin(omega * t + phase); }
};

CarCase carCase(std::uint64_t seed, int run) {
  StudyRng rng(seed, run);
  CarCase c{};
  c.amplitude = rng.uniform(0.1, 0.6);
  c.omega = rng.uniform(0.3, 1.5);
  c.phase = rng.uniform(0.0, 2 * kPi);
  c.psiDot0 = rng.uniform(2.0, 8.0);
  return c;
}

// The scene's step (carStepWith) with the steering rate of each step the secant (sigma(t+h) - sigma(t))/h, so
// sigma is exact at every node for every method.
double runCar(VehicleIntegrator method, const CarCase& c, double h, double T, std::vector<Vector4d>& out,
              StepMeter& meter) {
  const CarParams p;
  CarState s = carStart(p, se2::Pose2{}, 0.0, c.sigma(0.0), c.psiDot0);
  const long perSecond = std::lround(1.0 / h), n = std::lround(T / h);
  for (long k = 0; k < n; ++k) {
    const double t = double(k) * h;
    meter.tick();
    try {
      carStepWith(method, p, 0.5, h, s, (c.sigma(t + h) - c.sigma(t)) / h, 0.0);
    } catch (const SimulationDiverged&) {
      meter.skip(n - k - 1);
      return t + h;
    }
    if ((k + 1) % perSecond == 0) out.emplace_back(s.g.x, s.g.y, s.g.theta, p.energyOfMomentum(s.pMinus, s.sigma));
  }
  return -1.0;
}

// ---- snakeboard: the scene's auto-gait psi = A_psi sin(w t), phi = phi_0 + A_phi sin(w t + delta) with A_psi in
// [0.5, 1.5] rad, A_phi in [0.2, 0.6] rad, phi_0 in [-0.3, 0.3] rad (|phi| <= 0.9 < kMaxSteer), w in [1.5, 4] rad/s,
// delta in [0, 2 pi); the board starts at rest. The rider's shape motion does work, so the energy is compared with
// the truth's at each checkpoint.
SnakeboardGait snakeboardCase(std::uint64_t seed, int run) {
  StudyRng rng(seed, run);
  SnakeboardGait g;
  g.psiAmplitude = rng.uniform(0.5, 1.5);
  g.phiAmplitude = rng.uniform(0.2, 0.6);
  g.phiOffset = rng.uniform(-0.3, 0.3);
  g.omega = rng.uniform(1.5, 4.0);
  g.delta = rng.uniform(0.0, 2 * kPi);
  return g;
}

// The scene's step (snakeboardStepWith) to the gait's shape at every node; E from the state's momentum with the
// gait's exact shape rates at the checkpoint.
double runSnakeboard(VehicleIntegrator method, const SnakeboardGait& gait, double h, double T,
                     std::vector<Vector4d>& out, StepMeter& meter) {
  const SnakeboardParams p;
  const Eigen::Vector2d r0 = gait.shape(0.0), rate0 = gait.shapeRate(0.0);
  SnakeboardState s =
      snakeboardStart(se2::Pose2{}, r0[0], r0[1], snakeboard::momentumOfVelocity(p, r0[1], rate0[0], Vector3d::Zero()));
  const long perSecond = std::lround(1.0 / h), n = std::lround(T / h);
  for (long k = 0; k < n; ++k) {
    const double t = double(k + 1) * h;
    const Eigen::Vector2d r1 = gait.shape(gait.omega * t);
    meter.tick();
    try {
      snakeboardStepWith(method, p, 0.5, h, s, r1[0], r1[1]);
    } catch (const SimulationDiverged&) {
      meter.skip(n - k - 1);
      return t;
    }
    if ((k + 1) % perSecond == 0) {
      const Eigen::Vector2d rate = gait.shapeRate(gait.omega * t);
      const Vector3d xi = snakeboard::velocityOfMomentum(p, s.phi, rate[0], s.p);
      out.emplace_back(s.g.x, s.g.y, s.g.theta, snakeboard::energy(p, rate[0], rate[1], xi));
    }
  }
  return -1.0;
}

}  // namespace

void carRun(const StudyProblem& p, std::uint64_t seed, int run, std::vector<RunResult>& results,
            StudyControl* control) {
  const CarCase c = carCase(seed, run);
  const CarParams params;
  const double E0 = params.energyOfMomentum(params.momentumOfRate(c.psiDot0, c.sigma(0.0)), c.sigma(0.0));
  // Step measure: h times the largest yaw rate scale (rho/l) A psi_dot(0).
  const double yawRate = params.rho / params.l * c.amplitude * c.psiDot0;
  const VehicleLoop loop = [&](VehicleIntegrator m, double h, std::vector<Vector4d>& out, StepMeter& meter) {
    return runCar(m, c, h, p.duration, out, meter);
  };
  scoreVehicle(p, run, loop, yawRate, false, E0, results, control);
}

void snakeboardRun(const StudyProblem& p, std::uint64_t seed, int run, std::vector<RunResult>& results,
                   StudyControl* control) {
  const SnakeboardGait gait = snakeboardCase(seed, run);
  const VehicleLoop loop = [&](VehicleIntegrator m, double h, std::vector<Vector4d>& out, StepMeter& meter) {
    return runSnakeboard(m, gait, h, p.duration, out, meter);
  };
  // Step measure: h times the gait's angular frequency w.
  scoreVehicle(p, run, loop, gait.omega, true, 0.0, results, control);
}

}  // namespace varsim::study
