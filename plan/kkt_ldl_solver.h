// plan/kkt_ldl_solver.h — sparse LDL^T of a symmetric indefinite matrix (Ipopt's KKT systems) in kkt_ordering.h's
// order: up-looking, 1x1 pivots and, on the order's pairs, 2x2 pivots by Bunch and Kaufman's test; inertia from D's
// blocks (Sylvester's law). All state lives in caller-owned arrays laid out here, so a factor can sit inside MA27's
// A/IW/IKEEP arrays (plan/ma27_bridge.h) and threads share nothing.
#pragma once

#include <cstddef>
#include <vector>

#include "plan/kkt_ordering.h"

namespace varsim::kkt {

// Storage the factorisation needs (ints, doubles), from the ordering's keep; also the factor's flop count (sum over the
// columns of L of count^2, MA27's OPS).
struct Storage {
  std::size_t ints = 0, reals = 0;
  double flops = 0.0;
};
Storage storage(const Pattern& a, const int* keep);

// Tiny pivots: a 1x1 pivot with |d| <= tiny * (the largest |entry| of its row of the matrix) is replaced by
// +-replace * that largest entry when replace > 0 (Schenk and Gaertner's pivot perturbation; solve() then refines
// against the matrix), or ends the factorisation as singular when replace = 0. A candidate pair whose 2x2 block has
// a determinant that small is taken as two 1x1 pivots.
struct Pivots {
  double tiny = 1e-14;
  double replace = 0.0;
};

struct Factorisation {
  bool singular = false;  // a tiny pivot with replace = 0 (or an empty row): not factored
  int rank = 0;           // pivots factored before the first singular one (n when not singular)
  int negative = 0;       // negative eigenvalues of D = of the matrix when no pivot was replaced
  int replaced = 0;       // tiny pivots replaced
};

// The rows' patterns of L (row k: rows[start[k] .. start[k + 1]), in the order the factorisation visits them), a
// function of the pattern and keep only: kept by a caller that factorises the same pattern in the same order again
// (plan/kkt_order_cache.h), they spare the elimination-tree walk of each row (~15 % of a factorisation), and with the
// permuted matrix's structure the counting of the triplets into it.
struct RowPatterns {
  std::vector<int> start, rows;
  std::vector<int> ap, ai, place;  // the permuted upper triangle's columns, rows, and each triplet's place (-1: none)
  bool complete = false;           // every row recorded
};

// Factorises the matrix whose values, in the pattern's triplet order, are reals[0 .. a.nz) on entry (MA27BD's
// contract: the values arrive in the factor's own real array). `ints` and `reals` hold storage(a, keep) entries;
// `scratch` 2n ints: on return scratch[0 .. replaced) hold the positions of the replaced pivots in keep's order.
// After a non-singular factorisation `ints`/`reals` hold the factor for solve(). `rows` (optional): the patterns of
// this pattern and keep, used when complete, else recorded. `rowMax` (optional): each row's largest |entry| of these
// values in the pattern's numbering (fitOrdering()'s), which spares the factorisation that pass.
Factorisation factorise(const Pattern& a, const int* keep, const Pivots& pivots, int* ints, double* reals,
                        int* scratch, RowPatterns* rows = nullptr, const double* rowMax = nullptr);

// After factorise(), with its scratch: makes solve() exact for the matrix despite f.replaced replaced pivots (up to
// plan/kkt_pivot_correction.h's kMaxCorrected of them) and f.negative A's inertia; nothing when A is singular to
// round-off (the perturbed factor stays, refined by solve()).
void correct(const int* scratch, int* ints, double* reals, Factorisation& f);

// The factorised matrix's values in the pattern's triplet order (0 for entries outside 1..n), from the copy kept
// beside the factor: what reals[0 .. a.nz) held before factorise().
void matrixValues(const Pattern& a, const int* ints, const double* reals, double* values);

// Solves A x = rhs in place with the factor in ints/reals, refined against A when a pivot was small; `work` holds
// solveWorkSize(n) doubles.
inline std::size_t solveWorkSize(int n) { return 4 * std::size_t(n); }
void solve(const int* ints, const double* reals, double* rhs, double* work);

}  // namespace varsim::kkt
