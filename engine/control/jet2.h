// engine/control/jet2.h — second-order forward jets: a value with its gradient and Hessian in N variables, carried
// exactly through +, -, * and / (the chain rule, no truncation). A formula evaluated on jets returns its exact first
// and second derivatives wherever it is smooth; the boat plan's hull-wrench Hessian (boat_dmoc_hull_jet.h) evaluates
// the hull wrench's pieces (rational in the segment variables) on them.
#pragma once

#include <array>

#include <Eigen/Core>

namespace varsim {

template <int N>
struct Jet2 {
  using Vec = Eigen::Matrix<double, N, 1>;
  using Mat = Eigen::Matrix<double, N, N>;
  double v = 0.0;
  Vec g = Vec::Zero();
  Mat H = Mat::Zero();

  Jet2() = default;
  Jet2(double value) : v(value) {}  // NOLINT: a constant converts implicitly, as a double would
  static Jet2 variable(double value, int i) {
    Jet2 j(value);
    j.g[i] = 1.0;
    return j;
  }
  // The jet of an M-variable quantity in the first M of these N variables (M <= N).
  template <int M>
  static Jet2 embed(const Jet2<M>& a) {
    Jet2 j(a.v);
    j.g.template head<M>() = a.g;
    j.H.template topLeftCorner<M, M>() = a.H;
    return j;
  }

  Jet2& operator+=(const Jet2& b) { return v += b.v, g += b.g, H += b.H, *this; }
  Jet2& operator-=(const Jet2& b) { return v -= b.v, g -= b.g, H -= b.H, *this; }
  Jet2& operator*=(double c) { return v *= c, g *= c, H *= c, *this; }
  Jet2& operator*=(const Jet2& b) {  // (ab)'' = a b'' + b a'' + a' b'^T + b' a'^T
    H = v * b.H + b.v * H;
    H.noalias() += g * b.g.transpose();
    H.noalias() += b.g * g.transpose();
    g = v * b.g + b.v * g;
    v *= b.v;
    return *this;
  }
};

template <int N> Jet2<N> operator+(Jet2<N> a, const Jet2<N>& b) { return a += b; }
template <int N> Jet2<N> operator-(Jet2<N> a, const Jet2<N>& b) { return a -= b; }
template <int N> Jet2<N> operator-(Jet2<N> a) { return a *= -1.0; }
template <int N>
Jet2<N> operator*(const Jet2<N>& a, const Jet2<N>& b) {
  Jet2<N> r(a.v * b.v);
  r.g = a.v * b.g + b.v * a.g;
  r.H = a.v * b.H + b.v * a.H;
  r.H.noalias() += a.g * b.g.transpose();
  r.H.noalias() += b.g * a.g.transpose();
  return r;
}
template <int N> Jet2<N> operator*(Jet2<N> a, double c) { return a *= c; }
template <int N> Jet2<N> operator*(double c, Jet2<N> a) { return a *= c; }
template <int N> Jet2<N> operator+(Jet2<N> a, double c) { return a.v += c, a; }
template <int N> Jet2<N> operator-(Jet2<N> a, double c) { return a.v -= c, a; }
template <int N> Jet2<N> operator+(double c, Jet2<N> a) { return a.v += c, a; }
template <int N> Jet2<N> operator-(double c, const Jet2<N>& a) { return c + (-a); }
// 1/b: (1/b)' = -b'/b^2, (1/b)'' = -b''/b^2 + 2 b' b'^T / b^3.
template <int N>
Jet2<N> reciprocal(const Jet2<N>& b) {
  Jet2<N> r(1.0 / b.v);
  const double r2 = r.v * r.v;
  r.g = -r2 * b.g;
  r.H = -r2 * b.H + (2.0 * r2 * r.v) * b.g * b.g.transpose();
  return r;
}
template <int N> Jet2<N> operator/(const Jet2<N>& a, const Jet2<N>& b) { return a * reciprocal(b); }

// 3-vectors of jets and the few operations the hull formulas need.
template <int N>
using JetVec3 = std::array<Jet2<N>, 3>;

template <int N>
JetVec3<N> jetVec(const Eigen::Vector3d& c) {
  return {Jet2<N>(c.x()), Jet2<N>(c.y()), Jet2<N>(c.z())};
}
template <int N>
JetVec3<N> operator+(const JetVec3<N>& a, const JetVec3<N>& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
template <int N>
JetVec3<N> operator-(const JetVec3<N>& a, const JetVec3<N>& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
template <int N>
JetVec3<N> operator*(const Jet2<N>& s, const JetVec3<N>& a) {
  return {s * a[0], s * a[1], s * a[2]};
}
template <int N>
JetVec3<N> operator*(double s, const JetVec3<N>& a) {
  return {s * a[0], s * a[1], s * a[2]};
}
template <int N>
Jet2<N> dot(const JetVec3<N>& a, const JetVec3<N>& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
template <int N>
Jet2<N> dot(const Eigen::Vector3d& a, const JetVec3<N>& b) {
  return a.x() * b[0] + a.y() * b[1] + a.z() * b[2];
}
template <int N>
JetVec3<N> cross(const JetVec3<N>& a, const JetVec3<N>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
template <int N>
JetVec3<N> cross(const Eigen::Vector3d& a, const JetVec3<N>& b) {
  return {a.y() * b[2] - a.z() * b[1], a.z() * b[0] - a.x() * b[2], a.x() * b[1] - a.y() * b[0]};
}
template <int N>
JetVec3<N> embed(const JetVec3<4>& a) {
  return {Jet2<N>::embed(a[0]), Jet2<N>::embed(a[1]), Jet2<N>::embed(a[2])};
}

}  // namespace varsim
