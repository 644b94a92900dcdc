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

namespace {
// Whether f adds anything to the residual (unforced: no allocation for a zero force in the Newton loop).
bool forced(const TreeForcing& f) { return f.damping.size() != 0 || f.torque.size() != 0 || f.state != nullptr; }
}  // namespace

TreeMidpoint::TreeMidpoint(Tree& tree, double alpha) : ImplicitTreeStepper(tree), alpha_(alpha) {
  if (!(alpha >= 0 && alpha <= 1)) throw BadInput("midpoint: alpha = " + std::to_string(alpha) + " not in [0, 1]");
}

void TreeMidpoint::initialize(const VectorXd& q0, const VectorXd& qdot0, double h, const TreeForcing& f) {
  if (!(h > 0) || !std::isfinite(h)) throw BadInput("midpoint: dt = " + std::to_string(h) + " must be > 0");
  f.validate(tree_.dof());
  tree_.setState(q0, qdot0);  // validates sizes
  h_ = h, q_ = q0, p_ = dLdqdot(tree_), vPrev_ = vPrev2_ = qdot0, iters_ = 0;
}

void TreeMidpoint::evaluate(const VectorXd& q1) const {
  kinematicAt(alpha_);  // kinematic variables at t_k + alpha h when they move over the step
  qa_ = q_ + alpha_ * (q1 - q_), va_ = (q1 - q_) / h_;
  tree_.setState(qa_, va_);
}

void TreeMidpoint::residualInto(const VectorXd& q1, const TreeForcing& f, VectorXd& r) const {
  evaluate(q1);
  tree_.lagrangianGradients(&lq_, &lv_);
  if (forced(f)) lq_ += f.force(tree_);
  r = p_ + (1 - alpha_) * h_ * lq_ - lv_;  // eq. (23) + f_d^-
}

void TreeMidpoint::jacobianInto(const VectorXd& q1, const TreeForcing& f, Eigen::MatrixXd& J) const {
  evaluate(q1);
  lagrangianHessians(tree_, &Lqq_, &Lqv_, &M_);
  J.resize(Lqq_.rows(), Lqq_.cols());
  J.noalias() = alpha_ * (1 - alpha_) * h_ * Lqq_ + (1 - alpha_) * Lqv_ - alpha_ * Lqv_.transpose() - M_ / h_;
  f.addJacobian(tree_, alpha_ * (1 - alpha_) * h_, 1 - alpha_, J);  // f at (q_alpha, v)
}

VectorXd TreeMidpoint::residual(const VectorXd& q1, const TreeForcing& f) const {
  VectorXd r;
  residualInto(q1, f, r);
  return r;
}

Eigen::MatrixXd TreeMidpoint::jacobian(const VectorXd& q1, const TreeForcing& f) const {
  Eigen::MatrixXd J;
  jacobianInto(q1, f, J);
  return J;
}

VectorXd TreeMidpoint::nextMomentum(const VectorXd& q1, const TreeForcing& f) const {
  evaluate(q1);
  tree_.lagrangianGradients(&lq_, &lv_);
  if (forced(f)) lq_ += f.force(tree_);
  return alpha_ * h_ * lq_ + lv_;  // eq. (24) + f_d^+
}

// Newton on (25) that keeps the factorised Jacobian of an iterate while the steps shrink at least 4x per
// iteration (near the solution the Jacobian hardly changes over a step of h; at h = 0.01 the 19-link chain
// contracts by ~1e-3) and refactorises at the current iterate otherwise. Stops on solveNewton's test,
// |d|_inf <= 1e-12 (1 + |q|_inf) (with a contraction <= 1/4 the error left is below |d|/3), or at the
// round-off floor after a fresh-Jacobian step that no longer halves. Returns the iterations (residual
// evaluations), -1 on failure. Checked: over 1000 steps of the 19-link chain at h = 0.01 the answer is
// within 6.2e-14 of Newton iterated to its floor (0.05 of the tolerance), as with full Newton. (Stopping
// earlier on the error estimate rho/(1-rho)|d| from the measured rho was tried: answers off by 15x the
// tolerance, so not used. Starting from the last step's factorisation was tried too: the stale Jacobian
// contracts too slowly, 8-13 iterations instead of 4-5, 26 ms instead of 21 for N = 19, 10 s at h = 0.01.)
int TreeMidpoint::solveUnconstrained(const TreeForcing& f, VectorXd& q1) {
  double previous = INFINITY;
  bool refresh = true;
  for (int it = 1; it <= 40; ++it) {
    const bool fresh = refresh;
    if (refresh) jacobianInto(q1, f, J_), lu_.compute(J_), refresh = false;
    residualInto(q1, f, r_);
    d_.noalias() = lu_.solve(r_);
    if (!d_.allFinite()) return -1;
    q1 -= d_;
    const double step = d_.lpNorm<Eigen::Infinity>(), scale = 1 + q1.lpNorm<Eigen::Infinity>();
    if (step <= 1e-12 * scale || (fresh && step <= 1e-8 * scale && step > 0.5 * previous)) return it;
    if (step > 0.25 * previous) refresh = true;
    previous = step;
  }
  return -1;
}

