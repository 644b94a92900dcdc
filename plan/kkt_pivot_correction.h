// plan/kkt_pivot_correction.h — the exact low-rank correction of the KKT LDL^T's replaced pivots: a factorisation that
// replaced r pivots factorised A + U Delta U^T (U the replaced positions' unit columns), so A^-1 follows from the
// factor by Woodbury's identity with the r x r matrix S = Delta^-1 - U^T (A + U Delta U^T)^-1 U, and A's inertia by
// Haynsworth's (In A = In Ahat + In S - In Delta). Its arrays live in the factor's (plan/kkt_ldl_solver.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>

namespace varsim::kkt {

// At most this many replaced pivots are corrected (S's eigen-decomposition costs r^3; boat_dock's first systems
// replace up to 145); above it the solve only refines.
constexpr int kMaxCorrected = 256;
inline int correctable(int n) { return std::min(n, kMaxCorrected); }
// Storage: S's eigenvectors and eigenvalues (reals), the replaced positions (ints).
inline std::size_t correctionReals(int n) { return std::size_t(correctable(n)) * std::size_t(correctable(n) + 1); }
inline std::size_t correctionInts(int n) { return std::size_t(correctable(n)); }

// Solves Ahat z = v in place (the factor's permuted order).
using FactorSolve = std::function<void(double*)>;

struct CorrectionInertia {
  bool singular = false;  // S has an eigenvalue within round-off of 0: A is singular
  int negativeShift = 0;  // In A's negative count minus Ahat's: neg(S) - neg(Delta)
};

// From the r replaced positions and their perturbations deltas[j] (the replaced pivot minus the computed one; the
// array may be lambda's), with `work` n doubles: S into Q (r x r, column-major, overwritten by its eigenvectors) and
// its eigenvalues into lambda.
CorrectionInertia buildCorrection(int n, int r, const int* positions, const double* deltas, const FactorSolve& solve,
                                  double* Q, double* lambda, double* work);

// x = Ahat^-1 b on entry (permuted order) becomes A^-1 b: x += Ahat^-1 U S^-1 U^T x, with `work` n doubles.
void applyCorrection(int n, int r, const int* positions, const double* Q, const double* lambda,
                     const FactorSolve& solve, double* x, double* work);

}  // namespace varsim::kkt
