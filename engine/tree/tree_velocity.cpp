// engine/tree/tree_velocity.cpp — seed 003 Sec. IV: body velocities v_k^b (eq.
// 6) and their derivatives (eqs. 7–11) by recursion over the parent, in twist
// form: g_k^{-1} hat(v) g_k = hat(Ad_{g_k^{-1}} v) and, since d/dq_k g_k^{-1} X
// g_k = -[hat(xi_k), g_k^{-1} X g_k], every g_k^{-1}' term becomes -ad_{xi_k}.
#include "engine/tree/tree.h"

namespace varsim::tree {

namespace {
size_t slot2(size_t off2, size_t width, int pi, int pj) { return off2 + static_cast<size_t>(pi) * width + pj; }
}  // namespace

const Vector6d& Tree::vb(int k) const {
  return memo(v_, k, velEpoch_, [&] { return computeVb(k); });
}

Vector6d Tree::dvbDq(int k, int i) const {
  const int p = pos(k, i);
  if (p < 0) return Vector6d::Zero();
  if (own(k, i)) return ownDvbDq(k);  // O(1), without the rest of the row
  return dvbDqRow(k)[p];
}

Vector6d Tree::dvbDqdot(int k, int i) const {
  const int p = pos(k, i);
  if (p < 0) return Vector6d::Zero();  // eq. (10): i not in anc(k)
  if (own(k, i)) return twist(frames_[k]);
  return dvbDqdotRow(k)[p];
}

const Vector6d* Tree::dvbDqdotRow(int k) const {
  if (!cache_ || rowJStamp_[k] != posEpoch_) computeDvbDqdotRow(k), rowJStamp_[k] = cache_ ? posEpoch_ : 0;
  return dvqd_.val.data() + frames_[k].off1;
}

const Vector6d* Tree::dvbDqRow(int k) const {
  if (!cache_ || rowDStamp_[k] != velEpoch_) computeDvbDqRow(k), rowDStamp_[k] = cache_ ? velEpoch_ : 0;
  return dvq_.val.data() + frames_[k].off1;
}

Vector6d Tree::ddvbDqDq(int k, int i, int j) const {
  const int pi = pos(k, i), pj = pos(k, j);
  if (pi < 0 || pj < 0) return Vector6d::Zero();
  ensureSecondOrder();
  const size_t slot = slot2(frames_[k].off2, frames_[k].anc.size(), pi, pj);
  return memo(ddvqq_, slot, velEpoch_, [&] { return computeDdvbDqDq(k, i, j); });
}

Vector6d Tree::ddvbDqDqdot(int k, int i, int j) const {
  const int pi = pos(k, i), pj = pos(k, j);
  if (pi < 0 || pj < 0) return Vector6d::Zero();  // eq. (9), i or j not in anc(k)
  ensureSecondOrder();
  const size_t slot = slot2(frames_[k].off2, frames_[k].anc.size(), pi, pj);
  return memo(ddvqqd_, slot, posEpoch_, [&] { return computeDdvbDqDqdot(k, i, j); });
}

// Eq. (6): v_k = Ad_{g_k^{-1}} v_par + xi_k qdot_k (kinematic drives contribute
// their prescribed rate).
Vector6d Tree::computeVb(int k) const {
  const Frame& f = frames_[k];
  const Vector6d parent = f.parent == kWorld ? Vector6d::Zero() : vb(f.parent);
  return toChild(f, parent) + twist(f) * rate(f);
}

// Eq. (7): i = k differentiates g_k^{-1} (.) g_k, -ad_{xi_k} Ad_{g_k^{-1}} v_par = -ad_{xi_k} v_k (ad_xi xi = 0);
// otherwise the parent's derivative is carried over by Ad_{g_k^{-1}}.
Vector6d Tree::ownDvbDq(int k) const { return -adApply(frames_[k].xi, vb(k)); }

void Tree::computeDvbDqRow(int k) const {
  const Frame& f = frames_[k];
  Vector6d* out = dvq_.val.data() + f.off1;
  const size_t inherited = f.parent == kWorld ? 0 : frames_[f.parent].anc.size();
  if (inherited > 0) toChildRow(f, dvbDqRow(f.parent), out, inherited);
  if (f.drive == Drive::Dynamic) out[inherited] = ownDvbDq(k);
}

// Eq. (10): xi_k for i = k, the parent's carried over otherwise.
void Tree::computeDvbDqdotRow(int k) const {
  const Frame& f = frames_[k];
  Vector6d* out = dvqd_.val.data() + f.off1;
  const size_t inherited = f.parent == kWorld ? 0 : frames_[f.parent].anc.size();
  if (inherited > 0) toChildRow(f, dvbDqdotRow(f.parent), out, inherited);
  if (f.drive == Drive::Dynamic) out[inherited] = twist(f);
}

// Eq. (8): g_k^{-1}'' (.) g_k + 2 g_k^{-1}' (.) g_k' + g_k^{-1} (.) g_k'' =
// ad_xi^2 Ad_{g_k^{-1}} (.) for i = k = j.
Vector6d Tree::computeDdvbDqDq(int k, int i, int j) const {
  const Frame& f = frames_[k];
  const Vector6d xi = twist(f);
  if (own(k, i) && own(k, j)) {
    const Vector6d parent = f.parent == kWorld ? Vector6d::Zero() : vb(f.parent);
    return adApply(xi, adApply(xi, toChild(f, parent)));
  }
  if (own(k, i)) return -adApply(xi, toChild(f, dvbDq(f.parent, j)));
  if (own(k, j)) return -adApply(xi, toChild(f, dvbDq(f.parent, i)));
  return toChild(f, ddvbDqDq(f.parent, i, j));
}

// Eq. (9): d²v_k/dq_i dqdot_j (zero for i = k = j since v_par does not depend
// on qdot_k).
Vector6d Tree::computeDdvbDqDqdot(int k, int i, int j) const {
  const Frame& f = frames_[k];
  if (own(k, i)) {
    if (own(k, j)) return Vector6d::Zero();
    return -adApply(twist(f), toChild(f, dvbDqdot(f.parent, j)));
  }
  return toChild(f, ddvbDqDqdot(f.parent, i, j));
}

}  // namespace varsim::tree
