// engine/control/car_path_tracker.cpp — PD path tracking for the car (feedback on the plan's states only), stepped
// by carStep: errors in the reference's frame, steering toward sigma_ref corrected by lateral and heading errors,
// throttle toward the reference momentum corrected by the along-track error; every command within the limits.
#include "engine/control/car_path_tracker.h"

#include <algorithm>
#include <cmath>

namespace varsim {

CarTrackerCommand carTrackerCommand(const CarState& s, const CarState& r, double h, const CarTrackerLimits& limits,
                                    const CarTrackerGains& gains) {
  const double c = std::cos(r.g.theta), sn = std::sin(r.g.theta), dx = s.g.x - r.g.x, dy = s.g.y - r.g.y;
  const double eAlong = c * dx + sn * dy, eLat = -sn * dx + c * dy;
  const double eTheta = std::remainder(s.g.theta - r.g.theta, 2.0 * M_PI);
  const double sigmaDes = std::clamp(r.sigma - gains.lateral * eLat - gains.heading * eTheta, -limits.sigmaMax,
                                     limits.sigmaMax);
  // Steer rate toward sigma_des, no faster than the limit, and never past |sigma| <= sigmaMax within the step.
  double w = std::clamp(gains.steer * (sigmaDes - s.sigma), -limits.maxSteerRate, limits.maxSteerRate);
  w = std::clamp(w, (-limits.sigmaMax - s.sigma) / h, (limits.sigmaMax - s.sigma) / h);
  const double f =
      std::clamp(gains.momentum * (r.pMinus - s.pMinus) - gains.along * eAlong, -limits.maxTorque, limits.maxTorque);
  return {w, f};
}

CarTrackResult trackCarPath(const CarParams& p, double alpha, double h, const std::vector<CarState>& reference,
                            const CarTrackerLimits& limits, const CarTrackerGains& gains) {
  CarTrackResult out;
  if (reference.empty()) return out;
  CarState s = reference.front();
  out.states.push_back(s);
  for (size_t k = 0; k + 1 < reference.size(); ++k) {
    const CarTrackerCommand u = carTrackerCommand(s, reference[k], h, limits, gains);  // reference[k]: where s should be
    carStep(p, alpha, h, s, u.steerRate, u.torque);
    out.steerRate.push_back(u.steerRate);
    out.torque.push_back(u.torque);
    out.states.push_back(s);
  }
  return out;
}

}  // namespace varsim
