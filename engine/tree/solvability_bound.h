// engine/tree/solvability_bound.h — seed 002 Sec. 4 on a Tree: the model bounds of Assumption 1 (eqs. 26–31)
// at a state, and the a-priori step bounds of Propositions 1–2 for the trapezoidal VI (tree_trapezoidal.h):
// for h below hBar(), Newton from v = v_k (Algorithm 1) keeps a regular Jacobian and converges. How every
// constant is evaluated, and the printed formulas corrected on the way, are documented in the .cpp.
#pragma once

#include <algorithm>

#include "engine/integrators/tree_stepper.h"

namespace varsim::tree {

// Assumption 1 at one configuration q (the local values m_i(q), l_i(q) of the paper).
struct ModelBounds {
  double m1 = 0, m2 = 0;  // (26): extreme eigenvalues of M(q)
  // (27)–(28) locally: the norm of ∇M(q) as a trilinear form, sup |sum dM_il/dq_c x_i y_l w_c| over unit
  // x, y, w. Both (27) (w -> DM[w]) and (28) (v -> ∇M^T(I ⊗ v)) are this same norm at q.
  double l0 = 0, l1 = 0;
  double l2 = 0;  // (29) locally: the norm of ∇²M(q) as a 4-linear form (finite differences of ∇M)
  // (30)–(31) for the tree steppers' f^x = -c∘v (tree_stepper.h): D_2 f^x = -diag(c), so l3 = 0, l4 = max c,
  // l5 = l6 = 0; k1 = min c is Prop. 1's "linear damping" improvement (-D_2 f^x = diag(c) >= k1 I).
  double l3 = 0, l4 = 0, l5 = 0, l6 = 0, k1 = 0;
};
ModelBounds modelBounds(Tree& t, const VectorXd& q, const TreeForcing& f);

// The bounds "bar" over the ball U = {p : |p - q| <= r} from the local values at q by Taylor's theorem:
// |M(p) - M(q)| <= r l0 + r²/2 l2, so m1_bar = m1 - r l0 - r² l2/2, m2_bar = m2 + r l0 + r² l2/2,
// l0_bar = l1_bar = l0 + r l2. l2_bar = l2 assumes ∇²M constant over U (U is small for steps near the bound);
// the tests check the resulting h_bar against Newton on random states and trees.
struct RegionBounds {
  double m1 = 0, m2 = 0, l0 = 0, l1 = 0, l2 = 0;
};
RegionBounds regionBounds(const ModelBounds& b, double r);

// A step bound at the state (q_k, v_k) of the trapezoidal VI (seed 002 eqs. 21–25, q_{k-1} = q_k - h v_k).
struct StepBound {
  static constexpr double kNoLimit = 1e6;  // s: "no restriction found below this step" (kept finite for CSVs)
  ModelBounds local;                       // at q_k
  double L0 = 0, L1 = 0;                   // (34), (35) at hBar()
  double rho = 0;                          // radius of U at hBar(): h times the iterate bound (37)
  double hRegular = kNoLimit;              // Prop. 1, eq. (32), at v = v_k: De_k(v_k) positive definite
  double hJacobian = kNoLimit;             // first root of phi_k (38): De_k regular at every iterate
  double hNewton = kNoLimit;               // first root of psi (41): Newton–Kantorovich, converges in B_0
  double hBar() const { return std::min(hJacobian, hNewton); }  // Prop. 2 needs both
};
StepBound trapezoidalStepBound(Tree& t, const VectorXd& qk, const VectorXd& vk, const TreeForcing& f);

}  // namespace varsim::tree
