// engine/integrators/car_rk.cpp — RK2/RK4 on the car's reduced ODE behind the
// CarState of the variational update.
#include "engine/integrators/car_rk.h"

#include <cmath>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {

CarIntegrator carIntegratorFromName(const std::string& name, const std::string& key) {
  if (name == "variational") return CarIntegrator::Variational;
  if (name == "rk2") return CarIntegrator::Rk2;
  if (name == "rk4") return CarIntegrator::Rk4;
  throw BadInput("key '" + key + "' = " + name + ": allowed variational, rk2, rk4");
}

const char* carIntegratorName(CarIntegrator method) {
  return method == CarIntegrator::Rk2 ? "rk2" : method == CarIntegrator::Rk4 ? "rk4" : "variational";
}

void carRkStep(const CarParams& p, int order, double h, CarState& s, double steerRate, double torque) {
  const auto f = [&](const CarOdeState& y) { return carOdeRhs(p, y, torque, steerRate); };
  CarOdeState y;
  y << s.g.theta, s.g.x, s.g.y, s.psi, s.sigma, s.pMinus / (p.I0() + p.c() * s.sigma * s.sigma);
  CarOdeState next;
  if (order == 2) {
    next = y + h * f(y + 0.5 * h * f(y));
  } else {
    const CarOdeState k1 = f(y), k2 = f(y + 0.5 * h * k1), k3 = f(y + 0.5 * h * k2), k4 = f(y + h * k3);
    next = y + (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }
  if (!next.allFinite() || std::abs(next[5]) > 1e8)
    throw SimulationDiverged(std::string("car ") + (order == 2 ? "rk2" : "rk4") +
                             " step: wheel rate psi_dot = " + formatNumber(next[5]) + " is not finite or overflows");
  s.g = se2::Pose2{next[0], next[1], next[2]};
  s.u = (next[3] - s.psi) / h;
  s.sigmaMid = s.sigma + 0.5 * h * steerRate;
  s.psi = next[3];
  s.sigma = next[4];
  s.pMinus = p.momentumOfRate(next[5], next[4]);
  s.torque = torque;
  s.steerRate = steerRate;
}

void carStepWith(CarIntegrator method, const CarParams& p, double alpha, double h, CarState& s, double steerRate,
                 double torque) {
  switch (method) {
    case CarIntegrator::Variational:
      carStep(p, alpha, h, s, steerRate, torque);
      return;
    case CarIntegrator::Rk2:
      carRkStep(p, 2, h, s, steerRate, torque);
      return;
    case CarIntegrator::Rk4:
      carRkStep(p, 4, h, s, steerRate, torque);
      return;
  }
}

}  // namespace varsim
