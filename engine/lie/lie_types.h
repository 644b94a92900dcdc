// engine/lie/lie_types.h — common types and THE conventions of the Lie group library
// (so3, se3, se2, quaternion). Every other engine file relies on these conventions; never mix.
#pragma once

// Conventions (seed 000 eqs. (6), (9)-(14); ERRATA "Convention used throughout"):
//  * Twists are xi = (omega, v): angular FIRST, then linear (seed 000 eq. (6); Table 1's (v, omega) is a
//    slip). Momenta/wrenches mu = (angular, linear). Planar twists are (omega, vx, vy).
//  * Velocities are body (left-trivialized): g_dot = g * hat(xi); the discrete update is
//    g_{k+1} = g_k * tau(h xi_k) (seed 000 eq. (3), (9)).
//  * hat(a) b = a x b, i.e. hat(w) = [[0,-w3,w2],[w3,0,-w1],[-w2,w1,0]].
//  * ad_xi = [[w^, 0], [v^, w^]]  (6x6, xi = (w, v)),   ad_xi eta = [xi, eta] (matrix commutator).
//  * Ad_g  = [[R, 0], [x^ R, R]]  for g = (R, x), p_world = R p_body + x;   Ad_g xi = vee(g hat(xi) g^-1).
//  * Right-trivialized tangent (seed 000 Sec. 3.1): dtau_xi delta = (Dtau(xi).delta) tau(xi)^{-1}.
//    Its inverse dtau^{-1}_xi satisfies  dtau^{-1}_xi eta = d/ds tau^{-1}( exp(s eta) tau(xi) ) |_{s=0}
//    (perturbation on the LEFT of tau(xi)). C_tau(xi) = [dtau^{-1}_xi] (seed 000 eq. (14)):
//      dexp^{-1} = I - ad/2 + ad^2/12 - ...   (exact form in se3.h, ERRATA),
//      dcay^{-1} eta = eta - [xi,eta]/2 - xi eta xi / 4   (matrix form).
//  * The discrete momentum balance (seed 000 eq. (10)) uses C_tau(h xi)^T; see se3::dCTmu for its
//    Jacobian.
//  * Quaternions: Hamilton, scalar first (w, x, y, z), body->world; q and -q are the same rotation.

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace varsim {

using Vector6d = Eigen::Matrix<double, 6, 1>;
using Matrix6d = Eigen::Matrix<double, 6, 6>;
using Matrix36d = Eigen::Matrix<double, 3, 6>;
using Eigen::Matrix3d;
using Eigen::Matrix4d;
using Eigen::Vector3d;
using Eigen::Vector4d;

// Group difference map tau used in the configuration update g_{k+1} = g_k tau(h xi_k) (seed 000 eq. (9)).
enum class Retraction { Cay, Exp };

// Choice of C(xi) in the momentum balance (seed 000 eq. (14)):
//  Cay      = dcay^{-1} exactly (pairs with Retraction::Cay: exact momentum conservation),
//  Exp      = dexp^{-1} EXACT (pairs with Retraction::Exp: exact momentum conservation; ERRATA),
//  ExpTrunc = I - ad/2 + ad^2/12 as printed in eq. (14) (a truncation, O(|xi|^4) error),
//  Tln      = I - ad/2 (trapezoidal Lie-Newmark; 2nd order, does NOT conserve momentum, ERRATA).
enum class Tangent { Cay, Exp, ExpTrunc, Tln };

}  // namespace varsim
