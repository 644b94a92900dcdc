// scenes/vehicles/helicopter_rk4_rules.cpp — see the header. Measured on the helicopter (rk4, world none, 600 kg, dt 1/60 s,
// 10 s): drag_linear 100260 (h c / m = 2.785) with wind 50 per axis ran, 101000 (2.806) was flagged at 1.8 s and
// diverged at 3.9 s, 103000 (2.86) at step 63; drag_angular 50130 (h c / J_roll = 2.785) with start_omega 1 per axis
// ran, 51000 (2.83) was flagged at step 20 and diverged at step 63.
#include "scenes/vehicles/helicopter_rk4_rules.h"

#include <string>

#include "engine/sim/errors.h"

namespace varsim {

void checkRk4Drag(const ParamSet& p, double mass, const Eigen::Vector3d& inertia) {
  if (p.choice("integrator") != "rk4") return;
  const double h = p.real("dt");
  const struct {
    const char* key;
    double rate;
    const char* over;
  } drags[2] = {{"drag_linear", p.real("drag_linear") / mass, "mass"},
                {"drag_angular", p.real("drag_angular") / inertia.minCoeff(), "the smallest inertia"}};
  for (const auto& d : drags) {
    if (h * d.rate <= kRk4DecayBound) continue;
    const std::string key = d.key;
    throw BadInput("key '" + key + "' = " + formatNumber(p.real(d.key)) + " with integrator = rk4 and dt = " +
                   formatNumber(h) + " s: h " + key + " / " + d.over + " = " + formatNumber(h * d.rate) +
                   " is beyond explicit RK4's stability bound " + formatNumber(kRk4DecayBound) +
                   " on the drag (the velocity grows each step); allowed here dt <= " +
                   formatNumber(kRk4DecayBound / d.rate) + " s, or " + key + " <= " +
                   formatNumber(kRk4DecayBound * p.real(d.key) / (h * d.rate)) +
                   ", or integrator = lgvi (implicit drag)");
  }
}

// Measured (rk4, default 600 kg on the start pad, 3 s): |start_velocity| 900 m/s ran in every direction tried (down
// and sideways, y with -z at 1:3, 1:1, 2:1; the diagonals ran up to 1212 m/s); 1200 m/s sideways into the ground
// (0, 1, -1) and (-1, 1, -2) gained 1e9 J at step 2 and diverged within 6 steps, -800 per axis (1386 m/s) was flagged
// at step 2: the skids' slip damping through their lever arm is stiff in roll once the impact is that deep. The LGVI's
// implicit contact runs them.
void checkRk4ContactStartSpeed(const ParamSet& p) {
  if (p.choice("integrator") != "rk4" || p.choice("world") != "canyon") return;
  const double speed = p.vec3("start_velocity").norm();
  if (speed <= kRk4ContactStartSpeed) return;
  throw BadInput("key 'start_velocity' = " + p.valueText("start_velocity") + " with integrator = rk4 and world = "
                 "canyon: |start_velocity| = " + formatNumber(speed) + " m/s; explicit RK4 on the explicit contact "
                 "gained energy on impact beyond the measured " + formatNumber(kRk4ContactStartSpeed) +
                 " m/s; allowed here |start_velocity| <= " + formatNumber(kRk4ContactStartSpeed) +
                 " m/s, or integrator = lgvi (implicit contact), or world = none");
}

}  // namespace varsim
