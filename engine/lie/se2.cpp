// engine/lie/se2.cpp — SE(2) maps of seed 000 Appendix B (ERRATA-corrected Cayley map), exact
// dexp^{-1}, dcay^{-1} (eq. (22)) and the analytic Jacobian of C(v)^T mu.
#include "engine/lie/se2.h"

#include <cmath>

#include "engine/lie/so3.h"

namespace varsim::se2 {

namespace c = so3::coeff;
using Eigen::Matrix2d;
using Eigen::Vector2d;

namespace {
const Matrix2d kJ = (Matrix2d() << 0.0, -1.0, 1.0, 0.0).finished();  // rotation by +pi/2
}

Pose2 Pose2::fromMatrix(const Matrix3d& G) { return Pose2{std::atan2(G(1, 0), G(0, 0)), G(0, 2), G(1, 2)}; }

Pose2 Pose2::operator*(const Pose2& o) const {
  const Vector2d p = rotation() * Vector2d(o.x, o.y);
  return Pose2{theta + o.theta, x + p.x(), y + p.y()};
}

Pose2 Pose2::inverse() const {
  const Vector2d p = -(rotation().transpose() * Vector2d(x, y));
  return Pose2{-theta, p.x(), p.y()};
}

Vector2d Pose2::act(const Vector2d& p) const { return rotation() * p + Vector2d(x, y); }

Matrix2d Pose2::rotation() const {
  const double cs = std::cos(theta), sn = std::sin(theta);
  return (Matrix2d() << cs, -sn, sn, cs).finished();
}

Matrix3d Pose2::matrix() const {
  Matrix3d G = Matrix3d::Identity();
  G.topLeftCorner<2, 2>() = rotation();
  G(0, 2) = x;
  G(1, 2) = y;
  return G;
}

Matrix3d hat(const Vector3d& v) {
  Matrix3d X;
  X << 0.0, -v[0], v[1],  //
      v[0], 0.0, v[2],    //
      0.0, 0.0, 0.0;
  return X;
}

Vector3d vee(const Matrix3d& X) { return Vector3d(0.5 * (X(1, 0) - X(0, 1)), X(0, 2), X(1, 2)); }

Pose2 exp(const Vector3d& v) {
  const double w = v[0], s = w * w;
  const double S = c::sinc(s), C = w * c::A(s);
  return Pose2{w, S * v[1] - C * v[2], C * v[1] + S * v[2]};
}

Vector3d log(const Pose2& g) {
  const double w = std::atan2(std::sin(g.theta), std::cos(g.theta));
  // V^{-1} = (w/2)cot(w/2) I - (w/2) J = (1 - w^2 K) I - (w/2) J
  const Vector2d t = (1.0 - w * w * c::K(w * w)) * Vector2d(g.x, g.y) - 0.5 * w * (kJ * Vector2d(g.x, g.y));
  return Vector3d(w, t.x(), t.y());
}

Pose2 cay(const Vector3d& v) {  // ERRATA form
  const double a = v[0], b = v[1], cc = v[2], d = 1.0 / (4.0 + a * a);
  return Pose2{2.0 * std::atan(0.5 * a), (4.0 * b - 2.0 * a * cc) * d, (2.0 * a * b + 4.0 * cc) * d};
}

Vector3d cayInv(const Pose2& g) {
  const double a = 2.0 * std::sin(g.theta) / (1.0 + std::cos(g.theta));  // 2 tan(theta/2)
  return Vector3d(a, g.x + 0.5 * a * g.y, g.y - 0.5 * a * g.x);          // (I - a J/2)(x, y)
}

Matrix3d ad(const Vector3d& v) {
  Matrix3d M;
  M << 0.0, 0.0, 0.0,   //
      v[2], 0.0, -v[0],  //
      -v[1], v[0], 0.0;
  return M;
}

Matrix3d Ad(const Pose2& g) {
  const double cs = std::cos(g.theta), sn = std::sin(g.theta);
  Matrix3d M;
  M << 1.0, 0.0, 0.0,  //
      g.y, cs, -sn,    //
      -g.x, sn, cs;
  return M;
}

Matrix3d AdInv(const Pose2& g) { return Ad(g.inverse()); }

Matrix3d adStarJacobian(const Vector3d& mu) {
  Matrix3d L;
  L << 0.0, -mu[2], mu[1],  //
      mu[2], 0.0, 0.0,      //
      -mu[1], 0.0, 0.0;
  return L;
}

Matrix3d dexp(const Vector3d& v) {
  const double s = v[0] * v[0];
  const Matrix3d M = ad(v);
  return Matrix3d::Identity() + c::A(s) * M + c::B(s) * (M * M);
}

Matrix3d Cexp(const Vector3d& v) {
  const Matrix3d M = ad(v);
  return Matrix3d::Identity() - 0.5 * M + c::K(v[0] * v[0]) * (M * M);
}

Matrix3d CexpTrunc(const Vector3d& v) {
  const Matrix3d M = ad(v);
  return Matrix3d::Identity() - 0.5 * M + (1.0 / 12.0) * (M * M);
}

Matrix3d Ccay(const Vector3d& v) {
  Matrix3d C = Matrix3d::Identity() - 0.5 * ad(v);
  C.col(0) += 0.25 * v[0] * v;
  return C;
}

Matrix3d Ctln(const Vector3d& v) { return Matrix3d::Identity() - 0.5 * ad(v); }

Matrix3d dcay(const Vector3d& v) {
  // Ccay = [[alpha, 0], [cvec, D]] with D = I - (w/2) J, alpha = 1 + w^2/4; invert blockwise.
  const double w = v[0], alpha = 1.0 + 0.25 * w * w;
  const Matrix2d Dinv = (Matrix2d::Identity() + 0.5 * w * kJ) / alpha;
  const Vector2d cvec(-0.5 * v[2] + 0.25 * w * v[1], 0.5 * v[1] + 0.25 * w * v[2]);
  Matrix3d M = Matrix3d::Zero();
  M(0, 0) = 1.0 / alpha;
  M.block<2, 1>(1, 0) = -(Dinv * cvec) / alpha;
  M.block<2, 2>(1, 1) = Dinv;
  return M;
}

Pose2 retract(Retraction tau, const Vector3d& v) { return tau == Retraction::Cay ? cay(v) : exp(v); }

Vector3d retractInv(Retraction tau, const Pose2& g) { return tau == Retraction::Cay ? cayInv(g) : log(g); }

Matrix3d tangentInverse(Tangent t, const Vector3d& v) {
  switch (t) {
    case Tangent::Cay: return Ccay(v);
    case Tangent::Exp: return Cexp(v);
    case Tangent::ExpTrunc: return CexpTrunc(v);
    case Tangent::Tln: return Ctln(v);
  }
  return Ctln(v);
}

Matrix3d dCTmu(Tangent t, const Vector3d& v, const Vector3d& mu) {
  const Matrix3d L = adStarJacobian(mu);
  switch (t) {
    case Tangent::Tln: return -0.5 * L;
    case Tangent::ExpTrunc: {
      const Matrix3d At = adStar(v);
      return -0.5 * L + (1.0 / 12.0) * (At * L + adStarJacobian(At * mu));
    }
    case Tangent::Exp: {  // C^T mu = mu - A mu/2 + K(w^2) A^2 mu, A = ad_v^T
      const Matrix3d At = adStar(v);
      const Vector3d m1 = At * mu;
      Matrix3d J = -0.5 * L + c::K(v[0] * v[0]) * (At * L + adStarJacobian(m1));
      J.col(0) += 2.0 * v[0] * c::dK(v[0] * v[0]) * (At * m1);
      return J;
    }
    case Tangent::Cay: {  // C^T mu = mu - A mu/2 + (w/4)(v.mu) e1
      Matrix3d J = -0.5 * L;
      J(0, 0) += 0.25 * v.dot(mu);
      J.row(0) += 0.25 * v[0] * mu.transpose();
      return J;
    }
  }
  return -0.5 * L;
}

}  // namespace varsim::se2
