// engine/lie/se2.h — the planar rigid-motion group SE(2) (seed 000 Appendix B with the ERRATA Cayley map):
// poses, hat/vee, exp/log, cay/cayInv, ad/Ad, right-trivialized tangents and the C maps (eqs. (21)-(22)),
// and the Jacobian of C(v)^T mu. Twists are v = (omega, vx, vy) (reference/README.md "Planar").
#pragma once

#include "engine/lie/lie_types.h"

namespace varsim::se2 {

using varsim::Retraction;
using varsim::Tangent;

// g = [[cos t, -sin t, x], [sin t, cos t, y], [0, 0, 1]] (seed 000 eq. (20)); p_world = R(t) p_body + (x, y).
struct Pose2 {
  double theta = 0.0;  // heading [rad], counter-clockwise from world x; NOT wrapped by operator*
  double x = 0.0;      // [m]
  double y = 0.0;      // [m]

  static Pose2 identity() { return Pose2{}; }
  static Pose2 fromMatrix(const Matrix3d& G);  // theta in (-pi, pi]
  Pose2 operator*(const Pose2& o) const;
  Pose2 inverse() const;
  Eigen::Vector2d act(const Eigen::Vector2d& p) const;
  Eigen::Matrix2d rotation() const;
  Matrix3d matrix() const;
};

Matrix3d hat(const Vector3d& v);  // [[0, -w, vx], [w, 0, vy], [0, 0, 0]] (Appendix B, v = (w, vx, vy))
Vector3d vee(const Matrix3d& X);

// exp: theta += w, translation [[S, -C], [C, S]] (vx, vy), S = sin w / w, C = (1 - cos w)/w (Appendix B).
Pose2 exp(const Vector3d& v);
Vector3d log(const Pose2& g);  // angle wrapped to (-pi, pi]
// ERRATA-corrected Cayley map: 1/(4+a^2) [[4-a^2, -4a, 4b-2ac], [4a, 4-a^2, 2ab+4c], [0, 0, 4+a^2]],
// v = (a, b, c); equals (I - v^/2)^{-1}(I + v^/2). The heading advances by 2 atan(a/2).
Pose2 cay(const Vector3d& v);
Vector3d cayInv(const Pose2& g);  // singular for a heading change of pi

Matrix3d ad(const Vector3d& v);   // [[0, 0, 0], [vy, 0, -w], [-vx, w, 0]] (Appendix B)
Matrix3d Ad(const Pose2& g);      // [[1, 0, 0], [y, c, -s], [-x, s, c]]
Matrix3d AdInv(const Pose2& g);   // Ad_{g^{-1}}
inline Matrix3d adStar(const Vector3d& v) { return ad(v).transpose(); }
inline Matrix3d AdStar(const Pose2& g) { return Ad(g).transpose(); }
inline Matrix3d AdInvStar(const Pose2& g) { return AdInv(g).transpose(); }  // body -> spatial momentum
// Lambda(mu) with ad_v^T mu = Lambda(mu) v: [[0, -py, px], [py, 0, 0], [-px, 0, 0]], mu = (m, px, py).
Matrix3d adStarJacobian(const Vector3d& mu);

// Right-trivialized tangents (lie_types.h). ad has minimal polynomial x(x^2 + w^2), so exactly:
// dexp = I + A ad + B ad^2, dexp^{-1} = I - ad/2 + K ad^2 (A, B, K from so3::coeff at s = w^2).
Matrix3d dexp(const Vector3d& v);
Matrix3d Cexp(const Vector3d& v);       // exact dexp^{-1}
Matrix3d CexpTrunc(const Vector3d& v);  // I - ad/2 + ad^2/12, eq. (21) as printed
Matrix3d Ccay(const Vector3d& v);       // dcay^{-1} = I - ad/2 + 1/4 [w v, 0, 0], eq. (22)
Matrix3d Ctln(const Vector3d& v);       // I - ad/2
Matrix3d dcay(const Vector3d& v);       // inverse of Ccay
inline Matrix3d dexpInv(const Vector3d& v) { return Cexp(v); }
inline Matrix3d dcayInv(const Vector3d& v) { return Ccay(v); }

Pose2 retract(Retraction tau, const Vector3d& v);
Vector3d retractInv(Retraction tau, const Pose2& g);
Matrix3d tangentInverse(Tangent c, const Vector3d& v);
// d/dv [C(v)^T mu] for fixed mu, analytic for every Tangent (see se3::dCTmu for the use in Newton).
Matrix3d dCTmu(Tangent c, const Vector3d& v, const Vector3d& mu);

}  // namespace varsim::se2
