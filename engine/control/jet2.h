// engine/control/jet2.h — second-order forward jets: a value with its gradient and Hessian in N variables, carried
// exactly through +, -, *, / and cos, sin, exp (the chain rule, no truncation). A formula evaluated on jets returns its
// exact first and second derivatives wherever it is smooth; the boat plan's Hessian (boat_dmoc_hull_jet.h) evaluates
// the boat's own wrench routines (engine/models/boat_wrench_generic.h, templated on the scalar) on them. Eigen traits
// below let Eigen vectors and matrices hold jets and mix them with doubles.
#pragma once

#include <array>
#include <cmath>

#include <Eigen/Core>

namespace varsim {

template <int N>
struct Jet2 {
  using Vec = Eigen::Matrix<double, N, 1>;
  using Mat = Eigen::Matrix<double, N, N>;
  static constexpr int kPacked = N * (N + 1) / 2;
  using Packed = Eigen::Matrix<double, kPacked, 1>;
  double v;
  bool constant;  // g and h are zero: products and sums with it reduce to scalings (perf: most hull terms are)
  Vec g;
  Packed h;  // the Hessian's upper triangle by columns: (i, j), i <= j, at j (j + 1) / 2 + i (perf: half of N^2)

  // Uninitialised like a double (polygons of jets are scratch arrays; Eigen's Zero() and S(0.0) give zero jets).
  Jet2() {}  // NOLINT
  Jet2(double value) : v(value), constant(true), g(Vec::Zero()), h(Packed::Zero()) {}  // NOLINT: as a double converts
  static Jet2 variable(double value, int i) {
    Jet2 j(value);
    j.g[i] = 1.0;
    j.constant = false;
    return j;
  }
  static constexpr int at(int i, int j) { return i <= j ? j * (j + 1) / 2 + i : i * (i + 1) / 2 + j; }
  double hess(int i, int j) const { return h[at(i, j)]; }
  double& hess(int i, int j) { return h[at(i, j)]; }
  Mat H() const {
    Mat m;
    for (int j = 0; j < N; ++j)
      for (int i = 0; i <= j; ++i) m(i, j) = m(j, i) = h[at(i, j)];
    return m;
  }
  // The jet of an M-variable quantity in the first M of these N variables (M <= N): its packed triangle is a prefix.
  template <int M>
  static Jet2 embed(const Jet2<M>& a) {
    Jet2 j(a.v);
    if (a.constant) return j;
    j.g.template head<M>() = a.g;
    j.h.template head<Jet2<M>::kPacked>() = a.h;
    j.constant = false;
    return j;
  }

  Jet2& operator+=(const Jet2& b) {
    v += b.v;
    if (!b.constant) g += b.g, h += b.h, constant = false;
    return *this;
  }
  Jet2& operator-=(const Jet2& b) {
    v -= b.v;
    if (!b.constant) g -= b.g, h -= b.h, constant = false;
    return *this;
  }
  Jet2& operator*=(double c) {
    v *= c;
    if (!constant) g *= c, h *= c;
    return *this;
  }
  Jet2& operator/=(double c) { return *this *= 1.0 / c; }
  Jet2& operator/=(const Jet2& b);
  Jet2& operator*=(const Jet2& b);
};

// r.h = a.v b.h + b.v a.h + (a.g b.g^T + b.g a.g^T) packed: (ab)'' = a b'' + b a'' + a' b'^T + b' a'^T.
template <int N>
void productHessian(const Jet2<N>& a, const Jet2<N>& b, typename Jet2<N>::Packed& out) {
  int k = 0;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i <= j; ++i, ++k) out[k] = a.v * b.h[k] + b.v * a.h[k] + a.g[i] * b.g[j] + b.g[i] * a.g[j];
}
// out = c1 in + c2 (g g^T) packed.
template <int N>
void rankOneHessian(double c1, const typename Jet2<N>::Packed& in, double c2, const typename Jet2<N>::Vec& g,
                    typename Jet2<N>::Packed& out) {
  int k = 0;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i <= j; ++i, ++k) out[k] = c1 * in[k] + c2 * g[i] * g[j];
}

template <int N>
Jet2<N>& Jet2<N>::operator*=(const Jet2<N>& b) {
  if (b.constant) return *this *= b.v;
  if (constant) {
    const double a = v;
    return *this = b, *this *= a;
  }
  productHessian(*this, b, h);
  g = v * b.g + b.v * g;
  v *= b.v;
  return *this;
}

