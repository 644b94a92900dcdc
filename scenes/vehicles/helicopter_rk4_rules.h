// scenes/vehicles/helicopter_rk4_rules.h — where the helicopter's baseline integrator (explicit RK4) cannot run: a
// drag rate h c / m (or h c_omega / J_min) beyond RK4's real-axis stability, and a start speed into the canyon
// world's explicit contact beyond the speeds measured to run.
#pragma once

#include <Eigen/Core>

#include "engine/sim/param.h"

namespace varsim {

// RK4 on the decay v' = -k v multiplies v by R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24 per step, z = -h k, and
// |R(z)| <= 1 for z in [-2.785, 0] (|R| = 1 at z = -2.7853).
constexpr double kRk4DecayBound = 2.785;

// Throws BadInput when integrator = rk4 and h drag_linear / mass or h drag_angular / (smallest of inertia) exceeds
// kRk4DecayBound; the message names the keys, the rate, the bound and the dt that would run.
void checkRk4Drag(const ParamSet& p, double mass, const Eigen::Vector3d& inertia);

// With world = canyon, RK4 steps the explicit (soft) contact law; a start faster than this gains energy on impact.
constexpr double kRk4ContactStartSpeed = 900.0;  // m/s

// Throws BadInput when integrator = rk4, world = canyon and |start_velocity| > kRk4ContactStartSpeed.
void checkRk4ContactStartSpeed(const ParamSet& p);

}  // namespace varsim
