// engine/tree/tree.cpp — building a seed 003 tree (frames, drives, masses), its
// state, and the primitive transforms g_k(q_k) = exp(hat(xi_k) q_k) with their
// twists xi_k (Assumption 1). The recursions live in tree_kinematics.cpp (eqs.
// 1–4) and tree_velocity.cpp (eqs. 5–11).
#include "engine/tree/tree.h"

#include <Eigen/Dense>
#include <cmath>
#include <string>

#include "engine/sim/errors.h"
#include "engine/tree/primitive_ops.h"

namespace varsim::tree {

namespace {

bool isRotation(Joint j) { return j == Joint::RotX || j == Joint::RotY || j == Joint::RotZ; }
int axisOf(Joint j) {
  switch (j) {
    case Joint::RotX:
    case Joint::TransX:
      return 0;
    case Joint::RotY:
    case Joint::TransY:
      return 1;
    default:
      return 2;
  }
}

}  // namespace

Vector6d adInvApply(const Matrix4d& g, const Vector6d& xi) {
  const Matrix3d R = g.topLeftCorner<3, 3>();
  const Eigen::Vector3d p = g.topRightCorner<3, 1>();
  Vector6d out;
  out.head<3>() = R.transpose() * xi.head<3>();
  out.tail<3>() = R.transpose() * (xi.tail<3>() - p.cross(xi.head<3>()));
  return out;
}

Vector6d adApply(const Vector6d& xi, const Vector6d& eta) { return detail::adApply(xi, eta); }

int Tree::addRaw(Frame f) {
  if (f.parent != kWorld && (f.parent < 0 || f.parent >= frames())) {
    throw BadInput("tree: parent frame " + std::to_string(f.parent) + " out of range [-1, " +
                   std::to_string(frames() - 1) + "]");
  }
  const int k = frames();
  f.xi.setZero();
  if (f.joint != Joint::Fixed) f.xi(axisOf(f.joint) + (isRotation(f.joint) ? 0 : 3)) = 1;
  if (f.parent != kWorld) f.anc = frames_[f.parent].anc;
  if (f.drive == Drive::Dynamic) {
    f.var = dof(), dynFrame_.push_back(k), depth_.push_back(static_cast<int>(f.anc.size()));
    f.anc.push_back(f.var);  // indices grow down the tree: stays sorted
    q_.conservativeResize(dof()), qdot_.conservativeResize(dof());
    q_(f.var) = qdot_(f.var) = 0;
  }
  if (f.drive == Drive::Kinematic) {
    f.var = kinematicCount(), kinFrame_.push_back(k);
    kinValue_.conservativeResize(kinematicCount()), kinRate_.conservativeResize(kinematicCount());
    kinValue_(f.var) = kinRate_(f.var) = 0;
  }
  f.off1 = static_cast<int>(o1_), f.off2 = static_cast<int>(o2_);
  o1_ += f.anc.size(), o2_ += f.anc.size() * f.anc.size();
  if (f.parent != kWorld) children_[static_cast<size_t>(f.parent)].push_back(k);  // k is the largest: ascending
  frames_.push_back(std::move(f));
  own_.emplace_back(), children_.emplace_back();
  const size_t n = frames_.size();
  local_.grow(n), g_.grow(n), v_.grow(n), ic_.grow(n), w_.grow(n), weight_.grow(n), gravityIn_.grow(n);
  rowJStamp_.resize(n, 0), rowDStamp_.resize(n, 0);
  dvq_.grow(o1_), dvqd_.grow(o1_);
  ++posEpoch_, ++velEpoch_;
  return k;
}

int Tree::addFrame(int parent, Joint joint, Drive drive, double value) {
  if (joint == Joint::Fixed) throw BadInput("tree: Joint::Fixed needs a transform (use addFixed)");
  if (!std::isfinite(value)) throw BadInput("tree: constant drive value must be finite");
  Frame f;
  f.parent = parent, f.joint = joint, f.drive = drive, f.value = value;
  f.fixed.setIdentity();
  return addRaw(f);
}

int Tree::addFixed(int parent, const Matrix4d& g) {
  const Matrix3d R = g.topLeftCorner<3, 3>();
  const bool rigid = g.allFinite() && (R.transpose() * R - Matrix3d::Identity()).norm() < 1e-9 && R.determinant() > 0 &&
                     (g.row(3) - Eigen::RowVector4d(0, 0, 0, 1)).norm() == 0;
  if (!rigid)
    throw BadInput(
        "tree: fixed transform is not a rigid motion (R "
        "orthonormal, last row 0 0 0 1)");
  Frame f;
  f.parent = parent, f.joint = Joint::Fixed, f.drive = Drive::Constant, f.fixed = g;
  return addRaw(f);
}

void Tree::addMass(int frame, double m, const Matrix3d& inertia) {
  if (frame < 0 || frame >= frames()) {
    throw BadInput("tree: mass frame " + std::to_string(frame) + " out of range [0, " + std::to_string(frames() - 1) +
                   "]");
  }
  const bool symmetric = (inertia - inertia.transpose()).norm() <= 1e-12 * (1 + inertia.norm());
  if (!std::isfinite(m) || m < 0 || !inertia.allFinite() || !symmetric ||
      Eigen::SelfAdjointEigenSolver<Matrix3d>(inertia).eigenvalues().minCoeff() < 0) {
    throw BadInput(
        "tree: mass must be finite >= 0 with a symmetric positive "
        "semi-definite inertia");
  }
  masses_.push_back({frame, m, inertia});
  own_[frame].m += m, own_[frame].I += inertia;  // at the frame origin: no first moment
  ++posEpoch_, ++velEpoch_;
}

void Tree::setGravity(const Eigen::Vector3d& gravity) {
  if (!gravity.allFinite()) throw BadInput("tree: gravity must be finite");
  gravity_ = gravity;
  ++posEpoch_, ++velEpoch_;
}

void Tree::ensureSecondOrder() const {
  if (ddg_.val.size() != o2_) ddg_.resize(o2_), ddvqq_.resize(o2_), ddvqqd_.resize(o2_);
}

void Tree::ensureDg() const {
  if (dg_.val.size() != o1_) dg_.resize(o1_);
}

void Tree::setQ(const VectorXd& q) {
  if (q.size() != dof() || !q.allFinite()) {
    throw BadInput("tree: q must have " + std::to_string(dof()) + " finite entries");
  }
  if (q == q_) return;  // same state: the memo stays valid (Newton evaluates r and J at one point)
  q_ = q, ++posEpoch_, ++velEpoch_;
}

void Tree::setQdot(const VectorXd& qdot) {
  if (qdot.size() != dof() || !qdot.allFinite()) {
    throw BadInput("tree: qdot must have " + std::to_string(dof()) + " finite entries");
  }
  if (qdot == qdot_) return;
  qdot_ = qdot, ++velEpoch_;
}

void Tree::setKinematic(const VectorXd& value, const VectorXd& rate) {
  if (value.size() != kinematicCount() || rate.size() != kinematicCount() || !value.allFinite() || !rate.allFinite()) {
    throw BadInput("tree: kinematic values/rates must have " + std::to_string(kinematicCount()) + " finite entries");
  }
  if (value == kinValue_ && rate == kinRate_) return;
  kinValue_ = value, kinRate_ = rate, ++posEpoch_, ++velEpoch_;
}

double Tree::variable(const Frame& f) const {
  if (f.drive == Drive::Dynamic) return q_(f.var);
  if (f.drive == Drive::Kinematic) return kinValue_(f.var);
  return f.value;
}

double Tree::rate(const Frame& f) const {
  if (f.drive == Drive::Dynamic) return qdot_(f.var);
  if (f.drive == Drive::Kinematic) return kinRate_(f.var);
  return 0;
}

const Matrix4d& Tree::local(const Frame& f) const {
  const auto k = static_cast<size_t>(&f - frames_.data());
  // A constant frame's transform never changes: once computed with the cache on (stamp != 0) it stays.
  if (cache_ && f.drive == Drive::Constant && local_.stamp[k] != 0) return local_.val[k];
  return memo(local_, k, posEpoch_, [&] { return computeLocal(f); });
}

Matrix4d Tree::computeLocal(const Frame& f) const {
  if (f.joint == Joint::Fixed) return f.fixed;
  Matrix4d g = Matrix4d::Identity();
  const double x = variable(f);
  const int a = axisOf(f.joint);
  if (!isRotation(f.joint)) {
    g(a, 3) = x;
    return g;
  }
  const int b = (a + 1) % 3,
            c = (a + 2) % 3;  // rotation by x in the (b, c) plane
  const double cs = std::cos(x), sn = std::sin(x);
  g(b, b) = cs, g(b, c) = -sn, g(c, b) = sn, g(c, c) = cs;
  return g;
}

}  // namespace varsim::tree
