// tests/bench/bench_vehicles_nh.cpp — cost and accuracy of the explicit nonholonomic updates (seed 000
// Sec. 5.2) against RK2 (midpoint) and RK4 on the same models' reduced ODEs, same inputs, same step:
// time per step and max pose error over the run against a fine RK4 solution (seed 000 Fig. 5 reports the
// car integrator as accurate as RK2 at half the cost). The general implicit scheme (Newton) is listed too.
// Prints tables; not a test.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include "engine/integrators/nonholonomic.h"

using namespace varsim;

namespace {

using Clock = std::chrono::steady_clock;

double carTorque(double t) { return 0.2 * std::sin(0.7 * t); }
double carSteerRate(double t) { return 0.3 * std::cos(0.5 * t); }

struct Pose {
  double x, y, theta;
};
struct Result {
  std::vector<Pose> poses;  // one per step node
  double nsPerStep = 0;
};

// Runs `run` a few times and keeps the fastest (the machine is shared).
Result timed(long steps, const std::function<std::vector<Pose>()>& run) {
  Result r;
  double best = 1e300;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = Clock::now();
    r.poses = run();
    best = std::min(best, std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / double(steps));
  }
  r.nsPerStep = best;
  return r;
}

template <class State, class Rhs>
State rkStep(int order, const Rhs& f, double t, double h, const State& s) {
  if (order == 2) return s + h * f(t + 0.5 * h, s + 0.5 * h * f(t, s));
  const State k1 = f(t, s), k2 = f(t + 0.5 * h, s + 0.5 * h * k1), k3 = f(t + 0.5 * h, s + 0.5 * h * k2),
              k4 = f(t + h, s + h * k3);
  return s + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
}

// Newton iterations of the general scheme (summed over all timed runs, reported after the tables).
long gNewtonIterations = 0, gNewtonSteps = 0;

// ---- car (60 s, the paper's one-minute runs) ----
const CarParams kCar;

std::vector<Pose> carExplicit(double h, long n) {
  std::vector<Pose> out;
  out.reserve(size_t(n));
  CarState s = carStart(kCar, se2::Pose2{}, 0.0, 0.0, 1.0);
  for (long k = 0; k < n; ++k) {
    const double t = double(k) * h;
    carStep(kCar, 0.5, h, s, carSteerRate(t + 0.5 * h), 0.5 * (carTorque(t) + carTorque(t + h)));
    out.push_back({s.g.x, s.g.y, s.g.theta});
  }
  return out;
}

std::vector<Pose> carImplicit(double h, long n) {
  static const CarModel model(kCar);
  const NonholonomicIntegrator<Se2Group> integ(model, {false, true});
  auto s = integ.start(se2::Pose2{}, Eigen::Vector2d::Zero(), Eigen::Vector2d(1.0, carSteerRate(0.0)), Eigen::VectorXd(0));
  std::vector<Pose> out;
  out.reserve(size_t(n));
  for (long k = 0; k < n; ++k) {
    const double t = double(k) * h;
    integ.step(s, h, Eigen::Vector2d(0.0, carSteerRate(t + 0.5 * h)),
               Eigen::Vector2d(0.5 * (carTorque(t) + carTorque(t + h)), 0.0));
    gNewtonIterations += s.newtonIterations, ++gNewtonSteps;
    out.push_back({s.g.x, s.g.y, s.g.theta});
  }
  return out;
}

std::vector<Pose> carRk(int order, double h, long n, long every = 1) {
  auto f = [](double t, const CarOdeState& s) { return carOdeRhs(kCar, s, carTorque(t), carSteerRate(t)); };
  CarOdeState s;
  s << 0, 0, 0, 0, 0, 1.0;
  std::vector<Pose> out;
  out.reserve(size_t(n / every));
  for (long k = 0; k < n; ++k) {
    s = rkStep(order, f, double(k) * h, h, s);
    if ((k + 1) % every == 0) out.push_back({s[1], s[2], s[0]});
  }
  return out;
}

// ---- snakeboard (10 s = 5 gait cycles from rest, the reference gait) ----
const SnakeboardParams kBoard;
const SnakeboardGait kGait;

std::vector<Pose> boardExplicit(double h, long n) {
  std::vector<Pose> out;
  out.reserve(size_t(n));
  SnakeboardState s = snakeboardStart(se2::Pose2{}, 0.0, 0.0, 0.0);
  for (long k = 0; k < n; ++k) {
    const Eigen::Vector2d r1 = kGait.shape(kGait.omega * double(k + 1) * h);
    snakeboardStep(kBoard, 0.5, h, s, r1[0], r1[1]);
    out.push_back({s.g.x, s.g.y, s.g.theta});
  }
  return out;
}

