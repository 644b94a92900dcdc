// engine/lie/so3_rotate.h — exp(w^) u for a single vector, without exp's 3×3 matrix (Rodrigues on the vector:
// u + sinc(t) w × u + A(t) w × (w × u), t = |w|), inline so that a loop over many rods (RigidRodModel's
// retraction) overlaps them. The coefficients are so3.cpp's series, cut for the small turns a rod takes per step.
#pragma once

#include "engine/lie/so3.h"
#include "engine/lie/so3_series.h"

namespace varsim::so3 {

namespace detail {

// The first M terms of sum c_n s^n by Horner's rule (so3.cpp's series over all of them).
template <int M, int N>
inline double leadingSeries(const double (&c)[N], double s) {
  static_assert(M <= N);
  double r = 0.0;
  for (int n = M - 1; n >= 0; --n) r = r * s + c[n];
  return r;
}

// sinc and A of s = t²: the series are cut where the first term left out is below 1e-18 of the sum (t ≤ 0.2:
// c_6 s^6 ≤ 7e-19; t ≤ 0.6: c_8 s^8 ≤ 8e-19), else coeff::sinc and coeff::A (full series, closed form past 1.5).
inline void rotationCoefficients(double s, double& sinc, double& a) {
  if (s <= 0.04) {
    sinc = leadingSeries<6>(taylor::kSincSeries, s);
    a = leadingSeries<6>(taylor::kASeries, s);
  } else if (s <= 0.36) {
    sinc = leadingSeries<8>(taylor::kSincSeries, s);
    a = leadingSeries<8>(taylor::kASeries, s);
  } else {
    sinc = coeff::sinc(s);
    a = coeff::A(s);
  }
}

}  // namespace detail

// exp(±w^) u = c ± a with c = u + A w × (w × u) even in w and a = sinc w × u odd: rotate(w, u) is
// rotateBothWays' forward bit for bit (same expressions), so a pose retracted either way is the same pose.
// Equal to exp(w) * u up to rounding (test_so3: 1e-15).
inline Vector3d rotate(const Vector3d& w, const Vector3d& u) {
  double sinc, A;
  detail::rotationCoefficients(w.squaredNorm(), sinc, A);
  const Vector3d wu = w.cross(u);
  return (u + A * w.cross(wu)) + sinc * wu;
}

// exp(w^) u and exp(−w^) u = exp(w^)ᵀ u at once: the coefficients and both cross products are shared.
inline void rotateBothWays(const Vector3d& w, const Vector3d& u, Vector3d& forward, Vector3d& backward) {
  double sinc, A;
  detail::rotationCoefficients(w.squaredNorm(), sinc, A);
  const Vector3d wu = w.cross(u), c = u + A * w.cross(wu), a = sinc * wu;
  forward = c + a;
  backward = c - a;
}

}  // namespace varsim::so3
