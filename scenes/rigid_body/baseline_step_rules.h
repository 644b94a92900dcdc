// scenes/rigid_body/baseline_step_rules.h — where rigid_body's explicit baselines (RK2, RK4) cannot run 20 s: the
// body-frame velocity turns at omega (v' = v x omega, seed 000 eq. (8)), a mode on the imaginary axis, and the
// Euler equations' linearised modes turn no faster; explicit RK amplifies such a mode by |R(i h omega)| per step.
#pragma once

#include <Eigen/Core>

#include "engine/sim/param.h"

namespace varsim {

// RK4: |R(iz)|^2 = 1 - z^6/72 + z^8/576 <= 1 for z <= 2 sqrt(2) = 2.828 (beyond it the velocity grows each step).
constexpr double kRk4SpinBound = 2.828;

// RK2 (explicit midpoint): |R(iz)|^2 = 1 + z^4/4 > 1 at every z, so the energy in such a mode grows by the factor
// (1 + z^4/4) per step. A start is accepted when that growth over kRk2Horizon stays within the energy monitor's
// relative tolerance (EnergyMonitor::kRelativeTolerance, 5 %).
constexpr double kRk2Horizon = 20.0;  // s

// The largest |omega| the torque-free motion from omega reaches: the endpoints of the segment {x_i = omega_i^2 >= 0
// : sum J_i x_i = 2T, sum J_i^2 x_i = |L|^2} (both conserved; the polhode meets the segment's ends).
double largestSpinRate(const Eigen::Vector3d& inertia, const Eigen::Vector3d& omega);

// RK2's predicted relative energy growth over kRk2Horizon at step h and spin rate w: (1 + (h w)^4/4)^(horizon/h) - 1.
double rk2PredictedGrowth(double h, double w);

// Throws BadInput when integrator = rk4 and h w_max > kRk4SpinBound, or integrator = rk2 and its predicted growth
// exceeds the monitor's tolerance; the message names the keys, the bound and the dt and |omega| that would run.
void checkRigidBaselineSpin(const ParamSet& p);

}  // namespace varsim
