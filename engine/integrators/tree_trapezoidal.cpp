// engine/integrators/tree_trapezoidal.cpp — seed 002 eqs. (21)–(25), Algorithm 1, on the tree's M, ∇M,
// ∇V. Checked: (21) follows from the DEL equations of the trapezoidal L_d (both ∇M terms at q_k), and
// the printed Jacobian (25) is the exact derivative of (24) (test_tree_trapezoidal, finite differences).
#include "engine/integrators/tree_trapezoidal.h"

#include <Eigen/Dense>
#include <cmath>
#include <string>

#include "engine/sim/errors.h"
#include "engine/tree/tree_lagrangian.h"

namespace varsim::tree {

namespace {

// M(q) and ∇M(q) at q (the tree's velocity does not enter them).
void massAt(Tree& t, const VectorXd& q, Eigen::MatrixXd* M, std::vector<Eigen::MatrixXd>* gradM) {
  t.setQ(q);
  if (M) *M = massMatrix(t);
  if (gradM) *gradM = massMatrixGradient(t);
}

}  // namespace

VectorXd trapezoidalBias(const std::vector<Eigen::MatrixXd>& gradMk, const VectorXd& gradVk, const VectorXd& vk,
                         const VectorXd& v, const TreeForcing& f) {
  // f.force() = f^x + B u, so -1/2 [f^x(v_k) + f^x(v)] - B u = -1/2 [f(v_k) + f(v)].
  return -0.25 * (contractRows(gradMk, vk) * vk + contractRows(gradMk, v) * v) + gradVk - 0.5 * (f.force(vk) + f.force(v));
}

void TreeTrapezoidal::refreshAtQk() {
  massAt(tree_, q_, &at_.M, &at_.gradM);
  at_.gradV = gradV(tree_);
}

VectorXd TreeTrapezoidal::knownMomentum(const VectorXd& vk) const {
  return h_ / 4 * contractRows(at_.gradM, vk) * vk - h_ / 2 * at_.gradV;
}

void TreeTrapezoidal::initialize(const VectorXd& q0, const VectorXd& qdot0, double h, const TreeForcing& f) {
  if (!(h > 0) || !std::isfinite(h)) throw BadInput("trapezoidal: dt = " + std::to_string(h) + " must be > 0");
  f.validate(tree_.dof());
  tree_.setState(q0, qdot0);  // validates sizes
  h_ = h, q_ = q0, v_ = qdot0, iters_ = 0;
  refreshAtQk();
  pm_ = at_.M * qdot0 - knownMomentum(v_) - h / 2 * f.force(v_);
}

VectorXd TreeTrapezoidal::residual(const VectorXd& v, const TreeForcing& f) const {
  Eigen::MatrixXd M1;
  massAt(tree_, q_ + h_ * v, &M1, nullptr);
  return 0.5 * (at_.M + M1) * v - pm_ + h_ * trapezoidalBias(at_.gradM, at_.gradV, v_, v, f);  // eq. (24)
}

Eigen::MatrixXd TreeTrapezoidal::jacobian(const VectorXd& v, const TreeForcing& f) const {
  Eigen::MatrixXd M1;
  std::vector<Eigen::MatrixXd> gradM1;
  massAt(tree_, q_ + h_ * v, &M1, &gradM1);
  Eigen::MatrixXd J = 0.5 * (at_.M + M1) + h_ / 2 * (contractColumns(gradM1, v) - contractRows(at_.gradM, v));
  J.diagonal() += h_ / 2 * f.dampingOr0(tree_.dof());  // -h/2 D_2 f^x with D_2 f^x = -diag(c)
  return J;
}

void TreeTrapezoidal::step(const TreeForcing& f) {
  if (h_ <= 0) throw BadInput("trapezoidal: step before initialize");
  f.validate(tree_.dof());
  VectorXd v = v_;  // Algorithm 1: Newton from v = v_k
  const NewtonProblem problem{[&](const VectorXd& x) { return residual(x, f); },
                              [&](const VectorXd& x) { return jacobian(x, f); }};
  const int it = solveStep(problem, q_, q_, h_, v);
  if (it < 0) {
    refreshAtQk();  // the tree was moved by the failed iterations; the integrator state is unchanged
    throw SimulationDiverged("trapezoidal: Newton on eq. (24) did not converge (h = " + std::to_string(h_) + ")");
  }
  const Eigen::MatrixXd Mk = at_.M;
  q_ += h_ * v, v_ = v, iters_ = it;
  refreshAtQk();
  pm_ = 0.5 * (Mk + at_.M) * v_;
}

VectorXd TreeTrapezoidal::qdot() const { return at_.M.ldlt().solve(pm_ + knownMomentum(v_)); }

std::vector<double> TreeTrapezoidal::saveState() const {
  std::vector<double> s{h_, double(iters_)};  // [h, iterations, q_k, v_k, pm]; at_ is recomputed from q_k
  appendVector(s, q_), appendVector(s, v_), appendVector(s, pm_);
  return s;
}

void TreeTrapezoidal::loadState(const std::vector<double>& s) {
  checkStateSize(s, 2, 3, "trapezoidal");
  size_t at = 2;
  h_ = s[0], iters_ = int(s[1]), q_ = takeVector(s, at), v_ = takeVector(s, at), pm_ = takeVector(s, at);
  refreshAtQk();
}

}  // namespace varsim::tree