std::vector<Pose> boardImplicit(double h, long n) {
  static const SnakeboardModel model(kBoard);
  const NonholonomicIntegrator<Se2Group> integ(model, {true, true});
  auto s = integ.start(se2::Pose2{}, kGait.shape(0.0), kGait.shapeRate(0.0), Eigen::VectorXd::Zero(1));
  std::vector<Pose> out;
  out.reserve(size_t(n));
  Eigen::Vector2d r = kGait.shape(0.0);
  for (long k = 0; k < n; ++k) {
    const Eigen::Vector2d r1 = kGait.shape(kGait.omega * double(k + 1) * h);
    integ.step(s, h, (r1 - r) / h, Eigen::Vector2d::Zero());
    gNewtonIterations += s.newtonIterations, ++gNewtonSteps;
    r = r1;
    out.push_back({s.g.x, s.g.y, s.g.theta});
  }
  return out;
}

std::vector<Pose> boardRk(int order, double h, long n, long every = 1) {
  auto f = [](double t, const SnakeboardOdeState& s) {
    const double ph = kGait.omega * t;
    return snakeboardOdeRhs(kBoard, s, kGait.shape(ph), kGait.shapeRate(ph));
  };
  SnakeboardOdeState s = SnakeboardOdeState::Zero();
  std::vector<Pose> out;
  out.reserve(size_t(n / every));
  for (long k = 0; k < n; ++k) {
    s = rkStep(order, f, double(k) * h, h, s);
    if ((k + 1) % every == 0) out.push_back({s[1], s[2], s[0]});
  }
  return out;
}

// Max position / heading error of `run` (node k = step k+1) against the fine solution.
void errors(const std::vector<Pose>& run, const std::vector<Pose>& fine, long stride, double& pos, double& head) {
  pos = head = 0;
  for (size_t k = 0; k < run.size(); ++k) {
    const Pose& g = fine[(k + 1) * size_t(stride) - 1];
    pos = std::max(pos, std::hypot(run[k].x - g.x, run[k].y - g.y));
    head = std::max(head, std::abs(run[k].theta - g.theta));
  }
}

void table(const char* title, double T, const std::vector<double>& hs, const std::vector<Pose>& fine, double hFine,
           const std::vector<std::pair<const char*, std::function<std::vector<Pose>(double, long)>>>& methods) {
  std::printf("\n%s (%.0f s; error = max over the run against RK4 at h = %g)\n", title, T, hFine);
  std::printf("| h (s) | method | ns/step | max position error (m) | max heading error (rad) |\n");
  std::printf("|---|---|---|---|---|\n");
  for (double h : hs) {
    const long n = std::lround(T / h), stride = std::lround(h / hFine);
    for (const auto& [name, run] : methods) {
      const Result r = timed(n, [&] { return run(h, n); });
      double pos, head;
      errors(r.poses, fine, stride, pos, head);
      std::printf("| %g | %s | %.0f | %.3g | %.3g |\n", h, name, r.nsPerStep, pos, head);
    }
  }
}

}  // namespace

int main() {
  const std::vector<double> hs = {0.1, 0.05, 0.02, 0.01};
  const double hFine = 1e-4;
  {
    const double T = 60.0;
    const auto fine = carRk(4, hFine, std::lround(T / hFine));
    table("Car, f = 0.2 sin(0.7t), u_sigma = 0.3 cos(0.5t)", T, hs, fine, hFine,
          {{"explicit NH (alpha=1/2)", carExplicit},
           {"general NH, Newton", carImplicit},
           {"RK2 midpoint", [](double h, long n) { return carRk(2, h, n); }},
           {"RK4", [](double h, long n) { return carRk(4, h, n); }}});
    std::printf("general NH on the car: %.2f Newton iterations per step (central-difference Jacobian)\n",
                double(gNewtonIterations) / double(gNewtonSteps));
    gNewtonIterations = gNewtonSteps = 0;
  }
  {
    const double T = 10.0;
    const auto fine = boardRk(4, hFine, std::lround(T / hFine));
    table("Snakeboard, gait A_psi = 1, A_phi = 0.5, w = pi, delta = 0, from rest", T, hs, fine, hFine,
          {{"explicit NH (alpha=1/2)", boardExplicit},
           {"general NH, Newton", boardImplicit},
           {"RK2 midpoint", [](double h, long n) { return boardRk(2, h, n); }},
           {"RK4", [](double h, long n) { return boardRk(4, h, n); }}});
    std::printf("general NH on the snakeboard: %.2f Newton iterations per step\n",
                double(gNewtonIterations) / double(gNewtonSteps));
  }
  return 0;
}
