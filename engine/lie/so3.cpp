// engine/lie/so3.cpp — SO(3) maps (seed 000 eqs. (11)-(14)) and the shared scalar coefficient functions.
// Small-angle branches use Taylor series in s = |w|^2 (coefficients generated with sympy, exact
// rationals rounded to double); they are used for |w| < 1.5 where closed forms lose digits.
#include "engine/lie/so3.h"

#include <cmath>

namespace varsim::so3 {

namespace {

constexpr double kSincSeries[] = {
    1,
    -0.16666666666666666,
    0.0083333333333333332,
    -0.00019841269841269841,
    2.7557319223985893e-06,
    -2.505210838544172e-08,
    1.6059043836821613e-10,
    -7.6471637318198164e-13,
    2.8114572543455206e-15,
    -8.2206352466243295e-18,
    1.9572941063391263e-20,
    -3.8681701706306841e-23};
constexpr double kASeries[] = {
    0.5,
    -0.041666666666666664,
    0.0013888888888888889,
    -2.4801587301587302e-05,
    2.7557319223985888e-07,
    -2.08767569878681e-09,
    1.1470745597729725e-11,
    -4.7794773323873853e-14,
    1.5619206968586225e-16,
    -4.1103176233121648e-19,
    8.8967913924505741e-22,
    -1.6117375710961184e-24,
    2.4795962632247976e-27,
    -3.2798892370698378e-30};
constexpr double kBSeries[] = {
    0.16666666666666666,
    -0.0083333333333333332,
    0.00019841269841269841,
    -2.7557319223985893e-06,
    2.505210838544172e-08,
    -1.6059043836821613e-10,
    7.6471637318198164e-13,
    -2.8114572543455206e-15,
    8.2206352466243295e-18,
    -1.9572941063391263e-20,
    3.8681701706306841e-23,
    -6.4469502843844736e-26,
    9.183689863795546e-29,
    -1.1309962886447716e-31};
constexpr double kKSeries[] = {
    0.083333333333333329,
    0.0013888888888888889,
    3.3068783068783071e-05,
    8.2671957671957675e-07,
    2.08767569878681e-08,
    5.2841901386874932e-10,
    1.3382536530684679e-11,
    3.3896802963225827e-13,
    8.5860620562778452e-15,
    2.1748686985580619e-16,
    5.5090028283602295e-18,
    1.3954464685812522e-19,
    3.5347070396294673e-21,
    8.9535174270375463e-23,
    2.2679524523376829e-24,
    5.7447906688722025e-26,
    1.455172475614865e-27,
    3.6859949406653103e-29,
    9.3367342570950451e-31,
    2.36502241570063e-32,
    5.9906717624821341e-34,
    1.5174548844682903e-35};

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

// exp(±w^) u = c ± a with c = u + A w x (w x u) even in w and a = sinc w x u odd: rotate() is rotateBothWays'
// forward bit for bit (same expressions), so a pose retracted either way is the same pose.
Vector3d rotate(const Vector3d& w, const Vector3d& u) {
  const double s = w.squaredNorm();
  const Vector3d wu = w.cross(u);
  return (u + coeff::A(s) * w.cross(wu)) + coeff::sinc(s) * wu;
}

void rotateBothWays(const Vector3d& w, const Vector3d& u, Vector3d& forward, Vector3d& backward) {
  const double s = w.squaredNorm();
  const Vector3d wu = w.cross(u), c = u + coeff::A(s) * w.cross(wu), a = coeff::sinc(s) * wu;
  forward = c + a;
  backward = c - a;
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
