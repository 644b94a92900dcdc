// engine/tree/solvability_bound.cpp — seed 002 Sec. 4 evaluated numerically on a tree.
// How the constants of Assumption 1 are obtained (no closed form exists for a general tree):
//  - m1, m2: the extreme eigenvalues of M(q) (exact, symmetric eigensolver).
//  - l0 = l1: the trilinear-form norm of ∇M(q) is bounded above by the largest singular value of each of its
//    flattenings (a unit x⊗y has unit norm); we take the smaller of the (i | l,c) and (c | i,l) flattenings.
//    For the double pendulum the first is exact ((1+√2) m2 l1 l2 |sin φ2|, test_tree_solvability).
//  - l2: the same for ∇²M(q), the flattenings (i | l,j,m) and (m | i,l,j), with ∇²M by forward differences of
//    the analytic ∇M (n extra evaluations, relative error ~1e-6).
//  - their "bar" values over the ball U of configurations the Newton iterates reach: regionBounds (Taylor).
// Step bounds: each condition of the paper is evaluated as a function of h (U's radius grows with h) and
// the first h > 0 where it fails is found by a geometric scan and bisection. Corrections to the printed text
// (derived again here; the printed forms are not conservative where noted):
//  - (39): the ∇M-difference term is h l2_bar |v| |d| (the ∇M arguments differ by h d), not l2_bar |v| |d|:
//    L3 = (h l2_bar + l5)/2. (Printed, the bound is dimensionally inconsistent.)
//  - (41): expanding (m1 - h L1)^3 gives 3 m1² L1 h, not 2 m1² L1 h (printed, psi admits too large h).
//  - (38): Prop. 1's condition ends in -2 m1_bar (as in eq. 32 and 33), not -m1_bar.
//  - Prop. 1 with linear damping (the remark after it): the tree steppers' f^x = -c∘v is exactly linear, so
//    the velocity term (l3 |v| + l4) h becomes -k1 h.
#include "engine/tree/solvability_bound.h"

#include <Eigen/Dense>
#include <cmath>

#include "engine/integrators/tree_trapezoidal.h"
#include "engine/tree/tree_lagrangian.h"

