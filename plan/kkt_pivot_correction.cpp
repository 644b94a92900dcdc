// plan/kkt_pivot_correction.cpp — Woodbury's correction of replaced pivots and Haynsworth's inertia; see
// kkt_pivot_correction.h.
#include "plan/kkt_pivot_correction.h"

#include <Eigen/Eigenvalues>
#include <cmath>

namespace varsim::kkt {

CorrectionInertia buildCorrection(int n, int r, const int* positions, const double* deltas, const FactorSolve& solve,
                                  double* Q, double* lambda, double* work) {
  Eigen::Map<Eigen::MatrixXd> S(Q, r, r);
  for (int j = 0; j < r; ++j) {  // column j of U^T Ahat^-1 U: Ahat^-1 e_kj at the replaced positions
    std::fill(work, work + n, 0.0);
    work[positions[j]] = 1.0;
    solve(work);
    for (int i = 0; i < r; ++i) S(i, j) = -work[positions[i]];
    S(j, j) += 1.0 / deltas[j];
  }
  S = 0.5 * (S + S.transpose()).eval();  // symmetric up to round-off
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(S);
  CorrectionInertia c;
  // In one dimension S = 1/delta - 1/(a + delta) = a / (delta (a + delta)): an eigenvalue below 1e-6 / |delta| is an
  // eigenvalue |a| of A below 1e-6 |delta| (1e-14 of the row at the default replacement), as singular as the pivot
  // that was replaced, and within the round-off of S's terms ~ 1 / |delta|.
  double noise = 0.0;
  for (int j = 0; j < r; ++j) {  // before lambda, which may share deltas' array
    c.negativeShift -= deltas[j] < 0.0;
    noise = std::max(noise, 1e-6 / std::abs(deltas[j]));
  }
  for (int j = 0; j < r; ++j) {
    lambda[j] = eig.eigenvalues()(j);
    c.singular |= !(std::abs(lambda[j]) > noise);
    c.negativeShift += lambda[j] < 0.0;
  }
  S = eig.eigenvectors();
  return c;
}

void applyCorrection(int n, int r, const int* positions, const double* Q, const double* lambda,
                     const FactorSolve& solve, double* x, double* work) {
  const Eigen::Map<const Eigen::MatrixXd> V(Q, r, r);
  Eigen::VectorXd c(r);
  for (int j = 0; j < r; ++j) c(j) = x[positions[j]];
  c = V * ((V.transpose() * c).array() / Eigen::Map<const Eigen::ArrayXd>(lambda, r)).matrix();
  std::fill(work, work + n, 0.0);
  for (int j = 0; j < r; ++j) work[positions[j]] = c(j);
  solve(work);
  for (int i = 0; i < n; ++i) x[i] += work[i];
}

}  // namespace varsim::kkt
