// engine/integrators/rigid_step_bounds.cpp — seed 002 eqs. (15)-(20) and the Fig. 2 trial.
#include "engine/integrators/rigid_step_bounds.h"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <cmath>

#include "engine/lie/so3.h"

namespace varsim::stepbounds {

double conditionNumber(const Matrix3d& J) {
  const Vector3d s = Eigen::SelfAdjointEigenSolver<Matrix3d>(J, Eigen::EigenvaluesOnly).eigenvalues();
  return s.maxCoeff() / s.minCoeff();
}

double tlnBound(double kappa, double omegaNorm) {
  if (kappa <= 1.0 || omegaNorm == 0.0) return kInfinity;
  return 4.0 / ((kappa - 1.0) * omegaNorm);
}

double cayleyUnrestrictedKappa() { return 4.0 * std::sqrt(7.0) - 7.0; }

double cayleyBound(double kappa, double omegaNorm) {
  if (kappa <= cayleyUnrestrictedKappa() || omegaNorm == 0.0) return kInfinity;
  // (kappa-1)^2 - D = 8 (8 - 2 kappa): multiplying (20) by its conjugate removes the 0/0 at kappa = 4.
  const double D = kappa * kappa + 14.0 * kappa - 63.0;
  return 8.0 / ((kappa - 1.0 + std::sqrt(std::max(D, 0.0))) * omegaNorm);
}

double bound(Scheme s, double kappa, double omegaNorm) {
  return s == Scheme::Tln ? tlnBound(kappa, omegaNorm) : cayleyBound(kappa, omegaNorm);
}

Vector3d residualOperator(Scheme s, const Matrix3d& J, const Vector3d& w, double h) {
  const Vector3d Jw = J * w;
  Vector3d e = Jw + 0.5 * h * w.cross(Jw);
  if (s == Scheme::Cayley) e += 0.25 * h * h * w.dot(Jw) * w;
  return e;
}

Vector3d previousMomentum(Scheme s, const Matrix3d& J, const Vector3d& wk, double h) {
  // A(-h w)^T = I - h/2 w^ ; [dcay^-1_{-h w}]^T = I - h/2 w^ + h^2/4 w w^T  (seed 002 eqs. (12), (14)).
  return residualOperator(s, J, wk, -h);
}

Matrix3d jacobian(Scheme s, const Matrix3d& J, const Vector3d& w, double h) {
  const Vector3d Jw = J * w;
  Matrix3d De = J - 0.5 * h * so3::hat(Jw) + 0.5 * h * so3::hat(w) * J;
  if (s == Scheme::Cayley) De += 0.25 * h * h * w.dot(Jw) * Matrix3d::Identity() + 0.5 * h * h * w * Jw.transpose();
  return De;
}

bool newtonConverges(Scheme s, const Matrix3d& J, const Vector3d& wk, double h) {
  const Vector3d rhs = previousMomentum(s, J, wk, h);
  const double tol = 1e-12 * std::max(rhs.norm(), 1e-300);
  Vector3d w = wk;
  for (int it = 0; it < 50; ++it) {
    const Vector3d e = residualOperator(s, J, w, h) - rhs;
    if (!e.allFinite()) return false;
    if (e.norm() <= tol) return true;
    const Eigen::PartialPivLU<Matrix3d> lu(jacobian(s, J, w, h));
    if (!(std::abs(lu.determinant()) > 1e-14 * std::pow(J.norm(), 3))) return false;
    w -= lu.solve(e);
  }
  return false;
}

namespace {

// First x = h |w| in (x0, hMax] with det De(w) <= 0 (De is positive definite at h = 0), bisected.
double firstSingular(Scheme s, const Matrix3d& J, const Vector3d& u, double hMax) {
  auto det = [&](double x) { return jacobian(s, J, u, x).determinant(); };
  double lo = 0.0;
  for (double x = 1e-3; x <= hMax; x *= 1.02) {
    if (det(x) > 0.0) {
      lo = x;
      continue;
    }
    double hi = x;
    while (hi - lo > 1e-10 * hi) {
      const double mid = 0.5 * (lo + hi);
      (det(mid) > 0.0 ? lo : hi) = mid;
    }
    return hi;
  }
  return kInfinity;
}

double firstNewtonFailure(Scheme s, const Matrix3d& J, const Vector3d& u, double hMax) {
  for (double x = 1e-3; x <= hMax; x *= 1.05)
    if (!newtonConverges(s, J, u, x)) return x;
  return kInfinity;
}

}  // namespace

BoundTrial boundTrial(const Matrix3d& J, const Vector3d& w, double hMax, bool newton) {
  BoundTrial t;
  t.kappa = conditionNumber(J);
  const Vector3d u = w.normalized();  // De(w; h) depends on h w only
  for (int i = 0; i < 2; ++i) {
    const Scheme s = i == 0 ? Scheme::Tln : Scheme::Cayley;
    t.bound[i] = bound(s, t.kappa, 1.0);
    t.singular[i] = firstSingular(s, J, u, hMax);
    if (newton) t.newtonFail[i] = firstNewtonFailure(s, J, u, hMax);
  }
  return t;
}

namespace {

double uniform01(std::uint64_t& state) {  // splitmix64 -> [0, 1)
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return double((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

Vector3d unitVector(std::uint64_t& state) {
  const double z = 2.0 * uniform01(state) - 1.0, phi = 2.0 * M_PI * uniform01(state), r = std::sqrt(1.0 - z * z);
  return Vector3d(r * std::cos(phi), r * std::sin(phi), z);
}

}  // namespace

void sampleTrial(std::uint64_t& state, double kappaMax, Matrix3d& J, Vector3d& w) {
  const double kappa = 1.0 + (kappaMax - 1.0) * uniform01(state);
  const double mid = 1.0 + (kappa - 1.0) * uniform01(state);
  // Uniform rotation: a unit quaternion from four normal-ish components (Shoemake's subgroup algorithm).
  const double u1 = uniform01(state), u2 = 2.0 * M_PI * uniform01(state), u3 = 2.0 * M_PI * uniform01(state);
  const Eigen::Quaterniond q(std::sqrt(u1) * std::cos(u3), std::sqrt(1 - u1) * std::sin(u2),
                             std::sqrt(1 - u1) * std::cos(u2), std::sqrt(u1) * std::sin(u3));
  const Matrix3d R = q.normalized().toRotationMatrix();
  J = R * Vector3d(1.0, mid, kappa).asDiagonal() * R.transpose();
  J = 0.5 * (J + J.transpose()).eval();
  w = unitVector(state);
}

}  // namespace varsim::stepbounds