namespace varsim::tree {

namespace {

using Eigen::MatrixXd;
using Tensor3 = std::vector<MatrixXd>;  // entry c: dM/dq_c (n x n)

double largestEigen(const MatrixXd& gram) {
  if (gram.size() == 0) return 0;
  return std::max(0.0, Eigen::SelfAdjointEigenSolver<MatrixXd>(gram, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff());
}

// Upper bound of sup |T(x, y, w)| over unit vectors for T_ilc = dM_il/dq_c: min over two flattenings of their
// largest singular value (sqrt of the largest Gram eigenvalue).
double trilinearNorm(const Tensor3& T) {
  const auto n = Eigen::Index(T.size());
  if (n == 0) return 0;
  MatrixXd byC(n * n, n), byI = MatrixXd::Zero(n, n);
  for (Eigen::Index c = 0; c < n; ++c) {
    byC.col(c) = Eigen::Map<const Eigen::VectorXd>(T[size_t(c)].data(), n * n);
    byI.noalias() += T[size_t(c)] * T[size_t(c)].transpose();
  }
  const MatrixXd gramC = byC.transpose() * byC;
  return std::sqrt(std::min(largestEigen(gramC), largestEigen(byI)));
}

// The same for the 4-tensor H^(m)[j]_il = d²M_il/dq_j dq_m: flattenings (m | i,l,j) and (i | l,j,m).
double quadrilinearNorm(const std::vector<Tensor3>& H) {
  const auto n = Eigen::Index(H.size());
  if (n == 0) return 0;
  MatrixXd byM(n * n * n, n), byI(n, n * n * n);
  for (Eigen::Index m = 0; m < n; ++m)
    for (Eigen::Index j = 0; j < n; ++j) {
      const MatrixXd& A = H[size_t(m)][size_t(j)];
      byM.col(m).segment(j * n * n, n * n) = Eigen::Map<const Eigen::VectorXd>(A.data(), n * n);
      byI.middleCols((m * n + j) * n, n) = A;
    }
  // Lower triangles only (rankUpdate halves the n^5 products; the eigensolver reads the lower triangle).
  MatrixXd gramM = MatrixXd::Zero(n, n), gramI = MatrixXd::Zero(n, n);
  gramM.selfadjointView<Eigen::Lower>().rankUpdate(byM.transpose());
  gramI.selfadjointView<Eigen::Lower>().rankUpdate(byI);
  return std::sqrt(std::min(largestEigen(gramM), largestEigen(gramI)));
}

double maxOr0(const VectorXd& c) { return c.size() ? c.maxCoeff() : 0.0; }
double minOr0(const VectorXd& c) { return c.size() ? c.minCoeff() : 0.0; }

}  // namespace

ModelBounds modelBounds(Tree& t, const VectorXd& q, const TreeForcing& f) {
  const int n = t.dof();
  ModelBounds b;
  t.setQ(q);
  const Eigen::VectorXd eig =
      Eigen::SelfAdjointEigenSolver<MatrixXd>(massMatrix(t), Eigen::EigenvaluesOnly).eigenvalues();
  b.m1 = eig.size() ? eig.minCoeff() : 0.0, b.m2 = eig.size() ? eig.maxCoeff() : 0.0;
  const Tensor3 gradM = massMatrixGradient(t);
  b.l0 = b.l1 = trilinearNorm(gradM);
  // ∇²M by forward differences of ∇M; the step balances truncation (eps |∇³M|) against round-off.
  constexpr double eps = 1e-6;
  std::vector<Tensor3> H(static_cast<size_t>(n));
  for (int m = 0; m < n; ++m) {
    VectorXd qm = q;
    qm(m) += eps;
    t.setQ(qm);
    H[size_t(m)] = massMatrixGradient(t);
    for (int j = 0; j < n; ++j) H[size_t(m)][size_t(j)] = (H[size_t(m)][size_t(j)] - gradM[size_t(j)]) / eps;
  }
  t.setQ(q);
  b.l2 = quadrilinearNorm(H);
  const VectorXd c = f.dampingOr0(n);
  b.l3 = 0, b.l4 = maxOr0(c), b.l5 = 0, b.l6 = 0, b.k1 = minOr0(c);
  return b;
}

RegionBounds regionBounds(const ModelBounds& b, double r) {
  const double dM = r * b.l0 + 0.5 * r * r * b.l2;
  return {b.m1 - dM, b.m2 + dM, b.l0 + r * b.l2, b.l1 + r * b.l2, b.l2};
}

namespace {

// The conditions of Props. 1–2 at one h for the state with |v_k| = speed and |b_k(v_k) - B u| = bias.
struct Conditions {
  bool regular = false;   // (32) at v = v_k
  bool jacobian = false;  // (36) meaningful and phi_k(h) < 0 (38)
  bool newton = false;    // (42), i.e. psi(h) < 0 (41)
  double L0 = 0, L1 = 0, rho = 0;
};

Conditions evaluate(const ModelBounds& b, double speed, double bias, double h) {
  Conditions c;
  const RegionBounds U0 = regionBounds(b, h * speed);  // q_{k-1}, q_k, q_k + h v_k
  c.regular = U0.m1 > 0 && U0.l2 * speed * speed * h * h - b.k1 * h - 2 * U0.m1 < 0;
  c.L0 = U0.l0 * speed * speed + bias;  // (34)
  c.L1 = U0.l1 * speed + 0.5 * b.l4;    // (35): l1_bar |v_k| + |D_2 f|/2
  const double den = U0.m1 - h * c.L1;  // (36): |De_k(v_k)^{-1}| <= 1/den
  if (!(den > 0)) return c;
  const double R = speed + 2 * h * c.L0 / den;  // (37): every iterate |v| <= R
  c.rho = h * R;
  const RegionBounds U = regionBounds(b, c.rho);
  if (!(U.m1 > 0)) return c;
  c.jacobian = U.l2 * R * R * h * h + (b.l3 * R - b.k1) * h - 2 * U.m1 < 0;        // (38), linear damping
  const double L2 = 0.5 * (U.l0 + 2 * U.l1 + b.l6), L3 = 0.5 * (h * U.l2 + b.l5);  // (39)
  c.newton = 2 * h * h * c.L0 * (L2 + L3 * R) < den * den;                         // (42) with (34), (36), (40)
  return c;
}

// First h in (0, kNoLimit) where ok(h) fails: geometric scan from 1e-9 s by 2%, then bisection.
template <class Ok>
double firstFailure(Ok ok) {
  double good = 0, h = 1e-9;
  while (h < StepBound::kNoLimit && ok(h)) good = h, h *= 1.02;
  if (h >= StepBound::kNoLimit) return StepBound::kNoLimit;
  for (int it = 0; it < 60 && h - good > 1e-12 * h; ++it) {
    const double mid = 0.5 * (good + h);
    (ok(mid) ? good : h) = mid;
  }
  return good;
}

}  // namespace

StepBound trapezoidalStepBound(Tree& t, const VectorXd& qk, const VectorXd& vk, const TreeForcing& f) {
  const VectorXd q0 = t.q(), qd0 = t.qdot();
  StepBound s;
  s.local = modelBounds(t, qk, f);
  t.setQ(qk);
  const Eigen::MatrixXd Rvk = massGradientContraction(t, vk);
  const double bias = trapezoidalBias(Rvk, Rvk, gradV(t), vk, vk, f).norm();
  t.setState(q0, qd0);
  const double speed = vk.norm();
  s.hRegular = firstFailure([&](double h) { return evaluate(s.local, speed, bias, h).regular; });
  s.hJacobian = firstFailure([&](double h) { return evaluate(s.local, speed, bias, h).jacobian; });
  s.hNewton = firstFailure([&](double h) { return evaluate(s.local, speed, bias, h).newton; });
  const Conditions at = evaluate(s.local, speed, bias, s.hBar());
  s.L0 = at.L0, s.L1 = at.L1, s.rho = at.rho;
  return s;
}

}  // namespace varsim::tree
