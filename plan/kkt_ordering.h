// plan/kkt_ordering.h — the elimination order of the KKT LDL^T solver (plan/kkt_ldl_solver.h): AMD's order amended so
// that each zero-diagonal row (a constraint row of Ipopt's [W J^T; J 0] unregularised, a variable without curvature)
// is eliminated next to a partner it couples to, the pair a candidate 2x2 pivot; then the elimination tree and column
// counts of L (SuiteSparse LDL's symbolic pass, 2x2 block columns). Kept in the caller's `keep` ints.
#pragma once

#include <cstddef>

namespace varsim::kkt {

// A symmetric matrix as 1-based triplets (MA27's convention): entry t is (rows[t], cols[t]), from either triangle;
// duplicates are summed; entries outside 1..n are ignored.
struct Pattern {
  int n = 0;
  int nz = 0;
  const int* rows = nullptr;
  const int* cols = nullptr;
  bool inRange(int t) const { return rows[t] >= 1 && rows[t] <= n && cols[t] >= 1 && cols[t] <= n; }
};

// keep = [perm (n): the k-th pivot's row, stored as -row - 1 when pivot k forms a candidate 2x2 pivot with pivot
// k - 1 | parent (n): the elimination tree | colCount (n): nonzeros of L's columns].
inline std::size_t keepSize(int n) { return 3 * std::size_t(n); }
inline int pivotRow(const int* keep, int k) { return keep[k] < 0 ? -keep[k] - 1 : keep[k]; }
inline bool pairedWithPrevious(const int* keep, int k) { return keep[k] < 0; }
std::size_t factorNonzeros(int n, const int* keep);  // the sum of the column counts

// AMD's order of the pattern (no values known yet) and its symbolic factorisation into keep; false on n < 1, nz < 0,
// an AMD failure or a factor too large for int indices (keep then unusable).
bool analyse(const Pattern& a, int* keep);

// With the values (reals in triplet order): true when keep's order already has every row whose diagonal is zero
// (|sum of its diagonal entries| <= tolerance * its largest |entry|) and a strong neighbour (entry >= 0.1 of the
// row's largest) in a pair still coupled (entry >= 1e-3 of the row's largest); otherwise pairs each such row with a
// distinct strong neighbour (greedy matching; a row left over follows its strongest neighbour's pair), orders the
// graph with each pair merged by AMD, expands it with the pair's pivots consecutive, re-runs the symbolic pass and
// returns true, or false when that fails (keep then unusable).
// `rowMax` (optional, n doubles): each row's largest |entry| on return.
bool fitOrdering(const Pattern& a, const double* values, double tolerance, int* keep, double* rowMax = nullptr);

// After a factorisation in keep's order replaced the pivots at positions failed[0 .. count) (a Schur complement the
// fixed order found singular: a pair whose coupling cancelled, or a row alone): orders again with the other pairs
// kept, each failed pair split and its second row matched anew (never to the same partner), each failed row alone
// given a partner; false when that fails (keep then unusable).
bool refitOrdering(const Pattern& a, const double* values, const int* failed, int count, int* keep);

}  // namespace varsim::kkt
