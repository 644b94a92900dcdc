// engine/tree/tree_composite.cpp — composite inertia and momentum of a frame's subtree (seed 003 Sec. VI's
// sums over masses regrouped through the tree): every per-mass term of L's derivatives in q_i, qdot_i is a
// frame quantity carried down from the frame of i by Ad (eqs. 3, 7, 10), so its sum over the masses below
// is the value at that frame paired with these. Memoised per state like eqs. 1-11.
#include "engine/tree/tree.h"

#include "engine/lie/so3.h"

namespace varsim::tree {

Vector6d BodyInertia::apply(const Vector6d& x) const {
  const Eigen::Vector3d w = x.head<3>(), v = x.tail<3>();
  Vector6d out;
  out.head<3>() = I * w + h.cross(v);  // dT/dw with T = 1/2 (w.I w + 2 w.(h x v) + m v.v)
  out.tail<3>() = m * v + w.cross(h);
  return out;
}

BodyInertia BodyInertia::movedBy(const Matrix4d& g) const {
  const Matrix3d R = g.topLeftCorner<3, 3>();
  const Eigen::Vector3d p = g.topRightCorner<3, 1>(), Rh = R * h;
  const Matrix3d P = so3::hat(p), H = so3::hat(Rh);
  // Points r -> R r + p: sum m |r'|^2 1 - r' r'^T = R I R^T - p^ (Rh)^ - (Rh)^ p^ - m p^ p^.
  BodyInertia out;
  out.m = m, out.h = Rh + m * p;
  out.I = R * I * R.transpose() - P * H - H * P - m * P * P;
  return out;
}

BodyInertia& BodyInertia::operator+=(const BodyInertia& o) {
  m += o.m, h += o.h, I += o.I;
  return *this;
}

Vector6d adTransposeApply(const Vector6d& xi, const Vector6d& mu) {
  Vector6d out;
  out.head<3>() = mu.head<3>().cross(xi.head<3>()) + mu.tail<3>().cross(xi.tail<3>());
  out.tail<3>() = mu.tail<3>().cross(xi.head<3>());
  return out;
}

Vector6d adInvTransposeApply(const Matrix4d& g, const Vector6d& mu) {
  const Matrix3d R = g.topLeftCorner<3, 3>();
  const Eigen::Vector3d p = g.topRightCorner<3, 1>(), Rv = R * mu.tail<3>();
  Vector6d out;
  out.head<3>() = R * mu.head<3>() + p.cross(Rv);
  out.tail<3>() = Rv;
  return out;
}

const BodyInertia& Tree::compositeInertia(int f) const {
  return memo(ic_, f, posEpoch_, [&] { return computeCompositeInertia(f); });
}

const Vector6d& Tree::compositeMomentum(int f) const {
  return memo(w_, f, velEpoch_, [&] { return computeCompositeMomentum(f); });
}

const Eigen::Vector3d& Tree::gravityIn(int k) const {
  return memo(gravityIn_, k, posEpoch_, [&] {
    Vector6d a = Vector6d::Zero();
    a.head<3>() = frames_[k].parent == kWorld ? gravity_ : gravityIn(frames_[k].parent);
    return Eigen::Vector3d(toChild(frames_[k], a).head<3>());  // R^T on the angular part
  });
}

const Vector6d& Tree::compositeWeight(int f) const {
  return memo(weight_, f, posEpoch_, [&] { return computeCompositeWeight(f); });
}

Vector6d Tree::computeCompositeWeight(int f) const {
  Vector6d out = Vector6d::Zero();
  out.tail<3>() = own_[f].m * gravityIn(f);  // own masses sit at the origin
  for (int c : children_[f]) out += momentumToParent(frames_[c], compositeWeight(c));
  return out;
}

void Tree::compositeMomentumFor(const VectorXd& v, std::vector<Vector6d, Eigen::aligned_allocator<Vector6d>>& out) const {
  out.resize(frames_.size());
  for (size_t k = 0; k < frames_.size(); ++k) {  // parents come first: eq. (6) with rates v, 0
    const Frame& f = frames_[k];
    out[k] = f.parent == kWorld ? Vector6d::Zero() : toChild(f, out[f.parent]);
    if (f.drive == Drive::Dynamic) out[k] += f.xi * v(f.var);
  }
  for (size_t k = frames_.size(); k-- > 0;) {  // children come after: turn velocities into composites
    Vector6d mu = own_[k].apply(out[k]);
    for (int c : children_[k]) mu += momentumToParent(frames_[c], out[c]);
    out[k] = mu;
  }
}

BodyInertia Tree::computeCompositeInertia(int f) const {
  BodyInertia out = own_[f];
  for (int c : children_[f]) out += inertiaToParent(frames_[c], compositeInertia(c));
  return out;
}

Vector6d Tree::computeCompositeMomentum(int f) const {
  Vector6d out = own_[f].m > 0 || !own_[f].I.isZero(0) ? own_[f].apply(vb(f)) : Vector6d::Zero();  // massless: skip
  for (int c : children_[f]) out += momentumToParent(frames_[c], compositeMomentum(c));
  return out;
}

}  // namespace varsim::tree
