// engine/lie/so3.h — the rotation group SO(3): hat/vee, exp/log, Cayley map, right-trivialized
// tangents dexp, dcay and their inverses (seed 000 eqs. (11)-(14)). Conventions: lie_types.h.
// All maps are accurate to a few ulps near 0 (series) and robust near |w| = pi.
#pragma once

#include "engine/lie/lie_types.h"

namespace varsim::so3 {

Matrix3d hat(const Vector3d& w);  // hat(w) b = w x b (seed 000 eq. after (6))
Vector3d vee(const Matrix3d& W);  // inverse of hat (uses the antisymmetric part)

Matrix3d exp(const Vector3d& w);  // Rodrigues, seed 000 eq. (11); exp(w) u alone: so3_rotate.h
Vector3d log(const Matrix3d& R);  // |result| in [0, pi]; robust near 0 and pi

// Cayley map, seed 000 eq. (12): cay(w) = I + 4/(4+|w|^2)(w^ + w^2/2) = (I - w^/2)^{-1}(I + w^/2).
Matrix3d cay(const Vector3d& w);
// Inverse Cayley: w = 2 vee(R - R^T)/(1 + tr R). Singular for rotations by pi (1 + tr R = 0).
Vector3d cayInv(const Matrix3d& R);

// Right-trivialized tangents (lie_types.h): dexp_w = I + A w^ + B w^2 with A = (1-cos t)/t^2,
// B = (t - sin t)/t^3 (t = |w|); this equals B_exp of seed 000 eq. (13).
Matrix3d dexp(const Vector3d& w);
// dexp^{-1}_w = I - w^/2 + k w^2, k = (1 - (t/2)cot(t/2))/t^2 (singular at t = 2 pi).
Matrix3d dexpInv(const Vector3d& w);
// dcay_w = 4/(4+|w|^2) (I + w^/2);  dcay^{-1}_w = I - w^/2 + w w^T/4 (seed 000 eq. (14), C_cay block).
Matrix3d dcay(const Vector3d& w);
Matrix3d dcayInv(const Vector3d& w);

inline Matrix3d ad(const Vector3d& w) { return hat(w); }
inline Matrix3d Ad(const Matrix3d& R) { return R; }

// Scalar coefficient functions of s = |w|^2 shared by so3/se3/se2 (Taylor series for small s, closed form
// otherwise; each accurate to ~1e-16 absolute). Primes are d/ds.
namespace coeff {
double sinc(double s);  // sin(t)/t
double A(double s);     // (1 - cos t)/t^2
double dA(double s);
double B(double s);     // (t - sin t)/t^3
double dB(double s);
double K(double s);     // (1 - (t/2) cot(t/2))/t^2
double dK(double s);
double ddK(double s);
}  // namespace coeff

}  // namespace varsim::so3