// One step of h_ from (q_, p_): Newton on (25), then (24). Returns the Newton count, -1 on failure (state kept,
// the tree's kinematic variables back at t_k).
int TreeMidpoint::advance(const TreeForcing& f) {
  VectorXd q1 = q_ + h_ * (2 * vPrev_ - vPrev2_);  // predictor: q extrapolated quadratically from q_{k-2..k}
  int it;
  if (constrained()) {
    const NewtonProblem problem{[&](const VectorXd& x) { return residual(x, f); },
                                [&](const VectorXd& x) { return jacobian(x, f); }};
    it = solveStep(problem, q_, VectorXd::Zero(q_.size()), 1.0, q1);
  } else {
    kinActive_ = kinPending_, kinPending_ = false, lambda_.resize(0);  // what solveStep does around Newton
    it = solveUnconstrained(f, q1);
    kinematicAt(it < 0 ? 0 : 1);
  }
  if (it >= 0 && turnsTooFar(q1 - q_)) it = -1, kinematicAt(0);
  if (it < 0) return -1;
  const VectorXd p1 = nextMomentum(q1, f);
  kinematicAt(1);
  vPrev2_ = vPrev_, vPrev_ = (q1 - q_) / h_, q_ = q1, p_ = p1;
  return it;
}

void TreeMidpoint::beginSubsteps(int n, const TreeForcing&) {
  whole_.h = h_, whole_.q0 = q_, whole_.v1 = vPrev_;
  h_ = h_ / n;
}

void TreeMidpoint::endSubsteps(const TreeForcing&) {
  h_ = whole_.h, vPrev2_ = whole_.v1, vPrev_ = (q_ - whole_.q0) / h_;
}

void TreeMidpoint::step(const TreeForcing& f) {
  if (h_ <= 0) throw BadInput("midpoint: step before initialize");
  f.validate(tree_.dof());
  const int it = advanceOrSubstep(f);
  if (it < 0)
    throw SimulationDiverged("midpoint: Newton on eq. (25) did not converge (h = " + std::to_string(h_) +
                             ", also in " + std::to_string(kMaxSubsteps) + " sub-steps)");
  iters_ = it;
}

VectorXd TreeMidpoint::qdot() const {
  // dL/dqdot = M(q) qdot + dL/dqdot(q, 0) (the latter from kinematic rates), linear in qdot.
  tree_.setState(q_, VectorXd::Zero(tree_.dof()));
  return massMatrix(tree_).ldlt().solve(p_ - dLdqdot(tree_));
}

std::vector<double> TreeMidpoint::saveState() const {
  std::vector<double> s{h_, double(iters_)};  // [h, iterations, q_k, p_k, (q_k - q_{k-1})/h, (q_{k-1} - q_{k-2})/h]
  appendVector(s, q_), appendVector(s, p_), appendVector(s, vPrev_), appendVector(s, vPrev2_);
  return s;
}

void TreeMidpoint::loadState(const std::vector<double>& s) {
  checkStateSize(s, 2, 4, "midpoint");
  size_t at = 2;
  h_ = s[0], iters_ = int(s[1]), q_ = takeVector(s, at), p_ = takeVector(s, at);
  vPrev_ = takeVector(s, at), vPrev2_ = takeVector(s, at);
}

}  // namespace varsim::tree
