// engine/tree/tree_constraints.h — holonomic constraints h(q) = 0 on a tree: fixed-length distances
// between a point on one frame and a point on another (or the world), the strings of a marionette. The
// length is a parameter the caller may change between steps (a kinematic string length). Smooth form
// h = (|p_a - p_b|² - L²) / (2 L), which equals |p_a - p_b| - L to first order and stays differentiable
// when the points meet.
#pragma once

#include <vector>

#include "engine/tree/tree.h"

namespace varsim::tree {

struct DistanceConstraint {
  int frameA = Tree::kWorld;                         // kWorld: pointA is a world point
  Eigen::Vector3d pointA = Eigen::Vector3d::Zero();  // in frame A
  int frameB = Tree::kWorld;
  Eigen::Vector3d pointB = Eigen::Vector3d::Zero();
  double length = 1;  // > 0, m
};

class TreeConstraints {
 public:
  void add(const Tree& t, const DistanceConstraint& c);  // throws BadInput (frame range, length)
  void setLength(int j, double length);                  // throws BadInput
  int count() const { return static_cast<int>(c_.size()); }
  const DistanceConstraint& operator[](int j) const { return c_[j]; }
  TreeConstraints subset(const std::vector<int>& rows) const;  // the listed constraints, in that order

  // At the tree's current q: h(q) (m) and Dh(q) (m x n).
  VectorXd value(const Tree& t) const;
  Eigen::MatrixXd jacobian(const Tree& t) const;

 private:
  std::vector<DistanceConstraint> c_;
};

// World position of a point fixed in frame k (kWorld: the point itself) and its derivative in q_i.
Eigen::Vector3d pointPosition(const Tree& t, int k, const Eigen::Vector3d& r);
Eigen::Vector3d pointDerivative(const Tree& t, int k, const Eigen::Vector3d& r, int i);

}  // namespace varsim::tree
