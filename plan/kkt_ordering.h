// plan/kkt_ordering.h — the elimination order of the KKT LDL^T solver (plan/kkt_ldl_solver.h): AMD's fill-reducing
// order, amended so that a row with a zero diagonal (a constraint row of Ipopt's KKT matrix [W J^T; J 0] when no
// regularisation is on) is eliminated right after a partner variable, whose pivot fills its diagonal; then the
// elimination tree and column counts of L (SuiteSparse LDL's symbolic pass). Kept in the caller's `keep` ints.
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

// keep = [perm (n): the k-th pivot's row | parent (n): the elimination tree | colCount (n): nonzeros of L's columns].
inline std::size_t keepSize(int n) { return 3 * std::size_t(n); }
std::size_t factorNonzeros(int n, const int* keep);  // the sum of the column counts

// AMD's order of the pattern (no values known yet) and its symbolic factorisation into keep; false on n < 1, nz < 0,
// an AMD failure or a factor too large for int indices (keep then unusable).
bool analyse(const Pattern& a, int* keep);

// With the values (reals in triplet order): true when keep's order already puts every row whose diagonal is zero
// (|sum of its diagonal entries| <= tolerance * its largest |entry|) right after a strong neighbour (entry >= 0.1 of
// the row's largest) with a non-zero diagonal, where it has one; otherwise pairs each such row with a distinct strong
// neighbour (greedy matching), orders the graph with each pair merged by AMD, expands it with the zero row right
// after its partner, re-runs the symbolic pass and returns true, or false when that fails (keep then unusable).
bool fitOrdering(const Pattern& a, const double* values, double tolerance, int* keep);

}  // namespace varsim::kkt
