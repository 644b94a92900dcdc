// engine/integrators/tree_rk4.cpp — RK4 on eq. (14) of seed 003 (kinematic variables frozen in a step).
#include "engine/integrators/tree_rk4.h"

#include <Eigen/Dense>
#include <cmath>
#include <string>

#include "engine/sim/errors.h"
#include "engine/tree/tree_lagrangian.h"

namespace varsim::tree {

void TreeRk4::initialize(const VectorXd& q0, const VectorXd& qdot0, double h, const TreeForcing& f) {
  if (!(h > 0) || !std::isfinite(h)) throw BadInput("rk4: dt = " + std::to_string(h) + " must be > 0");
  f.validate(tree_.dof());
  if (constrained()) throw BadInput("rk4: holonomic constraints need the midpoint or trapezoidal integrator");
  tree_.setState(q0, qdot0);
  h_ = h, q_ = q0, qd_ = qdot0;
}

VectorXd TreeRk4::acceleration(const VectorXd& q, const VectorXd& qdot, const TreeForcing& f) const {
  if (!q.allFinite() || !qdot.allFinite())  // a stage blew up (the tree would refuse it as bad input)
    throw SimulationDiverged("rk4: stage state became non-finite (h = " + std::to_string(h_) + ")");
  tree_.setState(q, qdot);
  // d/dt dL/dqdot = M qddot + (d²L/dqdot dq) qdot, and (d²L/dqdot_i dq_j) = d2LdqDqdot(j, i).
  lagrangianHessians(tree_, nullptr, &Lqv_, &M_);  // one pass over the tree for both
  dLdq(tree_, rhs_);
  rhs_ += f.force(qdot);
  rhs_.noalias() -= Lqv_.transpose() * qdot;
  ldlt_.compute(M_);
  return ldlt_.solve(rhs_);
}

void TreeRk4::step(const TreeForcing& f) {
  if (h_ <= 0) throw BadInput("rk4: step before initialize");
  if (constrained()) throw BadInput("rk4: holonomic constraints need the midpoint or trapezoidal integrator");
  f.validate(tree_.dof());
  const double h = h_;
  const VectorXd a1 = acceleration(q_, qd_, f), v1 = qd_;
  const VectorXd v2 = qd_ + h / 2 * a1, a2 = acceleration(q_ + h / 2 * v1, v2, f);
  const VectorXd v3 = qd_ + h / 2 * a2, a3 = acceleration(q_ + h / 2 * v2, v3, f);
  const VectorXd v4 = qd_ + h * a3, a4 = acceleration(q_ + h * v3, v4, f);
  const VectorXd q1 = q_ + h / 6 * (v1 + 2 * v2 + 2 * v3 + v4), qd1 = qd_ + h / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
  if (!q1.allFinite() || !qd1.allFinite())
    throw SimulationDiverged("rk4: state became non-finite (h = " + std::to_string(h) + ")");
  q_ = q1, qd_ = qd1;
}

std::vector<double> TreeRk4::saveState() const {
  std::vector<double> s{h_};  // [h, q, qdot]
  appendVector(s, q_), appendVector(s, qd_);
  return s;
}

void TreeRk4::loadState(const std::vector<double>& s) {
  checkStateSize(s, 1, 2, "rk4");
  size_t at = 1;
  h_ = s[0], q_ = takeVector(s, at), qd_ = takeVector(s, at);
}

}  // namespace varsim::tree
