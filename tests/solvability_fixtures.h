// tests/solvability_fixtures.h — one step of the trapezoidal VI (seed 002 eq. 24, Algorithm 1) from a state
// (q_k, v_k) with q_{k-1} = q_k - h v_k, as Sec. 4 of seed 002 analyses it, for the solvability tests and the
// Fig. 1 benchmark: whether Newton from v = v_k converges, in how many iterations, and where to.
#pragma once

#include <Eigen/Dense>

#include "engine/integrators/tree_trapezoidal.h"
#include "engine/sim/errors.h"
#include "engine/tree/tree_lagrangian.h"

namespace varsim::test {

struct TrialStep {
  int iterations = -1;     // Newton iterations, -1 if it failed (SimulationDiverged)
  Eigen::VectorXd d0, v1;  // the first Newton step and v_{k+1}
  bool insideB0 = false;   // |v_{k+1} - (v_k + d0)| <= |d0| (Prop. 2's ball B_0, 1e-9 slack)
};

inline TrialStep trialStep(tree::Tree& t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double h,
                           const tree::TreeForcing& f) {
  t.setQ(q - h * v);
  const Eigen::MatrixXd Mprev = tree::massMatrix(t);
  t.setQ(q);
  const Eigen::VectorXd pm = 0.5 * (Mprev + tree::massMatrix(t)) * v;  // 1/2 [M(q_{k-1}) + M(q_k)] v_k
  std::vector<double> s{h, 0.0};
  for (const Eigen::VectorXd* x : {&q, &v, &pm}) s.insert(s.end(), x->data(), x->data() + x->size());
  tree::TreeTrapezoidal tr(t);
  tr.loadState(s);
  TrialStep out;
  out.d0 = -tr.jacobian(v, f).partialPivLu().solve(tr.residual(v, f));
  try {
    tr.step(f);
  } catch (const SimulationDiverged&) {
    return out;
  }
  out.iterations = tr.newtonIterations(), out.v1 = tr.v();
  out.insideB0 = (out.v1 - v - out.d0).norm() <= out.d0.norm() * (1 + 1e-9) + 1e-12;
  return out;
}

}  // namespace varsim::test