// Sums and scalings in one pass into the result (perf: no copy of an operand first).
template <int N>
Jet2<N> operator+(const Jet2<N>& a, const Jet2<N>& b) {
  if (b.constant) return a + b.v;
  if (a.constant) return b + a.v;
  Jet2<N> r;
  r.v = a.v + b.v, r.constant = false, r.g = a.g + b.g, r.h = a.h + b.h;
  return r;
}
template <int N>
Jet2<N> operator-(const Jet2<N>& a, const Jet2<N>& b) {
  if (b.constant) return a - b.v;
  Jet2<N> r;
  r.v = a.v - b.v, r.constant = false, r.g = a.g - b.g, r.h = a.h - b.h;
  return r;
}
template <int N>
Jet2<N> operator*(const Jet2<N>& a, double c) {
  if (a.constant) return Jet2<N>(a.v * c);
  Jet2<N> r;
  r.v = a.v * c, r.constant = false, r.g = c * a.g, r.h = c * a.h;
  return r;
}
template <int N> Jet2<N> operator*(double c, const Jet2<N>& a) { return a * c; }
template <int N> Jet2<N> operator-(const Jet2<N>& a) { return a * -1.0; }
template <int N>
Jet2<N> operator*(const Jet2<N>& a, const Jet2<N>& b) {
  if (a.constant) return b * a.v;
  if (b.constant) return a * b.v;
  Jet2<N> r;
  r.v = a.v * b.v;
  r.constant = false;
  r.g = a.v * b.g + b.v * a.g;
  productHessian(a, b, r.h);
  return r;
}
template <int N> Jet2<N> operator+(Jet2<N> a, double c) { return a.v += c, a; }
template <int N> Jet2<N> operator-(Jet2<N> a, double c) { return a.v -= c, a; }
template <int N> Jet2<N> operator+(double c, Jet2<N> a) { return a.v += c, a; }
template <int N> Jet2<N> operator-(double c, const Jet2<N>& a) { return c + (-a); }
// 1/b: (1/b)' = -b'/b^2, (1/b)'' = -b''/b^2 + 2 b' b'^T / b^3.
template <int N>
Jet2<N> reciprocal(const Jet2<N>& b) {
  if (b.constant) return Jet2<N>(1.0 / b.v);
  Jet2<N> r;
  r.v = 1.0 / b.v;
  r.constant = false;
  const double r2 = r.v * r.v;
  r.g = -r2 * b.g;
  rankOneHessian<N>(-r2, b.h, 2.0 * r2 * r.v, b.g, r.h);
  return r;
}
template <int N> Jet2<N> operator/(const Jet2<N>& a, const Jet2<N>& b) { return a * reciprocal(b); }
template <int N> Jet2<N> operator/(const Jet2<N>& a, double c) { return a * (1.0 / c); }
template <int N> Jet2<N> operator/(double c, const Jet2<N>& b) { return c * reciprocal(b); }
template <int N> Jet2<N>& Jet2<N>::operator/=(const Jet2<N>& b) { return *this = *this * reciprocal(b); }
template <int N> Jet2<N> operator+(const Jet2<N>& a) { return a; }

// f(a) for a smooth f with f' = d1 and f'' = d2 at a.v: g = d1 a', H = d1 a'' + d2 a' a'^T.
template <int N>
Jet2<N> chainScalar(const Jet2<N>& a, double f, double d1, double d2) {
  if (a.constant) return Jet2<N>(f);
  Jet2<N> r;
  r.v = f;
  r.constant = false;
  r.g = d1 * a.g;
  rankOneHessian<N>(d1, a.h, d2, a.g, r.h);
  return r;
}
template <int N> Jet2<N> cos(const Jet2<N>& a) { return chainScalar(a, std::cos(a.v), -std::sin(a.v), -std::cos(a.v)); }
template <int N> Jet2<N> sin(const Jet2<N>& a) { return chainScalar(a, std::sin(a.v), std::cos(a.v), -std::sin(a.v)); }
template <int N> Jet2<N> exp(const Jet2<N>& a) {
  const double e = std::exp(a.v);
  return chainScalar(a, e, e, e);
}
// The value part, on which the generic formulas decide their kinks (engine/models/generic_scalar.h).
template <int N> double scalarValue(const Jet2<N>& a) { return a.v; }

// f(p(z)) from the jet of f in M inner variables p (its value, gradient and Hessian in p) and the jets of p in the N
// outer variables z: the second-order chain rule H = P^T H_f P + sum_i (df/dp_i) H_{p_i}, P = dp/dz.
template <int M, int N>
Jet2<N> compose(const Jet2<M>& f, const std::array<Jet2<N>, size_t(M)>& p) {
  if (f.constant) return Jet2<N>(f.v);
  Eigen::Matrix<double, M, N> P;
  for (int i = 0; i < M; ++i) P.row(i) = p[size_t(i)].g.transpose();
  Jet2<N> r;
  r.v = f.v;
  r.constant = false;
  r.g = P.transpose() * f.g;
  const Eigen::Matrix<double, N, N> PtHP = P.transpose() * f.H() * P;
  int k = 0;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i <= j; ++i, ++k) r.h[k] = PtHP(i, j);
  for (int i = 0; i < M; ++i) r.h += f.g[i] * p[size_t(i)].h;
  return r;
}

}  // namespace varsim

namespace Eigen {
template <int N>
struct NumTraits<varsim::Jet2<N>> : NumTraits<double> {
  using Real = varsim::Jet2<N>;
  using NonInteger = varsim::Jet2<N>;
  using Nested = varsim::Jet2<N>;
  using Literal = varsim::Jet2<N>;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 1 + N + N * (N + 1) / 2,
    AddCost = 1 + N + N * (N + 1) / 2,
    MulCost = 2 * N * (N + 1)
  };
};
template <int N, typename Op>
struct ScalarBinaryOpTraits<varsim::Jet2<N>, double, Op> {
  using ReturnType = varsim::Jet2<N>;
};
template <int N, typename Op>
struct ScalarBinaryOpTraits<double, varsim::Jet2<N>, Op> {
  using ReturnType = varsim::Jet2<N>;
};
}  // namespace Eigen
