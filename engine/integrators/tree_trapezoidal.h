// engine/integrators/tree_trapezoidal.h — seed 002 Sec. 3–4: the trapezoidal variational integrator in
// generalized coordinates, L_d = h/2 [L(q_k, v_{k+1}) + L(q_{k+1}, v_{k+1})] with L = 1/2 v^T M(q) v - V(q)
// and f_d^± = h/2 f, i.e. eq. (21)/(22); each step solves e_k(v) = 0 (eq. 24) for v_{k+1} by Newton from
// v = v_k (Algorithm 1) with the Jacobian (25); q_{k+1} = q_k + h v_{k+1}. Forcing f = f^x + B u with
// f^x = -c∘v (joint damping) and B = 1 (tree_stepper.h). Kinematic rates do not enter this L. A step whose
// Newton fails is retried in 2, 4, ... 64 sub-steps (ImplicitTreeStepper; bit-identical when none is needed).
#pragma once

#include <vector>

#include "engine/integrators/tree_stepper.h"

namespace varsim::tree {

// b_k(v_k, q_k, v) - B(q_k) u of eq. (23) from R(x) = (I ⊗ x^T)∇M(q_k) at x = v_k (Rvk) and x = v (Rv) and ∇V(q_k):
// the part of e_k (24) that is not the momentum difference (also the L0 of engine/tree/solvability_bound.h).
VectorXd trapezoidalBias(const Eigen::MatrixXd& Rvk, const Eigen::MatrixXd& Rv, const VectorXd& gradVk,
                         const VectorXd& vk, const VectorXd& v, const TreeForcing& f);

class TreeTrapezoidal : public ImplicitTreeStepper {
 public:
  explicit TreeTrapezoidal(Tree& tree) : ImplicitTreeStepper(tree) {}

  // Discrete Legendre transform: v_0 = qdot_0 and the stored momentum term 1/2 [M(q_{-1}) + M(q_0)] v_0 is
  // chosen so that the discrete momentum at t_0 (the terms of (21) known before the step) equals the
  // continuous momentum M(q_0) qdot_0.
  void initialize(const VectorXd& q0, const VectorXd& qdot0, double h, const TreeForcing& f) override;
  void step(const TreeForcing& f) override;
  VectorXd q() const override { return q_; }
  VectorXd qdot() const override;  // M(q_k)^{-1} times the conservative discrete momentum at t_k
  int newtonIterations() const override { return iters_; }
  std::vector<double> saveState() const override;
  void loadState(const std::vector<double>& s) override;
  const VectorXd& v() const { return v_; }  // v_k = (q_k - q_{k-1}) / h

  // e_k(v) (eq. 24) and De_k(v) (eq. 25) at the current state, exposed for tests and the solvability monitor.
  VectorXd residual(const VectorXd& v, const TreeForcing& f) const;
  Eigen::MatrixXd jacobian(const VectorXd& v, const TreeForcing& f) const;

 private:
  struct AtQk {  // quantities at (q_k, v_k), fixed during a step
    Eigen::MatrixXd M;
    Eigen::MatrixXd Rvk;  // (I ⊗ v_k^T)∇M(q_k), without the tensor (tree_lagrangian.h)
    VectorXd gradV;
  };
  // The v-dependent pieces of (24)–(25) for the last v asked (Newton evaluates e_k and De_k at the same v):
  // Rk = (I ⊗ v^T)∇M(q_k), M1 = M(q_k + h v), R1 = (I ⊗ v^T)∇M(q_k + h v). Valid while q_k, v_k, h and the
  // tree's kinematic values stay (refreshAtQk clears it).
  struct AtV {
    VectorXd v;
    Eigen::MatrixXd Rk, M1, R1;
    bool hasR1 = false;
  };
  const AtV& piecesAt(const VectorXd& v, bool withR1) const;
  void refreshAtQk();
  VectorXd knownMomentum() const;  // h/4 (I ⊗ v_k^T)∇M v_k - h/2 ∇V at q_k (conservative)
  int advance(const TreeForcing& f) override;
  // The discrete momentum at t_k, pm + h/4 (I ⊗ v_k^T)∇M v_k - h/2 ∇V + h/2 f(v_k) (the terms of (21) known
  // before the step), is linear in h: a new step size keeps it (and v_k) by moving pm.
  void rescale(double h, const TreeForcing& f);
  void beginSubsteps(int n, const TreeForcing& f) override { wholeH_ = h_, rescale(h_ / n, f); }
  void endSubsteps(const TreeForcing& f) override { rescale(wholeH_, f); }

  double h_ = 0, wholeH_ = 0;
  VectorXd q_, v_, pm_;  // pm_ = 1/2 [M(q_{k-1}) + M(q_k)] v_k
  AtQk at_;
  mutable AtV atV_;
  int iters_ = 0;
};

}  // namespace varsim::tree
