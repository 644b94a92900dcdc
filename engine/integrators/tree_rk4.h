// engine/integrators/tree_rk4.h — the baseline of seed 003 Sec. VI: classical RK4 on the continuous
// Euler–Lagrange equations (14), qddot = (d²L/dqdot²)^{-1} (f + dL/dq - d²L/dqdot dq qdot), every term
// from the tree (eqs. 16–18). Not variational: its energy drifts at large h (test_tree_rk4).
#pragma once

#include <Eigen/Cholesky>

#include "engine/integrators/tree_stepper.h"

namespace varsim::tree {

class TreeRk4 : public TreeStepper {
 public:
  explicit TreeRk4(Tree& tree) : TreeStepper(tree) {}
  void initialize(const VectorXd& q0, const VectorXd& qdot0, double h, const TreeForcing& f) override;
  void step(const TreeForcing& f) override;
  VectorXd q() const override { return q_; }
  VectorXd qdot() const override { return qd_; }
  std::vector<double> saveState() const override;
  void loadState(const std::vector<double>& s) override;
  VectorXd acceleration(const VectorXd& q, const VectorXd& qdot, const TreeForcing& f) const;  // eq. (14)

 private:
  double h_ = 0;
  VectorXd q_, qd_;
  mutable VectorXd rhs_;  // work storage reused across evaluations
  mutable Eigen::MatrixXd Lqv_, M_;
  mutable Eigen::LDLT<Eigen::MatrixXd> ldlt_;
};

}  // namespace varsim::tree
