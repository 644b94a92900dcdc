// engine/tree/primitive_ops.h — the structure of seed 003's primitive transforms (Assumption 1) as inline
// operations on twists and momenta: a rotation about axis A by angle x has p = 0 and only touches the two other
// components (B, C) = (A+1, A+2) mod 3; a translation x along A has R = 1 and p = x e_A, so p × w =
// x (w_B e_C - w_C e_B). Constant transforms use the general Ad. Shared by the per-frame accessors
// (tree_primitive.cpp) and the sweeps over all frames (tree_sweep.cpp), so both do the same arithmetic.
#pragma once

#include "engine/tree/tree.h"

namespace varsim::tree::detail {

template <int A>
struct Axis {
  static constexpr int B = (A + 1) % 3, C = (A + 2) % 3;
  // y -> R^T y (sign -1 of sn) or R y (+1) for R the rotation by (cs, sn) about A, on both halves.
  static void rotate(const Vector6d& in, Vector6d& out, double cs, double sn) {
    out(A) = in(A), out(3 + A) = in(3 + A);
    out(B) = cs * in(B) - sn * in(C), out(C) = sn * in(B) + cs * in(C);
    out(3 + B) = cs * in(3 + B) - sn * in(3 + C), out(3 + C) = sn * in(3 + B) + cs * in(3 + C);
  }
  // (w, v - p x w) for p = x e_A.
  static void twistThroughTranslation(const Vector6d& in, Vector6d& out, double x) {
    out = in;
    out(3 + B) += x * in(C), out(3 + C) -= x * in(B);
  }
  // (mu_w + p x mu_v, mu_v) for p = x e_A.
  static void momentumThroughTranslation(const Vector6d& in, Vector6d& out, double x) {
    out = in;
    out(B) -= x * in(3 + C), out(C) += x * in(3 + B);
  }
};

// Applies op<A> to n vectors with the axis A of `joint` fixed at compile time.
template <template <int> class Op, class... Args>
inline void perAxis(Joint joint, size_t n, const Vector6d* in, Vector6d* out, Args... args) {
  switch (static_cast<int>(joint) % 3) {
    case 0:
      for (size_t r = 0; r < n; ++r) Op<0>::run(in[r], out[r], args...);
      break;
    case 1:
      for (size_t r = 0; r < n; ++r) Op<1>::run(in[r], out[r], args...);
      break;
    default:
      for (size_t r = 0; r < n; ++r) Op<2>::run(in[r], out[r], args...);
  }
}
template <int A>
struct Rotate {
  static void run(const Vector6d& in, Vector6d& out, double cs, double sn) { Axis<A>::rotate(in, out, cs, sn); }
};
template <int A>
struct TwistTranslate {
  static void run(const Vector6d& in, Vector6d& out, double x) { Axis<A>::twistThroughTranslation(in, out, x); }
};
template <int A>
struct MomentumTranslate {
  static void run(const Vector6d& in, Vector6d& out, double x) { Axis<A>::momentumThroughTranslation(in, out, x); }
};

// ad_xi eta (tree.h adApply), inline for the sweeps' inner loops.
inline Vector6d adApply(const Vector6d& xi, const Vector6d& eta) {
  Vector6d out;
  out.head<3>() = xi.head<3>().cross(eta.head<3>());
  out.tail<3>() = xi.tail<3>().cross(eta.head<3>()) + xi.head<3>().cross(eta.tail<3>());
  return out;
}

inline bool isRotation(Joint j) { return j == Joint::RotX || j == Joint::RotY || j == Joint::RotZ; }
inline int axisIndex(Joint j) { return static_cast<int>(j) % 3; }

// n twists of the parent seen in a frame whose primitive transform is g (joint kind `joint`): Ad_{g^{-1}} x.
inline void toChild(Joint joint, const Matrix4d& g, const Vector6d* in, Vector6d* out, size_t n) {
  const int a = axisIndex(joint), b = (a + 1) % 3, c = (a + 2) % 3;
  if (joint == Joint::Fixed) {
    for (size_t r = 0; r < n; ++r) out[r] = adInvApply(g, in[r]);
  } else if (isRotation(joint)) {
    perAxis<Rotate>(joint, n, in, out, g(b, b), -g(c, b));  // R^T: the rotation by -angle
  } else {
    perAxis<TwistTranslate>(joint, n, in, out, g(a, 3));
  }
}

// A momentum of that frame seen from its parent: Ad_{g^{-1}}^T mu.
inline Vector6d momentumToParent(Joint joint, const Matrix4d& g, const Vector6d& mu) {
  const int a = axisIndex(joint), b = (a + 1) % 3, c = (a + 2) % 3;
  Vector6d out;
  if (joint == Joint::Fixed) return adInvTransposeApply(g, mu);
  if (isRotation(joint)) {
    perAxis<Rotate>(joint, 1, &mu, &out, g(b, b), g(c, b));
  } else {
    perAxis<MomentumTranslate>(joint, 1, &mu, &out, g(a, 3));
  }
  return out;
}

}  // namespace varsim::tree::detail
