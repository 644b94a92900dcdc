// engine/lie/se3.cpp — SE(3) maps of seed 000 eqs. (6), (9)-(14) with the ERRATA fixes (B_cay, exact
// dexp^{-1}), forward tangents, and the analytic Jacobian of C(xi)^T mu.
#include "engine/lie/se3.h"

#include "engine/lie/quaternion.h"
#include "engine/lie/so3.h"

namespace varsim::se3 {

using so3::coeff::A;
using so3::coeff::B;
using so3::coeff::dA;
using so3::coeff::dB;
using so3::coeff::ddK;
using so3::coeff::dK;
using so3::coeff::K;

Pose Pose::fromMatrix(const Matrix4d& G) { return Pose{G.topLeftCorner<3, 3>(), G.topRightCorner<3, 1>()}; }

Matrix4d Pose::matrix() const {
  Matrix4d G = Matrix4d::Identity();
  G.topLeftCorner<3, 3>() = R;
  G.topRightCorner<3, 1>() = x;
  return G;
}

Vector4d Pose::quaternion() const { return quat::fromRotation(R); }

Matrix4d hat(const Vector6d& xi) {
  Matrix4d X = Matrix4d::Zero();
  X.topLeftCorner<3, 3>() = so3::hat(xi.head<3>());
  X.topRightCorner<3, 1>() = xi.tail<3>();
  return X;
}

Vector6d vee(const Matrix4d& X) {
  Vector6d xi;
  xi << so3::vee(X.topLeftCorner<3, 3>()), X.topRightCorner<3, 1>();
  return xi;
}

Matrix3d Bexp(const Vector3d& w) { return so3::dexp(w); }  // seed 000 eq. (13)

Matrix3d Bcay(const Vector3d& w) {  // ERRATA: (I - w^/2)^{-1}
  const Matrix3d W = so3::hat(w);
  return Matrix3d::Identity() + (2.0 / (4.0 + w.squaredNorm())) * (W + 0.5 * W * W);
}

Pose exp(const Vector6d& xi) {
  const Vector3d w = xi.head<3>();
  return Pose{so3::exp(w), Bexp(w) * xi.tail<3>()};
}

Vector6d log(const Pose& g) {
  const Vector3d w = so3::log(g.R);
  Vector6d xi;
  xi << w, so3::dexpInv(w) * g.x;  // B_exp^{-1} = dexp^{-1}_SO3
  return xi;
}

Pose cay(const Vector6d& xi) {
  const Vector3d w = xi.head<3>();
  return Pose{so3::cay(w), Bcay(w) * xi.tail<3>()};
}

Vector6d cayInv(const Pose& g) {
  const Vector3d w = so3::cayInv(g.R);
  Vector6d xi;
  xi << w, g.x - 0.5 * w.cross(g.x);  // B_cay^{-1} = I - w^/2
  return xi;
}

Matrix6d ad(const Vector6d& xi) {
  Matrix6d M = Matrix6d::Zero();
  const Matrix3d W = so3::hat(xi.head<3>());
  M.topLeftCorner<3, 3>() = W;
  M.bottomRightCorner<3, 3>() = W;
  M.bottomLeftCorner<3, 3>() = so3::hat(xi.tail<3>());
  return M;
}

Matrix6d Ad(const Pose& g) {
  Matrix6d M = Matrix6d::Zero();
  M.topLeftCorner<3, 3>() = g.R;
  M.bottomRightCorner<3, 3>() = g.R;
  M.bottomLeftCorner<3, 3>() = so3::hat(g.x) * g.R;
  return M;
}

Matrix6d AdInv(const Pose& g) { return Ad(g.inverse()); }

Matrix6d AdInvStar(const Pose& g) {
  Matrix6d M = Matrix6d::Zero();
  M.topLeftCorner<3, 3>() = g.R;
  M.bottomRightCorner<3, 3>() = g.R;
  M.topRightCorner<3, 3>() = so3::hat(g.x) * g.R;
  return M;
}

Matrix6d adStarJacobian(const Vector6d& mu) {
  Matrix6d L = Matrix6d::Zero();
  const Matrix3d P = so3::hat(mu.tail<3>());
  L.topLeftCorner<3, 3>() = so3::hat(mu.head<3>());
  L.topRightCorner<3, 3>() = P;
  L.bottomLeftCorner<3, 3>() = P;
  return L;
}

Matrix6d Cexp(const Vector6d& xi) {  // ERRATA exact dexp^{-1}
  const double s = xi.head<3>().squaredNorm();
  const double k = K(s), dk = dK(s);
  const double c2 = k - s * dk, c4 = -dk;
  const Matrix6d M = ad(xi), M2 = M * M;
  return Matrix6d::Identity() - 0.5 * M + c2 * M2 + c4 * (M2 * M2);
}

Matrix6d CexpTrunc(const Vector6d& xi) {  // seed 000 eq. (14) as printed
  const Matrix6d M = ad(xi);
  return Matrix6d::Identity() - 0.5 * M + (1.0 / 12.0) * (M * M);
}

Matrix6d Ccay(const Vector6d& xi) {  // seed 000 eq. (14)
  const Vector3d w = xi.head<3>();
  const Matrix3d D = Matrix3d::Identity() - 0.5 * so3::hat(w);
  Matrix6d C = Matrix6d::Zero();
  C.topLeftCorner<3, 3>() = so3::dcayInv(w);
  C.bottomLeftCorner<3, 3>() = -0.5 * D * so3::hat(xi.tail<3>());
  C.bottomRightCorner<3, 3>() = D;
  return C;
}

Matrix6d Ctln(const Vector6d& xi) { return Matrix6d::Identity() - 0.5 * ad(xi); }

Matrix6d dexp(const Vector6d& xi) {
  // (e^x - 1)/x on the spectrum {0, +-i t (double)} of ad: odd part x*O(x^2), even part x^2*E(x^2),
  // with O(-s) = A(s), E(-s) = B(s); matching value and slope at x^2 = -s gives the coefficients.
  const double s = xi.head<3>().squaredNorm();
  const double a = A(s), da = dA(s), b = B(s), db = dB(s);
  const Matrix6d M = ad(xi), M2 = M * M, M3 = M2 * M;
  return Matrix6d::Identity() + (a - s * da) * M + (b - s * db) * M2 - da * M3 - db * (M2 * M2);
}

Matrix6d dcay(const Vector6d& xi) {
  const Vector3d w = xi.head<3>();
  const Matrix3d Ai = so3::dcay(w);
  Matrix6d M = Matrix6d::Zero();
  M.topLeftCorner<3, 3>() = Ai;
  M.bottomLeftCorner<3, 3>() = 0.5 * so3::hat(xi.tail<3>()) * Ai;
  M.bottomRightCorner<3, 3>() = Bcay(w);
  return M;
}

Pose retract(Retraction tau, const Vector6d& xi) { return tau == Retraction::Cay ? cay(xi) : exp(xi); }

Vector6d retractInv(Retraction tau, const Pose& g) { return tau == Retraction::Cay ? cayInv(g) : log(g); }

Matrix6d tangentInverse(Tangent c, const Vector6d& xi) {
  switch (c) {
    case Tangent::Cay: return Ccay(xi);
    case Tangent::Exp: return Cexp(xi);
    case Tangent::ExpTrunc: return CexpTrunc(xi);
    case Tangent::Tln: return Ctln(xi);
  }
  return Ctln(xi);
}

Matrix6d dCTmu(Tangent c, const Vector6d& xi, const Vector6d& mu) {
  const Matrix6d L = adStarJacobian(mu);
  switch (c) {
    case Tangent::Tln: return -0.5 * L;
    case Tangent::ExpTrunc: {
      const Matrix6d At = adStar(xi);
      return -0.5 * L + (1.0 / 12.0) * (At * L + adStarJacobian(At * mu));
    }
    case Tangent::Exp: {
      // C^T mu = mu - A mu/2 + c2 A^2 mu + c4 A^4 mu, A = ad_xi^T linear in xi with dA.delta mu = L(mu) delta;
      // d(A^n mu) = sum_{j<n} A^j L(A^{n-1-j} mu).  c2, c4 depend on s = |w|^2: ds/dxi = (2 w^T, 0).
      const double s = xi.head<3>().squaredNorm();
      const double k = K(s), dk = dK(s), ddk = ddK(s);
      const double c2 = k - s * dk, c4 = -dk, dc2 = -s * ddk, dc4 = -ddk;
      const Matrix6d At = adStar(xi);
      const Vector6d m1 = At * mu, m2 = At * m1, m3 = At * m2, m4 = At * m3;
      const Matrix6d L1 = adStarJacobian(m1), L2 = adStarJacobian(m2), L3 = adStarJacobian(m3);
      const Matrix6d At2 = At * At;
      Matrix6d J = -0.5 * L + c2 * (At * L + L1) + c4 * (At2 * At * L + At2 * L1 + At * L2 + L3);
      Vector6d ds = Vector6d::Zero();
      ds.head<3>() = 2.0 * xi.head<3>();
      J += (dc2 * m2 + dc4 * m4) * ds.transpose();
      return J;
    }
    case Tangent::Cay: {
      const Vector3d w = xi.head<3>(), v = xi.tail<3>(), m = mu.head<3>(), p = mu.tail<3>();
      const Matrix3d P = so3::hat(p);
      Matrix6d J = Matrix6d::Zero();
      J.topLeftCorner<3, 3>() = -0.5 * so3::hat(m) + 0.25 * (w * m.transpose() + w.dot(m) * Matrix3d::Identity()) -
                                0.25 * so3::hat(v) * P;
      J.topRightCorner<3, 3>() = -0.5 * P - 0.25 * so3::hat(w.cross(p));
      J.bottomLeftCorner<3, 3>() = -0.5 * P;
      return J;
    }
  }
  return -0.5 * L;
}

}  // namespace varsim::se3
