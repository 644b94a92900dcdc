// engine/integrators/tree_stepper.cpp — forcing of the tree integrators, the constrained Newton step with
// kinematic variables moving over the step, and the shared energy readout.
#include "engine/integrators/tree_stepper.h"

#include <Eigen/Dense>
#include <cmath>
#include <string>

#include "engine/sim/errors.h"
#include "engine/tree/tree_lagrangian.h"

namespace varsim::tree {

VectorXd TreeForcing::dampingOr0(int n) const { return damping.size() == 0 ? VectorXd::Zero(n) : damping; }

VectorXd TreeForcing::force(const VectorXd& qdot) const {
  VectorXd f = -dampingOr0(static_cast<int>(qdot.size())).cwiseProduct(qdot);
  if (torque.size() != 0) f += torque;
  return f;
}

VectorXd TreeForcing::force(const Tree& t) const {
  VectorXd f = force(t.qdot());
  if (state) f += state->force(t);
  return f;
}

void TreeForcing::addJacobian(const Tree& t, double a, double b, Eigen::MatrixXd& J) const {
  J.diagonal() -= b * dampingOr0(t.dof());
  if (state) state->addJacobian(t, a, b, J);
}

void TreeForcing::validate(int n) const {
  auto check = [&](const VectorXd& v, const char* name, bool nonNegative) {
    if (v.size() != 0 && v.size() != n) {
      throw BadInput(std::string("tree forcing: ") + name + " needs " + std::to_string(n) + " entries");
    }
    for (Eigen::Index i = 0; i < v.size(); ++i) {
      if (!std::isfinite(v(i)) || (nonNegative && v(i) < 0)) {
        throw BadInput(std::string("tree forcing: ") + name + "[" + std::to_string(i) + "] = " + std::to_string(v(i)) +
                       (nonNegative ? " must be finite and >= 0" : " must be finite"));
      }
    }
  };
  check(damping, "damping", true);
  check(torque, "torque", false);
}

int solveNewton(const NewtonProblem& p, VectorXd& x, int maxIter) {
  double previous = INFINITY;
  for (int it = 1; it <= maxIter; ++it) {
    const VectorXd d = p.jacobian(x).partialPivLu().solve(-p.residual(x));
    if (!d.allFinite()) return -1;
    x += d;
    const double step = d.lpNorm<Eigen::Infinity>(), scale = 1 + x.lpNorm<Eigen::Infinity>();
    // Converged, or at the round-off floor: small and no longer contracting (Newton would halve it at least).
    if (step <= 1e-12 * scale || (step <= 1e-8 * scale && step > 0.5 * previous)) return it;
    previous = step;
  }
  return -1;
}

int solveNewtonDamped(const NewtonProblem& p, VectorXd& x, int maxIter) {
  VectorXd r = p.residual(x);
  for (int it = 1; it <= maxIter; ++it) {
    const VectorXd d = p.jacobian(x).partialPivLu().solve(-r);
    if (!d.allFinite()) return -1;
    const double step = d.lpNorm<Eigen::Infinity>(), scale = 1 + x.lpNorm<Eigen::Infinity>();
    if (step <= 1e-12 * scale) return it;  // the full Newton step is at round-off: x solves r = 0
    // Armijo backtracking on |r|: halve the step until the residual norm decreases (at most 1/1024).
    double t = 1;
    VectorXd trial = x + d, rt = p.residual(trial);
    while (!(rt.allFinite() && rt.norm() <= (1 - 1e-4 * t) * r.norm()) && t > 1.0 / 1024) {
      t /= 2, trial = x + t * d, rt = p.residual(trial);
    }
    if (!rt.allFinite()) return -1;
    x = trial, r = rt;
  }
  return -1;
}

void TreeStepper::setKinematicTarget(const VectorXd& next, double h) {
  if (next.size() != tree_.kinematicCount() || !next.allFinite() || !(h > 0) || !std::isfinite(h)) {
    throw BadInput("tree stepper: kinematic target needs " + std::to_string(tree_.kinematicCount()) +
                   " finite values and h > 0 (h = " + std::to_string(h) + ")");
  }
  kin0_ = tree_.kinematicValue(), kin1_ = next, kinRate_ = (next - kin0_) / h;
  kinPending_ = true;
}

void TreeStepper::kinematicAt(double s) const {
  if (!kinActive_) return;
  tree_.setKinematic(s == 1 ? kin1_ : VectorXd(kin0_ + s * (kin1_ - kin0_)), kinRate_);
}

int TreeStepper::solveStep(const NewtonProblem& p, const VectorXd& qk, const VectorXd& base, double dqdx, VectorXd& x) {
  kinActive_ = kinPending_, kinPending_ = false;
  kinematicAt(1);  // schemes that do not place the kinematic variables themselves see t_{k+1} (trapezoidal)
  const int it = constrained() ? solveConstrained(p, qk, base, dqdx, x) : (lambda_.resize(0), solveNewton(p, x));
  kinematicAt(it < 0 ? 0 : 1);  // a failed step leaves the tree at t_k
  return it;
}

int TreeStepper::solveConstrained(const NewtonProblem& p, const VectorXd& qk, const VectorXd& base, double dqdx,
                                  VectorXd& x) {
  const int n = static_cast<int>(x.size()), m = constraints_->count();
  kinematicAt(0);
  tree_.setQ(qk);
  const Eigen::MatrixXd G = dqdx * constraints_->jacobian(tree_);  // Dh(q_k; k_k)
  auto qOf = [&](const VectorXd& z) { return VectorXd(base + dqdx * z.head(n)); };
  const NewtonProblem augmented{[&](const VectorXd& z) {
                                  VectorXd r(n + m);
                                  kinematicAt(1);
                                  r.head(n) = p.residual(z.head(n)) + G.transpose() * z.tail(m);
                                  kinematicAt(1);
                                  tree_.setQ(qOf(z));
                                  r.tail(m) = constraints_->value(tree_);
                                  return r;
                                },
                                [&](const VectorXd& z) {
                                  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n + m, n + m);
                                  kinematicAt(1);
                                  J.topLeftCorner(n, n) = p.jacobian(z.head(n));
                                  J.topRightCorner(n, m) = G.transpose();
                                  kinematicAt(1);
                                  tree_.setQ(qOf(z));
                                  J.bottomLeftCorner(m, n) = dqdx * constraints_->jacobian(tree_);
                                  return J;
                                }};
  VectorXd z(n + m);
  z << x, (lambda_.size() == m ? lambda_ : VectorXd::Zero(m));  // warm start from the last step's multipliers
  const VectorXd z0 = z;
  int it = solveNewton(augmented, z);
  if (it < 0) {
    // A large kinematic move can start plain Newton outside its basin (stiff floor, friction, strings
    // pulling near a straight limb): retry from the same guess with backtracking. Steps that converged
    // plainly are unchanged.
    z = z0;
    const int damped = solveNewtonDamped(augmented, z, 100);
    it = damped < 0 ? -1 : 40 + damped;
  }
  x = z.head(n), lambda_ = z.tail(m);
  return it;
}

