// engine/control/se2_step_jacobian.h — first derivatives of the explicit updates' pose line g_{k+1} = g_k exp(v)
// (se2::exp, v = h xi_k) in the global chart (theta, x, y) that the DMOC transcriptions use for SE(2) poses.
// Shared by the car and snakeboard transcriptions (engine/control/*_dmoc.h), so the exp series lives once.
// Templated on the scalar so a transcription can differentiate its Jacobian once more by complex step (its
// exact Hessian): T = double or std::complex<double>; both branches of the series are analytic in w.
#pragma once

#include <cmath>
#include <complex>

#include "engine/lie/se2.h"

namespace varsim {

// S(a) = sin a / a, C(a) = (1 - cos a)/a of se2::exp and their derivatives (series near 0; the branch is
// chosen on the real part, so a complex-step perturbation never switches it).
template <class T>
void se2ExpCoefficients(const T& a, T& S, T& C, T& dS, T& dC) {
  using std::cos, std::sin;
  if (std::abs(std::real(a)) < 1e-4) {
    const T a2 = a * a;
    S = 1.0 - a2 / 6.0;
    C = a / 2.0 - a * a2 / 24.0;
    dS = -a / 3.0 + a * a2 / 30.0;
    dC = 0.5 - a2 / 8.0;
    return;
  }
  const T s = sin(a), c = cos(a);
  S = s / a;
  C = (1.0 - c) / a;
  dS = (a * c - s) / (a * a);
  dC = (a * s - (1.0 - c)) / (a * a);
}

// dG = d(g exp(v))/d(theta, x, y) and dV = d(g exp(v))/dv, both 3x3 with rows (theta, x, y) of the product, at
// heading theta of g (the derivatives do not depend on g's translation). se2::exp: theta += w, translation
// R(theta) V(w) (vx, vy), V = [[S, -C], [C, S]] (Appendix B), differentiated in closed form.
template <class T>
void se2StepJacobianT(const T& theta, const Eigen::Matrix<T, 3, 1>& v, Eigen::Matrix<T, 3, 3>& dG,
                      Eigen::Matrix<T, 3, 3>& dV) {
  using std::cos, std::sin;
  T S, C, dS, dC;
  se2ExpCoefficients(v[0], S, C, dS, dC);
  const T tx = S * v[1] - C * v[2], ty = C * v[1] + S * v[2];  // body-frame translation of exp(v)
  Eigen::Matrix<T, 2, 3> dt;                                   // d(tx, ty)/d(w, vx, vy)
  dt << dS * v[1] - dC * v[2], S, -C, dC * v[1] + dS * v[2], C, S;
  const T ct = cos(theta), st = sin(theta);
  Eigen::Matrix<T, 2, 2> R;
  R << ct, -st, st, ct;
  dG.setIdentity();
  dG(1, 0) = -st * tx - ct * ty;
  dG(2, 0) = ct * tx - st * ty;
  dV.setZero();
  dV(0, 0) = T(1.0);
  dV.template bottomRows<2>() = R * dt;
}

inline void se2StepJacobian(const se2::Pose2& g, const Vector3d& v, Matrix3d& dG, Matrix3d& dV) {
  se2StepJacobianT<double>(g.theta, v, dG, dV);
}

}  // namespace varsim
