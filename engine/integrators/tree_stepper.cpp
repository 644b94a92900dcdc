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
  for (int it = 1; it <= maxIter; ++it) {
    const VectorXd d = p.jacobian(x).partialPivLu().solve(-p.residual(x));
    if (!d.allFinite()) return -1;
    x += d;
    if (d.lpNorm<Eigen::Infinity>() <= 1e-12 * (1 + x.lpNorm<Eigen::Infinity>())) return it;
  }
  return -1;
}

double TreeStepper::energy() const {
  tree_.setState(q(), qdot());
  return kineticEnergy(tree_) + potentialEnergy(tree_);
}

}  // namespace varsim::tree
