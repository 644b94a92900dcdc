// engine/lie/se3.h — the rigid-motion group SE(3): poses, hat/vee, exp/log, Cayley map (ERRATA-corrected
// translation block), ad/Ad and their transposes, and the C_tau maps of seed 000 eq. (14) together with
// the Jacobian of C(xi)^T mu that the LGVI Newton solver needs. Conventions (xi = (w, v)): lie_types.h.
#pragma once

#include "engine/lie/lie_types.h"

namespace varsim::se3 {

using varsim::Retraction;
using varsim::Tangent;

// g = (R, x) as the 4x4 matrix [[R, x], [0, 1]]; p_world = R p_body + x.
struct Pose {
  Matrix3d R = Matrix3d::Identity();  // body->world rotation (orthonormal, det +1)
  Vector3d x = Vector3d::Zero();      // body origin in world [m]

  static Pose identity() { return Pose{}; }
  static Pose fromMatrix(const Matrix4d& G);
  Pose operator*(const Pose& o) const { return Pose{R * o.R, R * o.x + x}; }
  Pose inverse() const { return Pose{R.transpose(), -(R.transpose() * x)}; }
  Vector3d act(const Vector3d& p) const { return R * p + x; }
  Matrix4d matrix() const;
  // Hamilton unit quaternion (w, x, y, z) of R with w >= 0 (see quaternion.h).
  Vector4d quaternion() const;
};

Matrix4d hat(const Vector6d& xi);  // seed 000 eq. (6): [[w^, v], [0, 0]]
Vector6d vee(const Matrix4d& X);

// tau maps of seed 000 eq. (9): tau(xi) = (tau_SO3(w), B_tau(w) v).
Pose exp(const Vector6d& xi);
Vector6d log(const Pose& g);  // |w| in [0, pi]
// Cayley map (I - xi^/2)^{-1}(I + xi^/2) with the CORRECT B_cay (ERRATA; the printed eq. (13) is wrong).
Pose cay(const Vector6d& xi);
Vector6d cayInv(const Pose& g);  // singular for rotations by pi
// seed 000 eq. (13): B_exp(w) = I + (1-cos t)/t^2 w^ + (t - sin t)/t^3 w^2 (= so3::dexp(w)).
Matrix3d Bexp(const Vector3d& w);
// ERRATA: B_cay(w) = (I - w^/2)^{-1} = I + 2/(4+|w|^2)(w^ + w^2/2)  (printed: 2/(4+|w|^2)(2I + w^)).
Matrix3d Bcay(const Vector3d& w);

Matrix6d ad(const Vector6d& xi);  // [[w^, 0], [v^, w^]]
Matrix6d Ad(const Pose& g);       // [[R, 0], [x^ R, R]]
Matrix6d AdInv(const Pose& g);    // Ad_{g^{-1}} = [[R^T, 0], [-R^T x^, R^T]]
// Transposes used with momenta (row/col order (angular, linear)):
inline Matrix6d adStar(const Vector6d& xi) { return ad(xi).transpose(); }  // ad_xi^T
inline Matrix6d AdStar(const Pose& g) { return Ad(g).transpose(); }       // Ad_g^T
// Ad_{g^{-1}}^T = [[R, x^ R], [0, R]] maps a BODY momentum to the SPATIAL one (ERRATA, seed 002 eq. (65)).
Matrix6d AdInvStar(const Pose& g);
inline Vector6d spatialMomentum(const Pose& g, const Vector6d& mu_body) { return AdInvStar(g) * mu_body; }
// Lambda(mu) with ad_xi^T mu = Lambda(mu) xi, i.e. d(ad_xi^T mu)/dxi = [[m^, p^], [p^, 0]], mu = (m, p).
Matrix6d adStarJacobian(const Vector6d& mu);

// Right-trivialized tangents and their inverses (lie_types.h). The C maps of seed 000 eq. (14):
// Exact dexp^{-1}_xi = I - ad/2 + c2 ad^2 + c4 ad^4 (ERRATA closed form; c2 = K - s K', c4 = -K',
// s = |w|^2, K from so3::coeff; Taylor series below |w| = 1.5). Singular at |w| = 2 pi.
Matrix6d Cexp(const Vector6d& xi);
Matrix6d CexpTrunc(const Vector6d& xi);  // I - ad/2 + ad^2/12 (as printed in eq. (14); O(|xi|^4) error)
// dcay^{-1} = [[I - w^/2 + w w^T/4, 0], [-1/2 (I - w^/2) v^, I - w^/2]] (eq. (14), correct as printed).
Matrix6d Ccay(const Vector6d& xi);
Matrix6d Ctln(const Vector6d& xi);  // I - ad/2 (trapezoidal Lie-Newmark)
inline Matrix6d dexpInv(const Vector6d& xi) { return Cexp(xi); }
inline Matrix6d dcayInv(const Vector6d& xi) { return Ccay(xi); }
// Forward tangents: dexp = I + a1 ad + a2 ad^2 + a3 ad^3 + a4 ad^4 (= sum ad^k/(k+1)!),
// dcay = [[4/(4+|w|^2)(I + w^/2), 0], [1/2 v^ dcay_SO3(w), (I - w^/2)^{-1}]].
Matrix6d dexp(const Vector6d& xi);
Matrix6d dcay(const Vector6d& xi);

// Dispatch.
Pose retract(Retraction tau, const Vector6d& xi);
Vector6d retractInv(Retraction tau, const Pose& g);
Matrix6d tangentInverse(Tangent c, const Vector6d& xi);  // C_c(xi)

// d/dxi [C(xi)^T mu] for fixed mu (6x6), ANALYTIC for every Tangent choice:
//   Tln:      -1/2 Lambda(mu)
//   ExpTrunc: -1/2 Lambda(mu) + 1/12 (A Lambda(mu) + Lambda(A mu)),  A = ad_xi^T
//   Exp:      product rule on sum c_j A^j mu plus (dc2/ds A^2 mu + dc4/ds A^4 mu)(2 w^T, 0)
//   Cay:      closed form of the derivative of the block matrix above.
// The LGVI residual C(h xi)^T II xi has Jacobian  h * dCTmu(c, h xi, II xi) + C(h xi)^T II.
Matrix6d dCTmu(Tangent c, const Vector6d& xi, const Vector6d& mu);

}  // namespace varsim::se3
