// engine/integrators/tree_midpoint.h — seed 003 Sec. VII: the variational integrator on a tree with the
// generalized midpoint discrete Lagrangian L_d = h L(q_k + α(q_{k+1} - q_k), (q_{k+1} - q_k)/h) (eq. 22),
// forced by discrete Lagrange–d'Alembert (f_d^- = (1-α) h f, f_d^+ = α h f at the same point), written in
// position–momentum form: p_k + D_1 L_d(q_k, q_{k+1}) + f_d^- = 0 (eqs. 21, 23, 25) solved by Newton with
// the analytic Jacobian (26) (corrected: see tree_midpoint.cpp), p_{k+1} = D_2 L_d + f_d^+ (eq. 24).
// A step whose Newton fails is retried in 2, 4, ... 64 sub-steps (ImplicitTreeStepper; bit-identical when none
// is needed).
// Without constraints Newton keeps the Jacobian of its first iterate while that contracts by 4x per
// iteration (refreshing it otherwise) and stops on the same test as solveNewton (tree_midpoint.cpp).
#pragma once

#include <Eigen/LU>

#include "engine/integrators/tree_stepper.h"

namespace varsim::tree {

class TreeMidpoint : public ImplicitTreeStepper {
 public:
  TreeMidpoint(Tree& tree, double alpha = 0.5);  // alpha in [0, 1], BadInput otherwise

  // Discrete Legendre transform (momentum matching): p_0 = dL/dqdot(q_0, qdot_0), the continuous
  // momentum, is taken as the discrete momentum D_2 L_d(q_{-1}, q_0) + f_d^+ of a virtual previous step.
  void initialize(const VectorXd& q0, const VectorXd& qdot0, double h, const TreeForcing& f) override;
  void step(const TreeForcing& f) override;
  VectorXd q() const override { return q_; }
  VectorXd qdot() const override;  // solves p_k = dL/dqdot(q_k, qdot) for qdot
  int newtonIterations() const override { return iters_; }
  std::vector<double> saveState() const override;
  void loadState(const std::vector<double>& s) override;
  const VectorXd& momentum() const { return p_; }
  double alpha() const { return alpha_; }

  // The step equation (25) r(q_{k+1}) = p_k + D_1 L_d(q_k, q_{k+1}) + f_d^- and its Jacobian (26), exposed
  // for the finite-difference tests and the solvability readout.
  VectorXd residual(const VectorXd& q1, const TreeForcing& f) const;
  Eigen::MatrixXd jacobian(const VectorXd& q1, const TreeForcing& f) const;
  VectorXd nextMomentum(const VectorXd& q1, const TreeForcing& f) const;  // eq. (24) + f_d^+

 private:
  void evaluate(const VectorXd& q1) const;  // puts the tree at (q_α, (q1 - q_k)/h)
  void residualInto(const VectorXd& q1, const TreeForcing& f, VectorXd& r) const;
  void jacobianInto(const VectorXd& q1, const TreeForcing& f, Eigen::MatrixXd& J) const;
  int solveUnconstrained(const TreeForcing& f, VectorXd& q1);
  int advance(const TreeForcing& f) override;
  // p_k does not depend on h: sub-steps only change h_; afterwards the predictor's history is in whole steps.
  void beginSubsteps(int n, const TreeForcing& f) override;
  void endSubsteps(const TreeForcing& f) override;

  double alpha_, h_ = 0;
  VectorXd q_, p_, vPrev_, vPrev2_;  // (q_k - q_{k-1})/h and the one before, for the predictor
  int iters_ = 0;
  struct {
    double h = 0;
    VectorXd q0, v1;  // q_k and (q_k - q_{k-1})/h when the sub-steps began
  } whole_;
  // Work storage reused from step to step (no allocation in the Newton loop's matrices).
  mutable VectorXd qa_, va_, lq_, lv_, r_, d_;
  mutable Eigen::MatrixXd Lqq_, Lqv_, M_, J_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
};

}  // namespace varsim::tree
