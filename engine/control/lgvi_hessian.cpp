// engine/control/lgvi_hessian.cpp — second derivatives of the LGVI rows (lgvi_hessian.h): the rotation maps as
// I + alpha(s) w^ + beta(s) w^2 differentiated twice, C(w)^T J w per tangent, and the eq. (9) rotation row written as
// lam^T vee((E - E^T)/2) = -tr(lam^ E)/2, a trace of a product of three chart/retraction factors.
#include "engine/control/lgvi_hessian.h"

#include <cmath>

#include "engine/lie/so3.h"

namespace varsim {
namespace {

// f(s), f'(s), f''(s) of a rotation coefficient.
struct Coeff {
  double f = 0.0, d = 0.0, dd = 0.0;
};

// sum_n (-s)^n / (2n + 1 + shift)!, and its first two s-derivatives (shift 0: sin t/t, shift 1: (1 - cos t)/t^2);
// converges to round-off in 14 terms for s < 1.
Coeff expSeries(double s, int shift) {
  Coeff c;
  double fact = 1.0;  // (2n + 1 + shift)!
  for (int k = 2; k <= 1 + shift; ++k) fact *= k;
  for (int n = 0; n < 14; ++n) {
    if (n > 0) fact *= double(2 * n + shift) * double(2 * n + 1 + shift);
    const double sign = n % 2 ? -1.0 : 1.0, a = sign / fact;
    c.f += a * std::pow(s, n);
    if (n >= 1) c.d += a * n * std::pow(s, n - 1);
    if (n >= 2) c.dd += a * n * (n - 1) * std::pow(s, n - 2);
  }
  return c;
}

void coefficients(Retraction tau, double s, Coeff& alpha, Coeff& beta) {
  if (tau == Retraction::Cay) {
    const double q = 1.0 / (4.0 + s);
    alpha = {4.0 * q, -4.0 * q * q, 8.0 * q * q * q};
    beta = {2.0 * q, -2.0 * q * q, 4.0 * q * q * q};
    return;
  }
  if (s < 1.0) {
    alpha = expSeries(s, 0);
    beta = expSeries(s, 1);
    return;
  }
  const double r = std::sqrt(s), sn = std::sin(r), cs = std::cos(r);
  alpha = {sn / r, (r * cs - sn) / (2.0 * r * s), (-s * sn - 3.0 * r * cs + 3.0 * sn) / (4.0 * s * s * r)};
  beta = {(1.0 - cs) / s, (r * sn - 2.0 + 2.0 * cs) / (2.0 * s * s),
          (s * cs - 5.0 * r * sn + 8.0 - 8.0 * cs) / (4.0 * s * s * s)};
}

// <P, Q> = tr(P^T Q)
double inner(const Matrix3d& P, const Matrix3d& Q) { return P.cwiseProduct(Q).sum(); }

}  // namespace

RotationJet rotationJet(Retraction tau, const Vector3d& w) {
  Coeff a, b;
  coefficients(tau, w.squaredNorm(), a, b);
  const Matrix3d W = so3::hat(w), W2 = W * W;
  std::array<Matrix3d, 3> E, S;  // e_i^, and e_i^ W + W e_i^
  for (int i = 0; i < 3; ++i) {
    E[size_t(i)] = so3::hat(Vector3d::Unit(i));
    S[size_t(i)] = E[size_t(i)] * W + W * E[size_t(i)];
  }
  RotationJet j;
  j.R = Matrix3d::Identity() + a.f * W + b.f * W2;
  const Matrix3d D1 = a.d * W + b.d * W2, D2 = a.dd * W + b.dd * W2;
  for (int i = 0; i < 3; ++i) j.d[size_t(i)] = 2.0 * w[i] * D1 + a.f * E[size_t(i)] + b.f * S[size_t(i)];
  for (int i = 0; i < 3; ++i)
    for (int k = i; k < 3; ++k) {
      const Matrix3d H = (i == k ? 2.0 : 0.0) * D1 + 4.0 * w[i] * w[k] * D2 +
                         2.0 * w[i] * (a.d * E[size_t(k)] + b.d * S[size_t(k)]) +
                         2.0 * w[k] * (a.d * E[size_t(i)] + b.d * S[size_t(i)]) +
                         b.f * (E[size_t(i)] * E[size_t(k)] + E[size_t(k)] * E[size_t(i)]);
      j.dd[size_t(3 * i + k)] = j.dd[size_t(3 * k + i)] = H;
    }
  return j;
}

Matrix3d so3CTJwHessian(Tangent c, double a, const Matrix3d& J, const Vector3d& w, const Vector3d& lam) {
  // lam^T (m + (a/2) w x m + kappa), m = J w: lam . (w x J w) = -w^T lam^ J w.
  const Matrix3d L = so3::hat(lam);
  Matrix3d H = 0.5 * a * (J * L - L * J);
  if (c == Tangent::Tln) return H;
  const Vector3d Jw = J * w, Jl = J * lam;
  const double lw = lam.dot(w), wJw = w.dot(Jw), lJw = lam.dot(Jw), s = w.squaredNorm();
  // (lam . w)(w^T J w): Cay's kappa = (a^2/4) (w . J w) w.
  const Matrix3d H1 = 2.0 * lw * J + 2.0 * Jw * lam.transpose() + 2.0 * lam * Jw.transpose();
  if (c == Tangent::Cay) return H + 0.25 * a * a * H1;
  // phi = (lam . w)(w^T J w) - (lam^T J w) s: lam^T w x (w x J w).
  const Matrix3d Hphi = H1 - 2.0 * (Jl * w.transpose() + w * Jl.transpose()) - 2.0 * lJw * Matrix3d::Identity();
  if (c == Tangent::ExpTrunc) return H + (a * a / 12.0) * Hphi;
  // Exp: a^2 K(a^2 s) phi, d(a^2 s)/dw = 2 a^2 w.
  const double sig = a * a * s, phi = lw * wJw - lJw * s;
  const Vector3d gphi = wJw * lam + 2.0 * lw * Jw - s * Jl - 2.0 * lJw * w, gsig = 2.0 * a * a * w;
  const Matrix3d HK = so3::coeff::K(sig) * Hphi +
                      so3::coeff::dK(sig) * (gsig * gphi.transpose() + gphi * gsig.transpose() +
                                             2.0 * a * a * phi * Matrix3d::Identity()) +
                      so3::coeff::ddK(sig) * phi * gsig * gsig.transpose();
  return H + a * a * HK;
}

Matrix6d lgviMomentumHessian(const RigidBodyInertia& inertia, const LgviOptions& o, double h, const Vector6d& xi,
                             const Vector6d& lam) {
  Matrix6d H = Matrix6d::Zero();
  H.topLeftCorner<3, 3>() = so3CTJwHessian(o.tangent, h, inertia.J, xi.head<3>(), lam.head<3>());
  return H;
}

Matrix6d lgviNextMomentumHessian(const RigidBodyInertia& inertia, const LgviOptions& o, double h, const Vector6d& xi,
                                 const Vector6d& lam) {
  // (C(-h w)^T J w, tau(h w)^T m v): the linear rows are bilinear in (tau(h w), v).
  const Vector3d v = xi.tail<3>(), ll = lam.tail<3>();
  const RotationJet T = rotationJet(o.retraction, h * xi.head<3>());
  Matrix6d H = Matrix6d::Zero();
  H.topLeftCorner<3, 3>() = so3CTJwHessian(o.tangent, -h, inertia.J, xi.head<3>(), lam.head<3>());
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) H(i, j) += h * h * inertia.mass * v.dot(T.second(i, j) * ll);
    const Vector3d c = h * inertia.mass * T.d[size_t(i)] * ll;  // d/dw_i d/dv of m v^T tau(h w) lam_l
    H.block<1, 3>(i, 3) = c.transpose();
    H.block<3, 1>(3, i) = c;
  }
  return H;
}

