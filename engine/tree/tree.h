// engine/tree/tree.h — seed 003's tree representation: frames, each a primitive
// transform of its parent (rot x/y/z, trans x/y/z, or a constant transform)
// driven by one dynamic variable, one kinematic (prescribed) variable or a
// constant (Assumptions 1–2), masses on frames, and the recursive frame poses
// g_{s,k}, body velocities and their first/second derivatives (eqs. 1–11),
// memoised per state.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/lie/lie_types.h"

namespace varsim::tree {

using Eigen::Matrix4d;
using Eigen::VectorXd;

enum class Joint { RotX, RotY, RotZ, TransX, TransY, TransZ, Fixed };
enum class Drive { Dynamic, Kinematic, Constant };

// A mass attached at a frame's origin (seed 003 Assumption 3, relaxed to a full
// symmetric inertia about the origin): spatial inertia diag(I, m 1) in the
// (omega, v) ordering of lie_types.h.
struct Mass {
  int frame = 0;
  double m = 0;
  Matrix3d inertia = Matrix3d::Zero();
};

// The spatial inertia of a set of masses seen from one frame, in its coordinates: total mass m, first moment
// h = sum m_i r_i and rotational inertia I about the frame origin; as a 6x6 in the (omega, v) order it is
// [[I, hat(h)], [hat(h)^T, m 1]] (kinetic energy 1/2 x^T (.) x of a twist x of that frame).
struct BodyInertia {
  double m = 0;
  Eigen::Vector3d h = Eigen::Vector3d::Zero();
  Matrix3d I = Matrix3d::Zero();
  Vector6d apply(const Vector6d& x) const;  // the momentum (omega part, v part) of twist x
  // The same masses seen from the parent of a frame that sits at g = (R, p) in it (points r -> R r + p):
  // the congruence Ad_{g^{-1}}^T (.) Ad_{g^{-1}} in 10 numbers instead of a 6x6 product.
  BodyInertia movedBy(const Matrix4d& g) const;
  BodyInertia& operator+=(const BodyInertia& o);
};

class Tree {
 public:
  static constexpr int kWorld = -1;

  // Adds a primitive frame under `parent` (kWorld or an earlier frame).
  // Dynamic: returns the frame and allocates the next dynamic index; Kinematic:
  // the next kinematic index; Constant: `value` fixes it. Throws BadInput on a
  // bad parent or Joint::Fixed (use addFixed).
  int addFrame(int parent, Joint joint, Drive drive, double value = 0);
  int addFixed(int parent,
               const Matrix4d& g);  // constant transform (must be rigid)
  void addMass(int frame, double m,
               const Matrix3d& inertia);            // m >= 0, inertia symmetric PSD
  void setGravity(const Eigen::Vector3d& gravity);  // acceleration vector, default (0,0,-9.81)

  int frames() const { return static_cast<int>(frames_.size()); }
  int dof() const { return static_cast<int>(dynFrame_.size()); }  // dynamic variables n
  int kinematicCount() const { return static_cast<int>(kinFrame_.size()); }
  int parent(int k) const { return frames_[k].parent; }
  int frameOfDof(int i) const { return dynFrame_[i]; }
  const std::vector<Mass>& masses() const { return masses_; }
  const Eigen::Vector3d& gravity() const { return gravity_; }

  // State. A set call that changes a value invalidates the memo of what depends on it (q: everything;
  // qdot: velocities); setting the same values again keeps it.
  void setQ(const VectorXd& q);
  void setQdot(const VectorXd& qdot);
  void setState(const VectorXd& q, const VectorXd& qdot) { setQ(q), setQdot(qdot); }
  void setKinematic(const VectorXd& value,
                    const VectorXd& rate);  // prescribed variables and rates
  const VectorXd& q() const { return q_; }
  const VectorXd& qdot() const { return qdot_; }
  const VectorXd& kinematicValue() const { return kinValue_; }
  const VectorXd& kinematicRate() const { return kinRate_; }

  // The switch for seed 003 Fig. 3: off recomputes every quantity from scratch
  // through the whole recursion (as a symbolic expansion would); on memoises
  // each frame quantity once per state.
  void setCache(bool on) { cache_ = on, ++posEpoch_, ++velEpoch_; }
  bool cache() const { return cache_; }

  // Frame k's dynamic ancestors (variables i with frame(i) in anc(k) ∪ {k});
  // all derivatives below are zero for any other i (first case of eqs. 4, 8, 9,
  // 11).
  const std::vector<int>& dynamicAncestors(int k) const { return frames_[k].anc; }
  bool dependsOn(int k, int i) const { return pos(k, i) >= 0; }

