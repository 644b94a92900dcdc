// engine/integrators/car_rk.h — the RK2 (explicit midpoint) and RK4 baselines
// for the car of seed 000 Sec. 5.2.1 (Fig. 5 "RK2"), on the reduced ODE
// carOdeRhs (engine/models/car.h: state (theta, x, y, psi, sigma, psi_dot), the
// pose on SE(2) in coordinates), with the step's torque f and steering rate
// u^sigma held constant over the step exactly as the variational update holds
// them. They share CarState with carStep: the wheel rate at node k is psi_dot =
// pMinus / (I0 + c sigma_k^2) (pMinus is then the continuous momentum), so the
// scene, the impact law p -> -e p and the energy readout are the same for every
// method.
#pragma once

#include <string>

#include "engine/integrators/nonholonomic.h"

namespace varsim {

enum class CarIntegrator { Variational, Rk2, Rk4 };
// "variational" | "rk2" | "rk4" -> enum; throws BadInput naming `key` and the
// allowed set.
CarIntegrator carIntegratorFromName(const std::string& name, const std::string& key = "integrator");
const char* carIntegratorName(CarIntegrator method);

// One RK step (order 2 or 4) of the reduced ODE. On return: g, psi, sigma,
// pMinus at node k+1; u = (psi_{k+1} - psi_k)/h and sigmaMid = sigma_k + h
// u^sigma / 2 describe the step's segment (as carStep's u_k, sigma_{k+1/2}).
// Throws SimulationDiverged (state unchanged) on a non-finite state or
// |psi_dot| > 1e8 rad/s.
void carRkStep(const CarParams& p, int order, double h, CarState& s, double steerRate, double torque);

// The step of `method`: carStep (alpha as given) or carRkStep.
void carStepWith(CarIntegrator method, const CarParams& p, double alpha, double h, CarState& s, double steerRate,
                 double torque);

}  // namespace varsim
