// engine/tree/tree_kinematics.cpp — seed 003 Sec. III: frame poses g_{s,k} (eq.
// 1) and their first and second derivatives (eqs. 3–4) by recursion over the
// parent, with g_k' = g_k hat(xi_k) and g_k'' = g_k hat(xi_k)^2 for the
// primitive transforms of Assumption 1.
#include "engine/lie/se3.h"
#include "engine/tree/tree.h"

namespace varsim::tree {

const Matrix4d& Tree::g(int k) const {
  return memo(g_, k, posEpoch_, [&] { return computeG(k); });
}

Matrix4d Tree::dg(int k, int i) const {
  const int p = pos(k, i);
  if (p < 0) return Matrix4d::Zero();  // eq. (3): g_{s,k} does not depend on q_i
  ensureDg();
  return memo(dg_, frames_[k].off1 + p, posEpoch_, [&] { return computeDg(k, i); });
}

Matrix4d Tree::ddg(int k, int i, int j) const {
  const int pi = pos(k, i), pj = pos(k, j);
  if (pi < 0 || pj < 0) return Matrix4d::Zero();  // eq. (4), i or j not in anc(k)
  ensureSecondOrder();
  const size_t slot = frames_[k].off2 + static_cast<size_t>(pi) * frames_[k].anc.size() + pj;
  return memo(ddg_, slot, posEpoch_, [&] { return computeDdg(k, i, j); });
}

// Eq. (1): g_{s,k} = g_{s,par(k)} g_k.
Matrix4d Tree::computeG(int k) const {
  const Frame& f = frames_[k];
  return f.parent == kWorld ? local(f) : Matrix4d(g(f.parent) * local(f));
}

// Eq. (3): i = k gives g_{s,par} g_k' = g_{s,k} hat(xi_k); otherwise d
// g_{s,par}/dq_i g_k.
Matrix4d Tree::computeDg(int k, int i) const {
  const Frame& f = frames_[k];
  if (own(k, i)) return g(k) * se3::hat(twist(f));
  return dg(f.parent, i) * local(f);
}

// Eq. (4), the four non-trivial cases.
Matrix4d Tree::computeDdg(int k, int i, int j) const {
  const Frame& f = frames_[k];
  const Matrix4d xiHat = se3::hat(twist(f));
  if (own(k, i) && own(k, j)) return g(k) * xiHat * xiHat;
  if (own(k, i)) return dg(f.parent, j) * local(f) * xiHat;
  if (own(k, j)) return dg(f.parent, i) * local(f) * xiHat;
  return ddg(f.parent, i, j) * local(f);
}

}  // namespace varsim::tree