  // Eqs. (1), (3), (4): g_{s,k}, dg_{s,k}/dq_i, d²g_{s,k}/dq_i dq_j.
  const Matrix4d& g(int k) const;
  Matrix4d dg(int k, int i) const;
  Matrix4d ddg(int k, int i, int j) const;
  // Eqs. (6)–(11) in twist form v = (omega, v) (the intrinsic Ad form seed 003
  // mentions after eq. 6): v_k^b, dv/dq_i, dv/dqdot_i, d²v/dq_i dq_j, d²v/dq_i
  // dqdot_j. d²v/dqdot² = 0 (v is linear in qdot).
  const Vector6d& vb(int k) const;
  Vector6d dvbDq(int k, int i) const;
  Vector6d dvbDqdot(int k, int i) const;
  Vector6d ddvbDqDq(int k, int i, int j) const;
  Vector6d ddvbDqDqdot(int k, int i, int j) const;

  // Composite quantities of the subtree below frame f (f and its descendants), in f's coordinates, by the
  // recursion over children (memoised like the rest; q: inertia, q and qdot: momentum). The Lagrangian's
  // sums over masses of terms that all pass through one frame (every derivative in q_i or qdot_i with i
  // driven at f moves to f by Ad, eqs. 7-11) regroup into one product with these: tree_lagrangian.cpp.
  const BodyInertia& compositeInertia(int f) const;  // sum over masses k in sub(f) of Ad^T M_k Ad
  const Vector6d& compositeMomentum(int f) const;  // sum over masses k in sub(f) of Ad^T M_k v_k^b
  // Gravity: its acceleration in frame k's coordinates, R_{s,k}^T gravity, and the composite of the weights
  // sum over masses k in sub(f) of Ad^T (0, m_k R_{s,k}^T gravity) (so dV/dq_i = -W^g_{f_i} . xi_i, eq. 3).
  const Eigen::Vector3d& gravityIn(int k) const;
  const Vector6d& compositeWeight(int f) const;
  // The composite momentum of every frame (out[k] for frame k) for the velocity sum_i v_i dv/dqdot_i, i.e.
  // generalised velocity v and kinematic rates 0, without touching the state: O(frames), not memoised.
  void compositeMomentumFor(const VectorXd& v, std::vector<Vector6d, Eigen::aligned_allocator<Vector6d>>& out) const;
  // With the cache on: every frame's v_k^b, gravity, composite momentum and composite weight at the current state
  // in two sweeps over the frames (parents first, then children first), stored in the memo as the accessors above
  // would store them (same arithmetic: primitive_ops.h), so they read them afterwards. O(frames) without the
  // accessors' recursion; a no-op when the state has not changed since, or with the cache off (tree_sweep.cpp).
  void sweep() const;
  // dL/dq (eq. 16) and dL/dqdot into the non-null outputs (resized to dof()): per variable i at its frame f,
  // W_f . dv_f/dq_i + W^g_f . xi_i and W_f . xi_i (tree_lagrangian.cpp's regrouping), after sweep() from the
  // memo slots directly; through the accessors with the cache off.
  void lagrangianGradients(VectorXd* dLdq, VectorXd* dLdqdot) const;
  const std::vector<int>& children(int f) const { return children_[f]; }
  // Frame k's first derivatives for all its dynamic ancestors at once, in dynamicAncestors(k) order
  // (dvbDqdot / dvbDq of each): the memo unit of eqs. (7) and (10) is the frame's row, built from the
  // parent's row in one pass. The pointer is valid until the tree's structure changes.
  const Vector6d* dvbDqdotRow(int k) const;
  const Vector6d* dvbDqRow(int k) const;

 private:
  struct Frame {
    int parent = kWorld;
    Joint joint = Joint::Fixed;
    Drive drive = Drive::Constant;
    int var = -1;            // dynamic or kinematic index
    double value = 0;        // constant drive
    Matrix4d fixed;          // Joint::Fixed
    Vector6d xi = Vector6d::Zero();  // xi_k (zero for Joint::Fixed)
    std::vector<int> anc;    // dynamic ancestors incl. own, ascending
    int off1 = 0, off2 = 0;  // memo offsets (first/second derivative slots)
  };
  template <class T>
  struct Memo {
    std::vector<T, Eigen::aligned_allocator<T>> val;
    std::vector<std::uint64_t> stamp;
    void resize(size_t n) { val.resize(n), stamp.assign(n, 0); }
    void grow(size_t n) { val.resize(n), stamp.resize(n, 0); }  // keeps the slots already there
  };

