// engine/integrators/rigid_step_bounds.h — a-priori step bounds for the implicit rigid-body integrators of seed 002
// Sec. 3.2: the Newton residuals (15) (trapezoidal Lie-Newmark, TLN) and (16) (symplectic Cayley), their
// Jacobians (17) and (18) (ERRATA: (18)'s last terms carry h^2/4, h^2/2), the bounds h_bar of (19) and (20) for
// the inertia condition number kappa and |omega|, and the Monte-Carlo trial behind seed 002 Fig. 2 (first step
// at which the Jacobian turns singular or Newton fails). ERRATA: the inequality that (20) is derived from is
// false (J = I); (20) is used as a conservative empirical bound, checked by the study, (19) holds and is tight.
#pragma once

#include <cstdint>
#include <limits>

#include "engine/lie/lie_types.h"

namespace varsim::stepbounds {

enum class Scheme { Tln, Cayley };

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// kappa = sigma_max / sigma_min of a symmetric positive definite J (>= 1).
double conditionNumber(const Matrix3d& J);
// Eq. (19): 4 / ((kappa - 1) |omega|); infinity for kappa = 1 or omega = 0.
double tlnBound(double kappa, double omegaNorm);
// Eq. (20) in the cancellation-free form (kappa - 1 - sqrt(D)) / (8 - 2 kappa) = 8 / (kappa - 1 + sqrt(D)),
// D = kappa^2 + 14 kappa - 63, divided by |omega| (so kappa = 4 gives the limit 4 / (3 |omega|)); infinity for
// kappa <= 4 sqrt(7) - 7 or omega = 0.
double cayleyBound(double kappa, double omegaNorm);
double bound(Scheme s, double kappa, double omegaNorm);
// The threshold 4 sqrt(7) - 7 = 3.583 below which (20) does not restrict h.
double cayleyUnrestrictedKappa();

// e(w) of (15) / (16) without the constant: [I + h/2 w^ (+ h^2/4 w w^T)] J w, and the constant c_k / d_k of the
// previous velocity w_k: A(-h w_k)^T J w_k (TLN) or [dcay^-1_{-h w_k}]^T J w_k (Cayley).
Vector3d residualOperator(Scheme s, const Matrix3d& J, const Vector3d& w, double h);
Vector3d previousMomentum(Scheme s, const Matrix3d& J, const Vector3d& wk, double h);
// De(w) of (17) / (18): J - h/2 hat(J w) + h/2 w^ J (+ h^2/4 (w^T J w) I + h^2/2 w w^T J).
Matrix3d jacobian(Scheme s, const Matrix3d& J, const Vector3d& w, double h);

// Newton from the guess wk on e(w) = residualOperator(w) - previousMomentum(wk) = 0; true when |e| <= 1e-12 |rhs|
// within 50 iterations with finite, nonsingular Jacobians.
bool newtonConverges(Scheme s, const Matrix3d& J, const Vector3d& wk, double h);

// One trial of seed 002 Fig. 2 for (J, w): h |w| values (w normalised away: every quantity depends on h w).
struct BoundTrial {
  double kappa = 1.0;
  double bound[2] = {kInfinity, kInfinity};       // h_bar |w| of (19), (20)
  double singular[2] = {kInfinity, kInfinity};    // first h |w| with det De(w) = 0 (scan + bisection to 1e-10)
  double newtonFail[2] = {kInfinity, kInfinity};  // first h |w| on the scan grid where Newton from w fails
};
// Scans h |w| geometrically from 1e-3 to hMax (ratio 1.02 for the determinant, 1.05 for Newton).
BoundTrial boundTrial(const Matrix3d& J, const Vector3d& w, double hMax = 100.0, bool newton = true);

// Seeded trial input of the study: principal moments 1, m, kappa (kappa uniform in [1, kappaMax], m uniform in
// [1, kappa]) in a uniformly random orientation, and omega of random direction (unit norm). Advances `state`
// (splitmix64: the same numbers on every platform).
void sampleTrial(std::uint64_t& state, double kappaMax, Matrix3d& J, Vector3d& w);

}  // namespace varsim::stepbounds
