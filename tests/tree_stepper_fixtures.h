// tests/tree_stepper_fixtures.h — shared experiments for the tree integrators (midpoint, trapezoidal,
// rk4): energy histories, observed order against a fine RK4 reference, double-pendulum normal-mode
// periods, the damped/driven pendulum equilibrium, and cache on/off runs.
#pragma once

#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "engine/integrators/tree_rk4.h"
#include "engine/tree/pendulum_chain.h"

namespace varsim::test {

using StepperFactory = std::function<std::unique_ptr<tree::TreeStepper>(tree::Tree&)>;

// Forcing with every term active (damping and applied torques) for n variables.
inline tree::TreeForcing fullForcing(int n) {
  tree::TreeForcing f;
  f.damping = Eigen::VectorXd::LinSpaced(n, 0.1, 0.9);
  f.torque = Eigen::VectorXd::LinSpaced(n, -1, 1);
  return f;
}

// Central-difference Jacobian of r at x.
inline Eigen::MatrixXd fdJacobian(const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& r,
                                  const Eigen::VectorXd& x) {
  Eigen::MatrixXd fd;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    Eigen::VectorXd a = x, b = x;
    a(i) += 1e-6, b(i) -= 1e-6;
    const Eigen::VectorXd col = (r(a) - r(b)) / 2e-6;
    if (i == 0) fd.resize(col.size(), x.size());
    fd.col(i) = col;
  }
  return fd;
}

// Energies after each of `steps` steps (entry 0 at t = 0).
inline std::vector<double> energyHistory(tree::TreeStepper& s, const Eigen::VectorXd& q0, double h, int steps) {
  const tree::TreeForcing none;
  s.initialize(q0, Eigen::VectorXd::Zero(q0.size()), h, none);
  std::vector<double> e{s.energy()};
  for (int k = 0; k < steps; ++k) s.step(none), e.push_back(s.energy());
  return e;
}

// max |E - E0| over [from, to) of the history.
inline double energyError(const std::vector<double>& e, size_t from, size_t to) {
  double w = 0;
  for (size_t k = from; k < to; ++k) w = std::max(w, std::abs(e[k] - e[0]));
  return w;
}

// q at time T of the double pendulum (m = 1, l = 1) started at rest from q0.
inline Eigen::VectorXd finalQ(const StepperFactory& make, double h, double T, const Eigen::VectorXd& q0) {
  tree::Tree t = tree::pendulumChain(static_cast<int>(q0.size()), 1.0, 1.0);
  auto s = make(t);
  const tree::TreeForcing none;
  s->initialize(q0, Eigen::VectorXd::Zero(q0.size()), h, none);
  const int n = static_cast<int>(std::lround(T / h));
  for (int k = 0; k < n; ++k) s->step(none);
  return s->q();
}

// Observed orders log2(e(h)/e(h/2)) for h, h/2, h/4 against a fine RK4 reference (h/64).
inline std::vector<double> observedOrders(const StepperFactory& make, double h, double T) {
  const Eigen::Vector2d q0(1.0, -0.5);
  const StepperFactory rk4 = [](tree::Tree& t) { return std::make_unique<tree::TreeRk4>(t); };
  const Eigen::VectorXd ref = finalQ(rk4, h / 64, T, q0);
  std::vector<double> err, orders;
  for (double hh : {h, h / 2, h / 4}) err.push_back((finalQ(make, hh, T, q0) - ref).norm());
  for (size_t i = 0; i + 1 < err.size(); ++i) orders.push_back(std::log2(err[i] / err[i + 1]));
  return orders;
}

// Period of joint 0 from its upward zero crossings (linear interpolation) over `duration`.
inline double measuredPeriod(const StepperFactory& make, const Eigen::VectorXd& q0, double h, double duration) {
  tree::Tree t = tree::pendulumChain(2, 1.0, 1.0);
  auto s = make(t);
  const tree::TreeForcing none;
  s->initialize(q0, Eigen::VectorXd::Zero(2), h, none);
  std::vector<double> crossings;
  double prev = s->q()(0);
  for (int k = 1; k * h <= duration; ++k) {
    s->step(none);
    const double cur = s->q()(0);
    if (prev < 0 && cur >= 0) crossings.push_back((k - 1) * h + h * prev / (prev - cur));
    prev = cur;
  }
  if (crossings.size() < 2) return NAN;
  return (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
}

// Normal modes of the equal double pendulum (m = l = 1, g = 9.81) in relative angles: absolute-angle
// ratio theta_2/theta_1 = ±sqrt(2), omega² = (2 ∓ sqrt(2)) g (slow in-phase, fast anti-phase).
inline double modePeriod(bool slow) { return 2 * M_PI / std::sqrt((2 + (slow ? -1 : 1) * std::sqrt(2.0)) * 9.81); }
inline Eigen::VectorXd modeShape(bool slow, double amplitude) {
  return Eigen::Vector2d(amplitude, amplitude * ((slow ? 1 : -1) * std::sqrt(2.0) - 1));
}

// Runs 5 links for `steps` steps with the cache on or off; returns all q's concatenated.
inline std::vector<double> trajectory(const StepperFactory& make, bool cache, int steps) {
  tree::Tree t = tree::pendulumChain(5, 0.7, 0.4);
  t.setCache(cache);
  auto s = make(t);
  tree::TreeForcing f;
  f.damping = Eigen::VectorXd::Constant(5, 0.05);
  f.torque = Eigen::VectorXd::LinSpaced(5, -0.2, 0.3);
  s->initialize(Eigen::VectorXd::LinSpaced(5, 0.9, -0.4), Eigen::VectorXd::Constant(5, 0.5), 0.01, f);
  std::vector<double> out;
  for (int k = 0; k < steps; ++k) {
    s->step(f);
    for (int i = 0; i < 5; ++i) out.push_back(s->q()(i));
  }
  return out;
}

// A single pendulum (m = 2, l = 0.5) with damping and a constant applied torque settles where
// m g l sin(theta) = tau; returns the final angle after `T` seconds.
inline double drivenEquilibrium(const StepperFactory& make, double tau, double h, double T) {
  tree::Tree t = tree::pendulumChain(1, 2.0, 0.5);
  auto s = make(t);
  tree::TreeForcing f;
  f.damping = Eigen::VectorXd::Constant(1, 1.5);
  f.torque = Eigen::VectorXd::Constant(1, tau);
  s->initialize(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1), h, f);
  for (int k = 0; k * h < T; ++k) s->step(f);
  return s->q()(0);
}

}  // namespace varsim::test
