// engine/integrators/planar_impact.h — the explicit car and snakeboard steps (nonholonomic.h) made solid
// against planar obstacles (engine/models/planar_obstacles.h). Each step is taken as usual; if the footprint
// swept along the step's segment g_k exp(lambda h xi_k) touches an obstacle, the pose stops at the touch
// (lambda < 1, never inside) and an impact acts on the only velocity the wheel constraints allow (seed 000
// Sec. 5: the car rolls along its wheels, the board moves along e1(phi)). Newton's law with restitution
// e in [0, 1] on that one coordinate: the car's rear-wheel momentum p becomes -e p, the board's segment
// velocity xi_k becomes -e xi_k (the rider's own rotor momentum I u^psi is kept: the shape is prescribed).
// The contact impulse then does the work (e^2 - 1) (kinetic energy in that coordinate) <= 0, so an impact
// never creates energy. Without a touch the step is exactly the plain step (bit for bit).
#pragma once

#include <vector>

#include "engine/integrators/vehicle_rk.h"
#include "engine/integrators/nonholonomic.h"
#include "engine/models/planar_obstacles.h"

namespace varsim {

struct ImpactEvent {
  bool hit = false;
  int obstacle = -1;          // index into the obstacle list
  double lambda = 1.0;        // fraction of the step travelled before the touch
  double speedBefore = 0.0;   // m/s, speed of the body origin along the allowed direction before the impact
  double speedAfter = 0.0;    // m/s, the same after it (-e times speedBefore)
  Eigen::Vector2d point = Eigen::Vector2d::Zero();  // world point of the touch (footprint corner nearest the obstacle)
};

// carStep (or the RK baseline `method`, vehicle_rk.h), then the swept test along the segment (h (rho/l) sigma_mid u,
// h rho u, 0) and the impact p -> -e p (the step's torque impulse is applied in full first).
ImpactEvent carStepSolid(const CarParams& p, double alpha, double h, CarState& s, double steerRate, double torque,
                         const Footprint& footprint, const std::vector<PlanarBox>& obstacles, double restitution,
                         VehicleIntegrator method = VehicleIntegrator::Variational);

// snakeboardStep, then the swept test and the impact xi_k -> -e xi_k, p_{k+1} = <D(-e xi_k) + (I u^psi, 0, 0), e1(phi_{k+1})>.
// (snakeboardStepWith's `method`: the variational update by default, or an RK baseline, vehicle_rk.h.)
ImpactEvent snakeboardStepSolid(const SnakeboardParams& p, double alpha, double h, SnakeboardState& s, double psiNext,
                                double phiNext, const Footprint& footprint, const std::vector<PlanarBox>& obstacles,
                                double restitution, VehicleIntegrator method = VehicleIntegrator::Variational);

// Throws BadInput naming `where` unless e is in [0, 1].
void validateRestitution(double e, const char* where);

}  // namespace varsim