  // Where variable i sits in anc(k), or -1: a variable has one position in the anc list of every frame
  // below it (the count of dynamic ancestors above its own frame), so membership is one comparison.
  int pos(int k, int i) const {
    const std::vector<int>& anc = frames_[k].anc;
    const int d = depth_[static_cast<size_t>(i)];
    return d < static_cast<int>(anc.size()) && anc[static_cast<size_t>(d)] == i ? d : -1;
  }
  // Appends one frame and its memo slots in O(|anc|) (amortised): building a tree of N frames is linear in
  // its memo size, never a re-index of the whole tree per frame.
  int addRaw(Frame f);
  // The tables of second derivatives (sum over frames of |anc|^2 slots, cubic in a chain's length) and of
  // dg (eq. 3) are sized on first use: the Lagrangian and the mass matrix only read composites and rows.
  void ensureSecondOrder() const;
  void ensureDg() const;
  double variable(const Frame& f) const;  // the frame's driving value
  double rate(const Frame& f) const;      // its time derivative
  const Matrix4d& local(const Frame& f) const;  // g_k(q_k), memoised like everything else
  // Moves through frame f's primitive transform g_f = (R, p) using its structure (a rotation has p = 0, a
  // translation R = 1; Assumption 1): a twist of the parent seen in f, Ad_{g_f^{-1}} x (eq. 6), and a
  // momentum / the inertia of f's subtree seen from the parent.
  Vector6d toChild(const Frame& f, const Vector6d& x) const;
  Vector6d momentumToParent(const Frame& f, const Vector6d& mu) const;
  BodyInertia inertiaToParent(const Frame& f, const BodyInertia& b) const;
  void toChildRow(const Frame& f, const Vector6d* in, Vector6d* out, size_t n) const;  // toChild of n twists
  Matrix4d computeLocal(const Frame& f) const;  // exp(hat(xi_k) q_k) or the constant transform
  Vector6d twist(const Frame& f) const { return f.xi; }
  bool own(int k, int i) const { return frames_[k].drive == Drive::Dynamic && frames_[k].var == i; }
  // Memo lookup/store: with the cache on, a slot is valid while its stamp
  // equals the epoch.
  template <class T, class F>
  const T& memo(Memo<T>& m, size_t slot, std::uint64_t epoch, F compute) const;

  // The recursions themselves (tree_kinematics.cpp, tree_velocity.cpp).
  Matrix4d computeG(int k) const;
  Matrix4d computeDg(int k, int i) const;
  Matrix4d computeDdg(int k, int i, int j) const;
  Vector6d computeVb(int k) const;
  Vector6d computeDdvbDqDq(int k, int i, int j) const;
  Vector6d computeDdvbDqDqdot(int k, int i, int j) const;
  void computeDvbDqdotRow(int k) const;
  void computeDvbDqRow(int k) const;
  Vector6d ownDvbDq(int k) const;  // eq. (7), i = k
  BodyInertia computeCompositeInertia(int f) const;
  Vector6d computeCompositeWeight(int f) const;
  Vector6d computeCompositeMomentum(int f) const;

  std::vector<Frame> frames_;
  std::vector<int> dynFrame_, kinFrame_;
  std::vector<int> depth_;  // per dynamic variable: its position in anc of every frame below it
  size_t o1_ = 0, o2_ = 0;  // memo slots of first / second derivatives over all frames
  std::vector<Mass> masses_;
  std::vector<BodyInertia> own_;           // per frame: its own masses (at its origin)
  std::vector<std::vector<int>> children_;  // per frame, ascending
  Eigen::Vector3d gravity_{0, 0, -9.81};
  VectorXd q_, qdot_, kinValue_, kinRate_;
  bool cache_ = true;
  std::uint64_t posEpoch_ = 1, velEpoch_ = 1;
  mutable Memo<Matrix4d> local_, g_, dg_, ddg_;
  mutable Memo<Vector6d> v_, dvq_, dvqd_, ddvqq_, ddvqqd_, w_;
  mutable Memo<BodyInertia> ic_;
  mutable Memo<Vector6d> weight_;
  mutable Memo<Eigen::Vector3d> gravityIn_;
  mutable std::vector<std::uint64_t> rowJStamp_, rowDStamp_;  // per frame, for the dvqd_ / dvq_ rows
  mutable std::uint64_t sweepStamp_ = 0;                      // velEpoch_ of the last sweep()
};

// Uncached, the slot is recomputed on every call (its stamp never matches); a recomputation only ever
// writes the same bits for the same state, so references handed out stay correct.
template <class T, class F>
const T& Tree::memo(Memo<T>& m, size_t slot, std::uint64_t epoch, F compute) const {
  if (!cache_ || m.stamp[slot] != epoch) m.val[slot] = compute(), m.stamp[slot] = cache_ ? epoch : 0;
  return m.val[slot];
}

// Ad_{g^{-1}} xi for g = (R, p): (R^T w, R^T (v - p x w)) — the twist form of
// g^{-1} hat(xi) g (eq. 6).
Vector6d adInvApply(const Matrix4d& g, const Vector6d& xi);
// ad_xi eta = (w x eta_w, v x eta_w + w x eta_v) — the twist of the commutator
// [hat(xi), hat(eta)].
Vector6d adApply(const Vector6d& xi, const Vector6d& eta);
// ad_xi^T mu: (mu_w x w + mu_v x v, mu_v x w) — so that mu . [xi, eta] = (ad_xi^T mu) . eta.
Vector6d adTransposeApply(const Vector6d& xi, const Vector6d& mu);
// Ad_{g^{-1}}^T mu for g = (R, p): (R mu_w + p x R mu_v, R mu_v) — a momentum of the frame at g moved to
// its parent (mu . Ad_{g^{-1}} x = (Ad_{g^{-1}}^T mu) . x).
Vector6d adInvTransposeApply(const Matrix4d& g, const Vector6d& mu);

}  // namespace varsim::tree
