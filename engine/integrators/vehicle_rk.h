// engine/integrators/vehicle_rk.h — the RK2 (explicit midpoint) and RK4 baselines for the car (seed 000
// Sec. 5.2.1, Fig. 5 "RK2") and the snakeboard (Sec. 5.2.2) on their reduced ODEs (carOdeRhs, snakeboardOdeRhs:
// the pose on SE(2) in coordinates), next to the variational updates of nonholonomic.h, with the scenes' inputs:
// the car's torque f and steering rate u^sigma held over the step as the variational update holds them; the
// snakeboard's shape moved linearly between the prescribed nodes. They share CarState / SnakeboardState with the
// variational steps (the car's wheel rate at node k is psi_dot = pMinus / (I0 + c sigma_k^2), pMinus then being
// the continuous momentum; the snakeboard's p is the continuous momentum), so the scenes, the impact laws and the
// energy readouts are the same for every method.
#pragma once

#include <string>

#include "engine/integrators/nonholonomic.h"

namespace varsim {

enum class VehicleIntegrator { Variational, Rk2, Rk4 };
// "variational" | "rk2" | "rk4" -> enum; throws BadInput naming `key` and the allowed set.
VehicleIntegrator vehicleIntegratorFromName(const std::string& name, const std::string& key = "integrator");
const char* vehicleIntegratorName(VehicleIntegrator method);

// A state whose wheel rate (rad/s) or board momentum exceeds this counts as overflow: SimulationDiverged.
constexpr double kVehicleOverflow = 1e8;

// One RK step (order 2 or 4) of the car's reduced ODE. On return: g, psi, sigma, pMinus at node k+1; u = (psi_{k+1}
// - psi_k)/h and sigmaMid = sigma_k + h u^sigma / 2 describe the step's segment (as carStep's u_k, sigma_{k+1/2}).
// Throws SimulationDiverged (state unchanged) on a non-finite state or overflow.
void carRkStep(const CarParams& p, int order, double h, CarState& s, double steerRate, double torque);
// The step of `method`: carStep (alpha as given) or carRkStep.
void carStepWith(VehicleIntegrator method, const CarParams& p, double alpha, double h, CarState& s, double steerRate,
                 double torque);

// One RK step of the snakeboard's reduced ODE to the prescribed shape (psiNext, phiNext). On return: g, p, psi, phi
// at node k+1; uPsi, uPhi the segment's shape rates, xi = log(g_k^-1 g_{k+1}) / h the segment's body velocity and
// zeta its coordinate on e1(phi_{k+1/2}). Throws SimulationDiverged (state unchanged) on non-finite or overflow.
void snakeboardRkStep(const SnakeboardParams& p, int order, double h, SnakeboardState& s, double psiNext,
                      double phiNext);
// The step of `method`: snakeboardStep (alpha as given) or snakeboardRkStep.
void snakeboardStepWith(VehicleIntegrator method, const SnakeboardParams& p, double alpha, double h, SnakeboardState& s,
                        double psiNext, double phiNext);

}  // namespace varsim
