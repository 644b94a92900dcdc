// engine/lie/so3.cpp — SO(3) maps (seed 000 eqs. (11)-(14)) and the shared scalar coefficient functions.
// Small-angle branches use Taylor series in s = |w|^2 (coefficients generated with sympy, exact
// rationals rounded to double); they are used for |w| < 1.5 where closed forms lose digits.
#include "engine/lie/so3.h"

#include <cmath>

#include "engine/lie/so3_series.h"

namespace varsim::so3 {

namespace {

using namespace taylor;

constexpr double kSeriesMaxS = 2.25;  // series used for s = t^2 < 2.25 (t < 1.5)

// f(s) = sum c_n s^n, and its first/second derivative in s, by Horner's rule.
template <int N>
double series(const double (&c)[N], double s) {
  double r = 0.0;
  for (int n = N - 1; n >= 0; --n) r = r * s + c[n];
  return r;
}
template <int N>
double series1(const double (&c)[N], double s) {
  double r = 0.0;
  for (int n = N - 1; n >= 1; --n) r = r * s + n * c[n];
  return r;
}
template <int N>
double series2(const double (&c)[N], double s) {
  double r = 0.0;
  for (int n = N - 1; n >= 2; --n) r = r * s + double(n) * (n - 1) * c[n];
  return r;
}

}  // namespace

namespace coeff {

double sinc(double s) {
  if (s < kSeriesMaxS) return series(kSincSeries, s);
  const double t = std::sqrt(s);
  return std::sin(t) / t;
}
double A(double s) {
  if (s < kSeriesMaxS) return series(kASeries, s);
  const double t = std::sqrt(s), h = std::sin(0.5 * t);
  return 2.0 * h * h / s;
}
double dA(double s) {
  if (s < kSeriesMaxS) return series1(kASeries, s);
  const double t = std::sqrt(s);
  return (0.5 * t * std::sin(t) + std::cos(t) - 1.0) / (s * s);
}
double B(double s) {
  if (s < kSeriesMaxS) return series(kBSeries, s);
  const double t = std::sqrt(s);
  return (t - std::sin(t)) / (s * t);
}
double dB(double s) {
  if (s < kSeriesMaxS) return series1(kBSeries, s);
  const double t = std::sqrt(s);
  return (3.0 * std::sin(t) - t * std::cos(t) - 2.0 * t) / (2.0 * s * s * t);
}
double K(double s) {
  if (s < kSeriesMaxS) return series(kKSeries, s);
  const double t = std::sqrt(s);
  return (1.0 - 0.5 * t * std::cos(0.5 * t) / std::sin(0.5 * t)) / s;
}
double dK(double s) {
  if (s < kSeriesMaxS) return series1(kKSeries, s);
  const double t = std::sqrt(s), sh = std::sin(0.5 * t), ch = std::cos(0.5 * t);
  return (s / (sh * sh) + 2.0 * t * ch / sh - 8.0) / (8.0 * s * s);
}
double ddK(double s) {
  if (s < kSeriesMaxS) return series2(kKSeries, s);
  const double t = std::sqrt(s), sh = std::sin(0.5 * t), ch = std::cos(0.5 * t);
  return (-s * t * ch / (sh * sh * sh) - 3.0 * s / (sh * sh) - 6.0 * t * ch / sh + 32.0) / (16.0 * s * s * s);
}

}  // namespace coeff

Matrix3d hat(const Vector3d& w) {
  Matrix3d W;
  W << 0.0, -w.z(), w.y(),  //
      w.z(), 0.0, -w.x(),   //
      -w.y(), w.x(), 0.0;
  return W;
}

Vector3d vee(const Matrix3d& W) {
  return 0.5 * Vector3d(W(2, 1) - W(1, 2), W(0, 2) - W(2, 0), W(1, 0) - W(0, 1));
}

Matrix3d exp(const Vector3d& w) {
  const double s = w.squaredNorm();
  const Matrix3d W = hat(w);
  return Matrix3d::Identity() + coeff::sinc(s) * W + coeff::A(s) * (W * W);
}

Vector3d log(const Matrix3d& R) {
  const Vector3d sv = vee(R);                 // = sin(t) u
  const double c = 0.5 * (R.trace() - 1.0);   // = cos(t)
  const double t = std::atan2(sv.norm(), c);  // in [0, pi]
  if (c > -0.5) return sv / coeff::sinc(t * t);  // t < 2pi/3: sin(t) is well away from 0
  // Near pi: (R + R^T)/2 - cos(t) I = (1 - cos t) u u^T; take its largest column.
  const Matrix3d S = 0.5 * (R + R.transpose()) - c * Matrix3d::Identity();
  int i = 0;
  S.diagonal().maxCoeff(&i);
  Vector3d u = S.col(i).normalized();
  if (u.dot(sv) < 0.0) u = -u;
  return t * u;
}

Matrix3d cay(const Vector3d& w) {
  const Matrix3d W = hat(w);
  return Matrix3d::Identity() + (4.0 / (4.0 + w.squaredNorm())) * (W + 0.5 * W * W);
}

Vector3d cayInv(const Matrix3d& R) { return (4.0 / (1.0 + R.trace())) * vee(R); }

Matrix3d dexp(const Vector3d& w) {
  const double s = w.squaredNorm();
  const Matrix3d W = hat(w);
  return Matrix3d::Identity() + coeff::A(s) * W + coeff::B(s) * (W * W);
}

Matrix3d dexpInv(const Vector3d& w) {
  const Matrix3d W = hat(w);
  return Matrix3d::Identity() - 0.5 * W + coeff::K(w.squaredNorm()) * (W * W);
}

Matrix3d dcay(const Vector3d& w) {
  return (4.0 / (4.0 + w.squaredNorm())) * (Matrix3d::Identity() + 0.5 * hat(w));
}

Matrix3d dcayInv(const Vector3d& w) {
  return Matrix3d::Identity() - 0.5 * hat(w) + 0.25 * w * w.transpose();
}

}  // namespace varsim::so3
