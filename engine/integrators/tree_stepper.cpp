// engine/integrators/tree_stepper.cpp — forcing of the tree integrators and the shared energy readout.
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

int TreeStepper::solveStep(const NewtonProblem& p, const VectorXd& qk, const VectorXd& base, double dqdx, VectorXd& x) {
  if (!constrained()) {
    lambda_.resize(0);
    return solveNewton(p, x);
  }
  const int n = static_cast<int>(x.size()), m = constraints_->count();
  tree_.setQ(qk);
  const Eigen::MatrixXd G = dqdx * constraints_->jacobian(tree_);
  auto qOf = [&](const VectorXd& z) { return VectorXd(base + dqdx * z.head(n)); };
  const NewtonProblem augmented{[&](const VectorXd& z) {
                                  VectorXd r(n + m);
                                  r.head(n) = p.residual(z.head(n)) + G.transpose() * z.tail(m);
                                  tree_.setQ(qOf(z));
                                  r.tail(m) = constraints_->value(tree_);
                                  return r;
                                },
                                [&](const VectorXd& z) {
                                  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n + m, n + m);
                                  J.topLeftCorner(n, n) = p.jacobian(z.head(n));
                                  J.topRightCorner(n, m) = G.transpose();
                                  tree_.setQ(qOf(z));
                                  J.bottomLeftCorner(m, n) = dqdx * constraints_->jacobian(tree_);
                                  return J;
                                }};
  VectorXd z(n + m);
  z << x, VectorXd::Zero(m);
  const int it = solveNewton(augmented, z);
  x = z.head(n), lambda_ = z.tail(m);
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
