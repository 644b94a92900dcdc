// engine/tree/tree_primitive.cpp — moving twists, momenta and inertias through one frame's primitive
// transform g_f(q_f) (seed 003 Assumption 1) by its structure: a rotation about axis A by angle x has
// p = 0 and only touches the two other components (B, C) = (A+1, A+2) mod 3; a translation x along A has
// R = 1 and p = x e_A, so p × w = x (w_B e_C - w_C e_B). Constant transforms use the general Ad.
#include "engine/lie/so3.h"
#include "engine/tree/tree.h"

namespace varsim::tree {

namespace {

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
void perAxis(Joint joint, size_t n, const Vector6d* in, Vector6d* out, Args... args) {
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

bool isRotation(Joint j) { return j == Joint::RotX || j == Joint::RotY || j == Joint::RotZ; }
int axisIndex(Joint j) { return static_cast<int>(j) % 3; }

}  // namespace

Vector6d Tree::toChild(const Frame& f, const Vector6d& x) const {
  Vector6d out;
  toChildRow(f, &x, &out, 1);
  return out;
}

void Tree::toChildRow(const Frame& f, const Vector6d* in, Vector6d* out, size_t n) const {
  const Matrix4d& g = local(f);
  const int a = axisIndex(f.joint), b = (a + 1) % 3, c = (a + 2) % 3;
  if (f.joint == Joint::Fixed) {
    for (size_t r = 0; r < n; ++r) out[r] = adInvApply(g, in[r]);
  } else if (isRotation(f.joint)) {
    perAxis<Rotate>(f.joint, n, in, out, g(b, b), -g(c, b));  // R^T: the rotation by -angle
  } else {
    perAxis<TwistTranslate>(f.joint, n, in, out, g(a, 3));
  }
}

Vector6d Tree::momentumToParent(const Frame& f, const Vector6d& mu) const {
  const Matrix4d& g = local(f);
  const int a = axisIndex(f.joint), b = (a + 1) % 3, c = (a + 2) % 3;
  Vector6d out;
  if (f.joint == Joint::Fixed) return adInvTransposeApply(g, mu);
  if (isRotation(f.joint)) {
    perAxis<Rotate>(f.joint, 1, &mu, &out, g(b, b), g(c, b));
  } else {
    perAxis<MomentumTranslate>(f.joint, 1, &mu, &out, g(a, 3));
  }
  return out;
}

BodyInertia Tree::inertiaToParent(const Frame& f, const BodyInertia& in) const {
  if (f.joint == Joint::Fixed) return in.movedBy(local(f));
  if (isRotation(f.joint)) {  // p = 0: (m, R h, R I R^T)
    const Matrix3d R = local(f).topLeftCorner<3, 3>();
    BodyInertia out;
    out.m = in.m, out.h = R * in.h, out.I = R * in.I * R.transpose();
    return out;
  }
  // A translation p along one axis (R = 1): h + m p, I - p^ h^ - h^ p^ - m p^ p^ (BodyInertia::movedBy).
  const Eigen::Vector3d p = local(f).topRightCorner<3, 1>();
  BodyInertia out = in;
  out.h += in.m * p;
  const Matrix3d P = so3::hat(p), H = so3::hat(in.h);
  out.I -= P * H + H * P + in.m * P * P;
  return out;
}

}  // namespace varsim::tree
