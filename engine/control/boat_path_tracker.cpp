// engine/control/boat_path_tracker.cpp — the boat's PD path tracker (boat_path_tracker.h): surge force and yaw torque
// from the path errors in the boat's heading frame, then the inverse of the thrusters' mixing (force u_l + u_r, yaw
// torque lever (u_r - u_l): the ERRATA control matrix's z row, c x e_x with c_y = +-lever).
#include "engine/control/boat_path_tracker.h"

#include <algorithm>
#include <cmath>

namespace varsim {

Eigen::Vector2d boatTrackerThrust(const BoatTrackerModel& model, const BoatTrackerGains& gains,
                                  const BoatPathReference& ref, const Vector3d& x, const Vector3d& v, double psi,
                                  double r) {
  const Eigen::Vector2d ex(std::cos(psi), std::sin(psi)), ey(-ex.y(), ex.x());
  const Eigen::Vector2d e = (ref.x - x).head<2>(), dv = (ref.v - v).head<2>();
  const double force = model.mass * (gains.along * e.dot(ex) + gains.speed * dv.dot(ex));
  const double psiCmd = ref.heading + std::atan(gains.crossTrack * e.dot(ey));
  const double headingError = std::remainder(psiCmd - psi, 2.0 * M_PI);
  const double torque = model.yawInertia * (gains.heading * headingError + gains.yawRate * (ref.headingRate - r));
  const Eigen::Vector2d u(0.5 * force - 0.5 * torque / model.lever, 0.5 * force + 0.5 * torque / model.lever);
  return u.cwiseMax(0.0).cwiseMin(model.thrustMax);
}

}  // namespace varsim
