// engine/integrators/tree_midpoint.cpp — seed 003 eqs. (21)–(26) on the tree, with forcing.
// Jacobian (26) as printed has two slips (checked against finite differences in test_tree_midpoint):
// its second term must be d²L/dq dqdot (not d²L/dqdot dqdot), and the mixed terms are transposes of
// each other. With Lqv(i, j) = d²L/dq_i dqdot_j, v = (q_{k+1} - q_k)/h and damping c, the derivative of
// (25) with respect to q_{k+1} is
//   α(1-α) h Lqq + (1-α) Lqv - α Lqv^T - M / h - (1-α) diag(c)
// (plus α(1-α) h dF/dq + (1-α) dF/dqdot of a state force F(q_α, v), TreeForcing::addJacobian).
#include "engine/integrators/tree_midpoint.h"

#include <Eigen/Dense>
#include <cmath>
#include <string>

#include "engine/sim/errors.h"
#include "engine/tree/tree_lagrangian.h"

namespace varsim::tree {

TreeMidpoint::TreeMidpoint(Tree& tree, double alpha) : TreeStepper(tree), alpha_(alpha) {
  if (!(alpha >= 0 && alpha <= 1)) throw BadInput("midpoint: alpha = " + std::to_string(alpha) + " not in [0, 1]");
}

void TreeMidpoint::initialize(const VectorXd& q0, const VectorXd& qdot0, double h, const TreeForcing& f) {
  if (!(h > 0) || !std::isfinite(h)) throw BadInput("midpoint: dt = " + std::to_string(h) + " must be > 0");
  f.validate(tree_.dof());
  tree_.setState(q0, qdot0);  // validates sizes
  h_ = h, q_ = q0, p_ = dLdqdot(tree_), iters_ = 0;
}

void TreeMidpoint::evaluate(const VectorXd& q1) const {
  kinematicAt(alpha_);  // kinematic variables at t_k + alpha h when they move over the step
  tree_.setState(q_ + alpha_ * (q1 - q_), (q1 - q_) / h_);
}

VectorXd TreeMidpoint::residual(const VectorXd& q1, const TreeForcing& f) const {
  evaluate(q1);
  return p_ + (1 - alpha_) * h_ * (dLdq(tree_) + f.force(tree_)) - dLdqdot(tree_);  // eq. (23) + f_d^-
}

Eigen::MatrixXd TreeMidpoint::jacobian(const VectorXd& q1, const TreeForcing& f) const {
  evaluate(q1);
  const Eigen::MatrixXd Lqv = d2LdqDqdot(tree_);
  Eigen::MatrixXd J = alpha_ * (1 - alpha_) * h_ * d2LdqDq(tree_) + (1 - alpha_) * Lqv - alpha_ * Lqv.transpose() -
                      massMatrix(tree_) / h_;
  f.addJacobian(tree_, alpha_ * (1 - alpha_) * h_, 1 - alpha_, J);  // f at (q_alpha, v)
  return J;
}

VectorXd TreeMidpoint::nextMomentum(const VectorXd& q1, const TreeForcing& f) const {
  evaluate(q1);
  return alpha_ * h_ * (dLdq(tree_) + f.force(tree_)) + dLdqdot(tree_);  // eq. (24) + f_d^+
}

void TreeMidpoint::step(const TreeForcing& f) {
  if (h_ <= 0) throw BadInput("midpoint: step before initialize");
  f.validate(tree_.dof());
  VectorXd q1 = q_ + h_ * qdot();  // explicit predictor
  const NewtonProblem problem{[&](const VectorXd& x) { return residual(x, f); },
                              [&](const VectorXd& x) { return jacobian(x, f); }};
  const int it = solveStep(problem, q_, VectorXd::Zero(q_.size()), 1.0, q1);
  if (it < 0)
    throw SimulationDiverged("midpoint: Newton on eq. (25) did not converge (h = " + std::to_string(h_) + ")");
  const VectorXd p1 = nextMomentum(q1, f);
  kinematicAt(1);
  q_ = q1, p_ = p1, iters_ = it;
}

VectorXd TreeMidpoint::qdot() const {
  // dL/dqdot = M(q) qdot + dL/dqdot(q, 0) (the latter from kinematic rates), linear in qdot.
  tree_.setState(q_, VectorXd::Zero(tree_.dof()));
  return massMatrix(tree_).ldlt().solve(p_ - dLdqdot(tree_));
}

std::vector<double> TreeMidpoint::saveState() const {
  std::vector<double> s{h_, double(iters_)};  // [h, iterations, q_k, p_k]
  appendVector(s, q_), appendVector(s, p_);
  return s;
}

void TreeMidpoint::loadState(const std::vector<double>& s) {
  checkStateSize(s, 2, 2, "midpoint");
  size_t at = 2;
  h_ = s[0], iters_ = int(s[1]), q_ = takeVector(s, at), p_ = takeVector(s, at);
}

}  // namespace varsim::tree
