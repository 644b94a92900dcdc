// engine/integrators/vehicle_rk.cpp — RK2/RK4 on the car's and the snakeboard's reduced ODEs behind the states of
// the variational updates (see the header).
#include "engine/integrators/vehicle_rk.h"

#include <cmath>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {
namespace {

// Explicit midpoint (order 2) or classical RK4 for y' = f(tau, y), tau the time since the start of the step.
template <class State, class Rhs>
State rkStep(int order, double h, const State& y, const Rhs& f) {
  if (order == 2) return y + h * f(0.5 * h, y + 0.5 * h * f(0.0, y));
  const State k1 = f(0.0, y), k2 = f(0.5 * h, y + 0.5 * h * k1), k3 = f(0.5 * h, y + 0.5 * h * k2),
              k4 = f(h, y + h * k3);
  return y + (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
}

}  // namespace

VehicleIntegrator vehicleIntegratorFromName(const std::string& name, const std::string& key) {
  if (name == "variational") return VehicleIntegrator::Variational;
  if (name == "rk2") return VehicleIntegrator::Rk2;
  if (name == "rk4") return VehicleIntegrator::Rk4;
  throw BadInput("key '" + key + "' = " + name + ": allowed variational, rk2, rk4");
}

const char* vehicleIntegratorName(VehicleIntegrator method) {
  return method == VehicleIntegrator::Rk2 ? "rk2" : method == VehicleIntegrator::Rk4 ? "rk4" : "variational";
}

void carRkStep(const CarParams& p, int order, double h, CarState& s, double steerRate, double torque) {
  const auto f = [&](double, const CarOdeState& y) { return carOdeRhs(p, y, torque, steerRate); };
  CarOdeState y;
  y << s.g.theta, s.g.x, s.g.y, s.psi, s.sigma, s.pMinus / (p.I0() + p.c() * s.sigma * s.sigma);
  const CarOdeState next = rkStep(order, h, y, f);
  if (!next.allFinite() || std::abs(next[5]) > kVehicleOverflow)
    throw SimulationDiverged(std::string("car ") + (order == 2 ? "rk2" : "rk4") +
                             " step: wheel rate psi_dot = " + formatNumber(next[5]) + " is not finite or overflows");
  s.g = se2::Pose2{next[0], next[1], next[2]};
  s.u = (next[3] - s.psi) / h;
  s.sigmaMid = shapeOnSegment(s.sigma, steerRate, 0.5 * h);
  s.psi = next[3];
  s.sigma = next[4];
  s.pMinus = p.momentumOfRate(next[5], next[4]);
  s.torque = torque;
  s.steerRate = steerRate;
}

void carStepWith(VehicleIntegrator method, const CarParams& p, double alpha, double h, CarState& s, double steerRate,
                 double torque) {
  if (method == VehicleIntegrator::Variational)
    carStep(p, alpha, h, s, steerRate, torque);
  else
    carRkStep(p, method == VehicleIntegrator::Rk2 ? 2 : 4, h, s, steerRate, torque);
}

void snakeboardRkStep(const SnakeboardParams& p, int order, double h, SnakeboardState& s, double psiNext,
                      double phiNext) {
  const Eigen::Vector2d r0(s.psi, s.phi), u = (Eigen::Vector2d(psiNext, phiNext) - r0) / h;
  // The shape moves linearly over the step (the scene prescribes only the nodes): r(t_k + tau) = r_k + tau u.
  const auto f = [&](double tau, const SnakeboardOdeState& y) {
    return snakeboardOdeRhs(p, y, shapeOnSegment(r0, u, tau), u);
  };
  SnakeboardOdeState y(s.g.theta, s.g.x, s.g.y, s.p);
  y = rkStep(order, h, y, f);
  if (!y.allFinite() || std::abs(y[3]) > kVehicleOverflow)
    throw SimulationDiverged(std::string("snakeboard ") + (order == 2 ? "rk2" : "rk4") +
                             " step: momentum p = " + formatNumber(y[3]) + " is not finite or overflows");
  const se2::Pose2 g{y[0], y[1], y[2]};
  // The segment's body velocity (what the scene draws, sweeps against obstacles and takes the energy of).
  const Vector3d xi = se2::log(s.g.inverse() * g) / h, e1 = snakeboard::e1(p.l, shapeOnSegment(s.phi, u[1], 0.5 * h));
  s.g = g;
  s.psi = psiNext;
  s.phi = phiNext;
  s.p = y[3];
  s.uPsi = u[0];
  s.uPhi = u[1];
  s.xi = xi;
  s.zeta = xi.dot(e1) / e1.squaredNorm();
}

void snakeboardStepWith(VehicleIntegrator method, const SnakeboardParams& p, double alpha, double h, SnakeboardState& s,
                        double psiNext, double phiNext) {
  if (method == VehicleIntegrator::Variational)
    snakeboardStep(p, alpha, h, s, psiNext, phiNext);
  else
    snakeboardRkStep(p, method == VehicleIntegrator::Rk2 ? 2 : 4, h, s, psiNext, phiNext);
}

}  // namespace varsim
