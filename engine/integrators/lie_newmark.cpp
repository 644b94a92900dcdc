// engine/integrators/lie_newmark.cpp — explicit Lie-group Newmark (Krysl &
// Endres 2005) on SE(3); see header.
#include "engine/integrators/lie_newmark.h"

#include "engine/lie/so3.h"

namespace varsim {

void LieNewmark::step(double h, const WrenchField& f) {
  requireStep(h);
  if (group_ == Group::SE3)
    stepSE3(h, f);
  else
    stepSO3xR3(h, f);
}

void LieNewmark::stepSE3(double h, const WrenchField& f) {
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

namespace varsim {

void LieNewmark::stepSO3xR3(double h, const WrenchField& f) {
  const double t = time();
  const Vector6d A = acceleration(g_, xi_, t, f);
  const Vector3d w = xi_.head<3>(), v = xi_.tail<3>();
  const Vector3d u = g_.R * v;                    // world velocity
  const Vector3d a = g_.R * (A.tail<3>() + w.cross(v));  // world acceleration R F/m (body A_v = v x w + F/m)
  const Vector3d psiW = h * w + 0.5 * h * h * A.head<3>();
  const quat::Quat q = quat::multiply(q_, quat::fromRotationVector(psiW));
  const se3::Pose gNext{quat::toRotation(quat::normalize(q)), x_ + h * u + 0.5 * h * h * a};
  // Velocity: w' = w + (h/2)(A_w + A_w'); R' v' = u + (h/2)(a + R' F'/m), i.e. in the body frame of k+1
  // v' = R'^T (u + (h/2) a) + (h/2) F'/m: the shared Newton kernel with the direct-product acceleration.
  Vector6d c;
  c << w + 0.5 * h * A.head<3>(), gNext.R.transpose() * (u + 0.5 * h * a);
  Vector6d y = xi_ + h * A;
  newtonIterations_ = solveVelocity(
      c, 0.5 * h, t + h, f, [&](const Vector6d&) { return gNext; }, y, Coupling::DirectProduct);
  commit(h, q, gNext.x, y);
}

}  // namespace varsim
