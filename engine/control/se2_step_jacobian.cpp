// engine/control/se2_step_jacobian.cpp — d(g exp(v)) for se2::exp: theta += w, translation R(theta) V(w) (vx, vy),
// V = [[S, -C], [C, S]] (Appendix B), differentiated in closed form.
#include "engine/control/se2_step_jacobian.h"

#include <cmath>

namespace varsim {
namespace {

// S(a) = sin a / a, C(a) = (1 - cos a)/a of se2::exp and their derivatives (series near 0).
void expCoefficients(double a, double& S, double& C, double& dS, double& dC) {
  if (std::abs(a) < 1e-4) {
    const double a2 = a * a;
    S = 1.0 - a2 / 6.0;
    C = a / 2.0 - a * a2 / 24.0;
    dS = -a / 3.0 + a * a2 / 30.0;
    dC = 0.5 - a2 / 8.0;
    return;
  }
  const double s = std::sin(a), c = std::cos(a);
  S = s / a;
  C = (1.0 - c) / a;
  dS = (a * c - s) / (a * a);
  dC = (a * s - (1.0 - c)) / (a * a);
}

}  // namespace

void se2StepJacobian(const se2::Pose2& g, const Vector3d& v, Matrix3d& dG, Matrix3d& dV) {
  double S, C, dS, dC;
  expCoefficients(v[0], S, C, dS, dC);
  const double tx = S * v[1] - C * v[2], ty = C * v[1] + S * v[2];  // body-frame translation of exp(v)
  Eigen::Matrix<double, 2, 3> dt;                                   // d(tx, ty)/d(w, vx, vy)
  dt << dS * v[1] - dC * v[2], S, -C, dC * v[1] + dS * v[2], C, S;
  const double ct = std::cos(g.theta), st = std::sin(g.theta);
  Eigen::Matrix2d R;
  R << ct, -st, st, ct;
  dG.setIdentity();
  dG(1, 0) = -st * tx - ct * ty;
  dG(2, 0) = ct * tx - st * ty;
  dV.setZero();
  dV(0, 0) = 1.0;
  dV.bottomRows<2>() = R * dt;
}

}  // namespace varsim
