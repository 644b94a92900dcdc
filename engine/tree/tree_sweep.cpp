// engine/tree/tree_sweep.cpp — every frame's body velocity (seed 003 eq. 6), gravity in its coordinates, and the
// composite momentum and weight of its subtree (tree_composite.cpp) in two sweeps over the frames: parents come
// before children (Tree::addFrame), so one pass forward and one backward replace the accessors' recursion. This is
// the O(N) evaluation behind dL/dq and dL/dqdot (tree_lagrangian.cpp), which the midpoint VI's residual calls at
// every Newton iterate. The values go into the accessors' memo slots, in their arithmetic and summation order.
#include "engine/tree/primitive_ops.h"

namespace varsim::tree {

void Tree::sweep() const {
  if (!cache_ || sweepStamp_ == velEpoch_) return;  // velEpoch_ moves with every change of state
  const size_t n = frames_.size();
  for (size_t k = 0; k < n; ++k) {  // parents first: eq. (6) and gravityIn
    const Frame& f = frames_[k];
    const Matrix4d& L = local(f);
    const bool root = f.parent == kWorld;
    if (v_.stamp[k] != velEpoch_) {
      const Vector6d parent = root ? Vector6d::Zero() : v_.val[size_t(f.parent)];
      Vector6d moved;
      detail::toChild(f.joint, L, &parent, &moved, 1);
      v_.val[k] = moved + twist(f) * rate(f), v_.stamp[k] = velEpoch_;
    }
    if (gravityIn_.stamp[k] != posEpoch_) {
      Vector6d a = Vector6d::Zero(), moved;
      a.head<3>() = root ? gravity_ : gravityIn_.val[size_t(f.parent)];
      detail::toChild(f.joint, L, &a, &moved, 1);
      gravityIn_.val[k] = moved.head<3>(), gravityIn_.stamp[k] = posEpoch_;
    }
  }
  for (size_t k = n; k-- > 0;) {  // children first: the composites
    const BodyInertia& own = own_[k];
    if (w_.stamp[k] != velEpoch_) {
      Vector6d out = own.m > 0 || !own.I.isZero(0) ? own.apply(v_.val[k]) : Vector6d::Zero();  // massless: skip
      for (int c : children_[k]) out += detail::momentumToParent(frames_[c].joint, local_.val[c], w_.val[c]);
      w_.val[k] = out, w_.stamp[k] = velEpoch_;
    }
    if (weight_.stamp[k] != posEpoch_) {
      // (0, m gravity) + the children's, in halves (angular, linear): the sums of computeCompositeWeight without
      // reading back as pairs a 6-vector just written in 3-vector halves (a store-forwarding stall per frame, 4% of
      // a midpoint step; the same for the momentum above measured 3% slower).
      Eigen::Vector3d head = Eigen::Vector3d::Zero(), tail = own.m * gravityIn_.val[k];  // own masses at the origin
      for (int c : children_[k]) {
        const Vector6d mc = detail::momentumToParent(frames_[c].joint, local_.val[c], weight_.val[c]);
        head += mc.head<3>(), tail += mc.tail<3>();
      }
      weight_.val[k].head<3>() = head, weight_.val[k].tail<3>() = tail, weight_.stamp[k] = posEpoch_;
    }
  }
  sweepStamp_ = velEpoch_;
}

namespace {
// The per-variable terms at the variable's own frame: dv/dq_i = -ad_{xi_i} v_f (eq. 7), dv/dqdot_i = xi_i (eq. 10).
double dLdqAt(const Vector6d& W, const Vector6d& Wg, const Vector6d& v, const Vector6d& xi) {
  return W.dot(-detail::adApply(xi, v)) + Wg.dot(xi);
}
}  // namespace

void Tree::lagrangianGradients(VectorXd* dLdq, VectorXd* dLdqdot) const {
  sweep();
  const int n = dof();
  if (dLdq) dLdq->resize(n);
  if (dLdqdot) dLdqdot->resize(n);
  for (int i = 0; i < n; ++i) {
    const auto k = size_t(dynFrame_[size_t(i)]);
    const Vector6d& xi = frames_[k].xi;
    const bool hit = cache_;  // after sweep() every slot holds the current state
    const Vector6d& W = hit ? w_.val[k] : compositeMomentum(int(k));
    if (dLdq) {
      const Vector6d& Wg = hit ? weight_.val[k] : compositeWeight(int(k));
      (*dLdq)(i) = dLdqAt(W, Wg, hit ? v_.val[k] : vb(int(k)), xi);
    }
    if (dLdqdot) (*dLdqdot)(i) = W.dot(xi);
  }
}

}  // namespace varsim::tree
