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

// (I ⊗ v^T)∇M(q) at q without the tensor (massGradientContraction; the tree's velocity does not enter it), and
// M(q) when asked.
Eigen::MatrixXd contractionAt(Tree& t, const VectorXd& q, const VectorXd& v, Eigen::MatrixXd* M = nullptr) {
  t.setQ(q);
  if (M) *M = massMatrix(t);
  return massGradientContraction(t, v);
}

}  // namespace

VectorXd trapezoidalBias(const Eigen::MatrixXd& Rvk, const Eigen::MatrixXd& Rv, const VectorXd& gradVk,
                         const VectorXd& vk, const VectorXd& v, const TreeForcing& f) {
  // f.force() = f^x + B u, so -1/2 [f^x(v_k) + f^x(v)] - B u = -1/2 [f(v_k) + f(v)].
  return -0.25 * (Rvk * vk + Rv * v) + gradVk - 0.5 * (f.force(vk) + f.force(v));
}

void TreeTrapezoidal::refreshAtQk() {
  atV_.v.resize(0);
  at_.Rvk = contractionAt(tree_, q_, v_, &at_.M);
  at_.gradV = gradV(tree_);
}

VectorXd TreeTrapezoidal::knownMomentum() const { return h_ / 4 * at_.Rvk * v_ - h_ / 2 * at_.gradV; }

void TreeTrapezoidal::initialize(const VectorXd& q0, const VectorXd& qdot0, double h, const TreeForcing& f) {
  if (!(h > 0) || !std::isfinite(h)) throw BadInput("trapezoidal: dt = " + std::to_string(h) + " must be > 0");
  f.validate(tree_.dof());
  tree_.setState(q0, qdot0);  // validates sizes
  h_ = h, q_ = q0, v_ = qdot0, iters_ = 0;
  refreshAtQk();
  pm_ = at_.M * qdot0 - knownMomentum() - h / 2 * f.force(v_);
}

const TreeTrapezoidal::AtV& TreeTrapezoidal::piecesAt(const VectorXd& v, bool withR1) const {
  if (!(atV_.v.size() == v.size() && atV_.v == v)) {
    atV_.v = v, atV_.hasR1 = false;
    atV_.Rk = contractionAt(tree_, q_, v);
    tree_.setQ(q_ + h_ * v);
    atV_.M1 = massMatrix(tree_);
  }
  if (withR1 && !atV_.hasR1) atV_.R1 = contractionAt(tree_, q_ + h_ * v, v), atV_.hasR1 = true;
  return atV_;
}

VectorXd TreeTrapezoidal::residual(const VectorXd& v, const TreeForcing& f) const {
  const AtV& a = piecesAt(v, false);
  return 0.5 * (at_.M + a.M1) * v - pm_ + h_ * trapezoidalBias(at_.Rvk, a.Rk, at_.gradV, v_, v, f);  // eq. (24)
}

Eigen::MatrixXd TreeTrapezoidal::jacobian(const VectorXd& v, const TreeForcing& f) const {
  // (25): ∇M(q_{k+1})^T (I ⊗ v) is the transpose of (I ⊗ v^T)∇M(q_{k+1}) (M symmetric).
  const AtV& a = piecesAt(v, true);
  Eigen::MatrixXd J = 0.5 * (at_.M + a.M1) + h_ / 2 * (a.R1.transpose() - a.Rk);
  J.diagonal() += h_ / 2 * f.dampingOr0(tree_.dof());  // -h/2 D_2 f^x with D_2 f^x = -diag(c)
  return J;
}

int TreeTrapezoidal::advance(const TreeForcing& f) {
  VectorXd v = v_;  // Algorithm 1: Newton from v = v_k
  const NewtonProblem problem{[&](const VectorXd& x) { return residual(x, f); },
                              [&](const VectorXd& x) { return jacobian(x, f); }};
  int it = solveStep(problem, q_, q_, h_, v);
  if (it >= 0 && turnsTooFar(h_ * v)) it = -1, kinematicAt(0);
  if (it < 0) {
    refreshAtQk();  // the tree was moved by the failed iterations; the integrator state is unchanged
    return -1;
  }
  const Eigen::MatrixXd Mk = at_.M;
  q_ += h_ * v, v_ = v;
  refreshAtQk();
  pm_ = 0.5 * (Mk + at_.M) * v_;
  return it;
}

void TreeTrapezoidal::rescale(double h, const TreeForcing& f) {
  pm_ += (h_ - h) * (0.25 * at_.Rvk * v_ - 0.5 * at_.gradV + 0.5 * f.force(v_));
  h_ = h, atV_.v.resize(0);  // M(q_k + h v) depends on h
}

void TreeTrapezoidal::step(const TreeForcing& f) {
  if (h_ <= 0) throw BadInput("trapezoidal: step before initialize");
  f.validate(tree_.dof());
  const int it = advanceOrSubstep(f);
  if (it < 0)
    throw SimulationDiverged("trapezoidal: Newton on eq. (24) did not converge (h = " + std::to_string(h_) +
                             ", also in " + std::to_string(kMaxSubsteps) + " sub-steps)");
  iters_ = it;
}

VectorXd TreeTrapezoidal::qdot() const { return at_.M.ldlt().solve(pm_ + knownMomentum()); }

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
