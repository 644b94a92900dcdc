// engine/tree/tree_constraints.cpp — distance constraints on a tree (see tree_constraints.h); the
// Jacobian uses the frame-pose derivatives of eq. (3).
#include "engine/tree/tree_constraints.h"

#include <cmath>
#include <string>

#include "engine/sim/errors.h"

namespace varsim::tree {

Eigen::Vector3d pointPosition(const Tree& t, int k, const Eigen::Vector3d& r) {
  if (k == Tree::kWorld) return r;
  const Matrix4d g = t.g(k);
  return g.topLeftCorner<3, 3>() * r + g.topRightCorner<3, 1>();
}

Eigen::Vector3d pointDerivative(const Tree& t, int k, const Eigen::Vector3d& r, int i) {
  if (k == Tree::kWorld || !t.dependsOn(k, i)) return Eigen::Vector3d::Zero();
  const Matrix4d dg = t.dg(k, i);
  return dg.topLeftCorner<3, 3>() * r + dg.topRightCorner<3, 1>();
}

void TreeConstraints::add(const Tree& t, const DistanceConstraint& c) {
  for (int k : {c.frameA, c.frameB}) {
    if (k < Tree::kWorld || k >= t.frames()) {
      throw BadInput("tree constraint: frame " + std::to_string(k) + " out of range [-1, " +
                     std::to_string(t.frames() - 1) + "]");
    }
  }
  if (!c.pointA.allFinite() || !c.pointB.allFinite()) throw BadInput("tree constraint: points must be finite");
  c_.push_back(c);
  setLength(count() - 1, c.length);
}

void TreeConstraints::setLength(int j, double length) {
  if (!(length > 0) || !std::isfinite(length)) {
    throw BadInput("tree constraint " + std::to_string(j) + ": length = " + std::to_string(length) + " must be > 0");
  }
  c_.at(j).length = length;
}

TreeConstraints TreeConstraints::subset(const std::vector<int>& rows) const {
  TreeConstraints out;
  for (int j : rows) out.c_.push_back(c_.at(size_t(j)));  // already validated
  return out;
}

VectorXd TreeConstraints::value(const Tree& t) const {
  VectorXd h(count());
  for (int j = 0; j < count(); ++j) {
    const DistanceConstraint& c = c_[j];
    const Eigen::Vector3d d = pointPosition(t, c.frameA, c.pointA) - pointPosition(t, c.frameB, c.pointB);
    h(j) = (d.squaredNorm() - c.length * c.length) / (2 * c.length);
  }
  return h;
}

Eigen::MatrixXd TreeConstraints::jacobian(const Tree& t) const {
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(count(), t.dof());
  for (int j = 0; j < count(); ++j) {
    const DistanceConstraint& c = c_[j];
    const Eigen::Vector3d d = pointPosition(t, c.frameA, c.pointA) - pointPosition(t, c.frameB, c.pointB);
    for (int i = 0; i < t.dof(); ++i) {
      const Eigen::Vector3d dd = pointDerivative(t, c.frameA, c.pointA, i) - pointDerivative(t, c.frameB, c.pointB, i);
      J(j, i) = d.dot(dd) / c.length;
    }
  }
  return J;
}

}  // namespace varsim::tree