Matrix12d lgviPoseRowsHessian(const LgviOptions& o, double h, const Matrix3d& Rk0, const Vector3d& thk,
                              const Vector6d& xi, const Matrix3d& R10, const Vector3d& th1, const Vector6d& lam) {
  // Rotation rows: lam^T vee((E - E^T)/2) = tr(Lam E), Lam = -lam^/2, E = T^T B^T M C with T = tau(h w),
  // B = exp(thk), C = exp(th1), M = Rk0^T R10. Translation rows: -h lam_t^T Rk0 B v (+ terms linear in x).
  const RotationJet T = rotationJet(o.retraction, h * xi.head<3>());
  const RotationJet B = rotationJet(Retraction::Exp, thk), C = rotationJet(Retraction::Exp, th1);
  const Matrix3d M = Rk0.transpose() * R10, Lam = -0.5 * so3::hat(lam.head<3>());
  const Vector3d lt = Rk0.transpose() * lam.tail<3>(), v = xi.tail<3>();
  const Matrix3d MCL = M * C.R * Lam;
  const Matrix3d GB = MCL * T.R.transpose();                                      // <B_ij, GB>
  const Matrix3d GT = B.R.transpose() * MCL;                                      // <T_ij, GT>
  const Matrix3d GC = (Lam * T.R.transpose() * B.R.transpose() * M).transpose();  // <C_ij, GC>
  Matrix12d H = Matrix12d::Zero();  // z = (thk 0-2, w 3-5, v 6-8, th1 9-11)
  for (int i = 0; i < 3; ++i) {
    const size_t si = size_t(i);
    for (int j = 0; j < 3; ++j) {
      const size_t sj = size_t(j);
      H(i, j) = inner(B.second(i, j), GB) - h * lt.dot(B.second(i, j) * v);
      H(3 + i, 3 + j) = h * h * inner(T.second(i, j), GT);
      H(9 + i, 9 + j) = inner(C.second(i, j), GC);
      H(i, 3 + j) = H(3 + j, i) = h * inner(B.d[si] * T.d[sj], MCL);
      const Matrix3d MCjL = M * C.d[sj] * Lam;
      H(i, 9 + j) = H(9 + j, i) = inner(B.d[si] * T.R, MCjL);
      H(3 + i, 9 + j) = H(9 + j, 3 + i) = h * inner(B.R * T.d[si], MCjL);
    }
    const Vector3d tv = -h * (B.d[si].transpose() * lt);  // d/dthk_i d/dv of -h lt^T B v
    H.block<1, 3>(i, 6) = tv.transpose();
    H.block<3, 1>(6, i) = tv;
  }
  return H;
}

Matrix3d chartBilinearHessian(const Vector3d& a, const Matrix3d& Rbar, const RotationJet& chart, const Vector3d& b) {
  const Vector3d ra = Rbar.transpose() * a;
  Matrix3d H;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) H(i, j) = ra.dot(chart.second(i, j) * b);
  return H;
}

}  // namespace varsim
