// engine/tree/tree_primitive.cpp — moving twists, momenta and inertias through one frame's primitive
// transform g_f(q_f) (seed 003 Assumption 1) by its structure (engine/tree/primitive_ops.h): a rotation has
// p = 0, a translation R = 1; constant transforms use the general Ad.
#include "engine/lie/so3.h"
#include "engine/tree/primitive_ops.h"

namespace varsim::tree {

Vector6d Tree::toChild(const Frame& f, const Vector6d& x) const {
  Vector6d out;
  detail::toChild(f.joint, local(f), &x, &out, 1);
  return out;
}

void Tree::toChildRow(const Frame& f, const Vector6d* in, Vector6d* out, size_t n) const {
  detail::toChild(f.joint, local(f), in, out, n);
}

Vector6d Tree::momentumToParent(const Frame& f, const Vector6d& mu) const {
  return detail::momentumToParent(f.joint, local(f), mu);
}

BodyInertia Tree::inertiaToParent(const Frame& f, const BodyInertia& in) const {
  if (f.joint == Joint::Fixed) return in.movedBy(local(f));
  if (detail::isRotation(f.joint)) {  // p = 0: (m, R h, R I R^T)
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
