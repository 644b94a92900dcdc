// engine/integrators/rk2i_rigid_body.cpp — implicit midpoint on (omega, v) with
// explicit quaternion reconstruction (see the header for the form and its
// citation).
#include "engine/integrators/rk2i_rigid_body.h"

namespace varsim {

void Rk2iRigidBody::step(double h, const WrenchField& f) {
  requireStep(h);
  const double t = time();
  // Midpoint pose of a trial midpoint velocity: rotate by h w/2 (exact
  // quaternion exponential), move by (h/2) R v.
  const auto midPose = [&](const Vector6d& y) {
    const Matrix3d R = quat::toRotation(quat::multiply(q_, quat::fromRotationVector(0.5 * h * y.head<3>())));
    return se3::Pose{R, x_ + 0.5 * h * (R * y.tail<3>())};
  };
  // Explicit-Euler predictor of the midpoint velocity.
  Vector6d y = xi_ + 0.5 * h * acceleration(g_, xi_, t, f);
  newtonIterations_ = solveVelocity(xi_, 0.5 * h, t + 0.5 * h, f, midPose, y);
  const se3::Pose gMid = midPose(y);
  commit(h, quat::multiply(q_, quat::fromRotationVector(h * y.head<3>())), x_ + h * (gMid.R * y.tail<3>()),
         2.0 * y - xi_);
}

}  // namespace varsim