// The interval h in n = 2^j equal sub-steps (momentum matching across them: each sub-step is the same scheme
// at h/n, so the composition is a variational step of the same order). Returns the summed Newton count, -1 when
// some sub-step failed (state restored from saveState, the kinematic path as it was).
int ImplicitTreeStepper::advanceInSubsteps(const TreeForcing& f, int n) {
  const std::vector<double> saved = saveState();
  const VectorXd lambda0 = lambda_, k0 = kin0_, k1 = kin1_, rate = kinRate_;
  const bool kin = kinActive_;
  beginSubsteps(n, f);
  const double hSub = saved[0] / n;
  int total = 0;
  for (int i = 0; i < n; ++i) {
    if (kin) setKinematicTarget(VectorXd(k0 + (double(i + 1) / n) * (k1 - k0)), hSub);
    const int it = advance(f);
    if (it < 0) {
      kin0_ = k0, kin1_ = k1, kinRate_ = rate, kinActive_ = kin, kinPending_ = false;
      kinematicAt(0);  // before loadState: a scheme may evaluate the tree at t_k there
      loadState(saved), lambda_ = lambda0;
      return -1;
    }
    total += it;
  }
  endSubsteps(f);
  if (kin) kin0_ = k0, kin1_ = k1, kinRate_ = rate, kinActive_ = true;
  return total;
}

bool ImplicitTreeStepper::turnsTooFar(const VectorXd& dq) {
  return dq.lpNorm<Eigen::Infinity>() > kMaxTurn;
}

int ImplicitTreeStepper::advanceOrSubstep(const TreeForcing& f) {
  const VectorXd lambda0 = lambda_;  // a failed constrained Newton leaves its last iterate in lambda_
  int it = advance(f);
  substeps_ = 1;
  for (int n = 2; it < 0 && n <= kMaxSubsteps; n *= 2) {
    lambda_ = lambda0;
    if ((it = advanceInSubsteps(f, n)) >= 0) substeps_ = n;
  }
  return it;
}

double TreeStepper::energy() const {
  tree_.setState(q(), qdot());
  return kineticEnergy(tree_) + potentialEnergy(tree_);
}

void TreeStepper::checkStateSize(const std::vector<double>& s, size_t scalars, int vectors, const char* who) const {
  const size_t want = scalars + size_t(vectors) * size_t(tree_.dof());
  if (s.size() != want)
    throw BadInput(std::string(who) + " state: " + std::to_string(s.size()) + " numbers, expected " + std::to_string(want));
  for (double x : s)
    if (!std::isfinite(x)) throw BadInput(std::string(who) + " state: non-finite entry");
  // Every layout starts with h; a Newton count (second entry when scalars >= 2) must fit an int.
  if (!(s[0] > 0)) throw BadInput(std::string(who) + " state: h = " + std::to_string(s[0]) + " must be > 0");
  if (scalars >= 2 && !(s[1] >= 0 && s[1] <= 1e6))
    throw BadInput(std::string(who) + " state: Newton count " + std::to_string(s[1]) + " not in [0, 1e6]");
}

VectorXd TreeStepper::takeVector(const std::vector<double>& s, size_t& at) const {
  const VectorXd v = Eigen::Map<const VectorXd>(s.data() + at, tree_.dof());
  at += size_t(tree_.dof());
  return v;
}

}  // namespace varsim::tree
