// engine/integrators/lie_newmark.cpp — explicit Lie-group Newmark (Krysl &
// Endres 2005) on SE(3); see header.
#include "engine/integrators/lie_newmark.h"

#include "engine/lie/so3.h"

namespace varsim {

void LieNewmark::step(double h, const WrenchField& f) {
  requireStep(h);
  const double t = time();
  const Vector6d A = acceleration(g_, xi_, t, f);
  const Vector6d psi = h * xi_ + 0.5 * h * h * A;
  // g_{k+1} = g_k exp(Psi): rotation R_k exp(psi_w), translation x_k + R_k
  // B_exp(psi_w) psi_v (seed 000 eq. (13)).
  const quat::Quat q = quat::multiply(q_, quat::fromRotationVector(psi.head<3>()));
  const Vector3d x = x_ + g_.R * (se3::Bexp(psi.head<3>()) * psi.tail<3>());
  const se3::Pose gNext{quat::toRotation(quat::normalize(q)), x};
  Vector6d y = xi_ + h * A;  // explicit-Euler predictor of xi_{k+1}
  newtonIterations_ = solveVelocity(
      xi_ + 0.5 * h * A, 0.5 * h, t + h, f, [&](const Vector6d&) { return gNext; }, y);
  commit(h, q, x, y);
}

}  // namespace varsim
