// engine/control/car_path_tracker.h — the baseline a user would otherwise fly a planned car path with (issue 10,
// Numbers): a PD tracker on the plan's states (pose, steering sigma, wheel momentum p^-) that never sees the plan's
// controls, stepped through the ordinary update carStep with the scene's limits. Its control effort h sum u^T W u
// against the optimal plan's is what bench_plan reports.
#pragma once

#include <vector>

#include "engine/integrators/nonholonomic.h"

namespace varsim {

struct CarTrackerGains {
  double steer = 5.0;     // 1/s: u^sigma = steer (sigma_des - sigma)
  double lateral = 1.0;   // 1/m: sigma_des = sigma_ref - lateral e_lat - heading e_theta (e_lat: left of the path)
  double heading = 1.5;   // 1/rad
  double momentum = 4.0;  // 1/s: f = momentum (p_ref - p) - along e_along (p ~ v here: double pole at -2/s)
  double along = 4.0;     // N m/m
};

struct CarTrackerLimits {
  double sigmaMax, maxSteerRate, maxTorque;  // |sigma|, |u^sigma|, |f| (the scene's limits, as the plan's bounds)
};

struct CarTrackResult {
  std::vector<CarState> states;           // nodes 0..N, states[0] = reference[0]
  std::vector<double> steerRate, torque;  // per step
};

// The PD law for one step of h from state s toward the reference r (pose, sigma, p^-): steering rate u^sigma and
// wheel torque f, each within the limits, |sigma| <= sigmaMax kept through the step. trackCarPath's law, also used
// on a live reference (bench_mpc carfollow's baseline).
struct CarTrackerCommand {
  double steerRate, torque;
};
CarTrackerCommand carTrackerCommand(const CarState& s, const CarState& r, double h, const CarTrackerLimits& limits,
                                    const CarTrackerGains& gains = {});

// Follows reference[0..N] (one state per step of h) from reference[0]. Throws SimulationDiverged if carStep does.
CarTrackResult trackCarPath(const CarParams& p, double alpha, double h, const std::vector<CarState>& reference,
                            const CarTrackerLimits& limits, const CarTrackerGains& gains = {});

}  // namespace varsim
