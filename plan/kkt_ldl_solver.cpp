// plan/kkt_ldl_solver.cpp — AMD + SuiteSparse LDL behind caller-owned arrays; see kkt_ldl_solver.h for the contract.
// Layout (after a factorisation): ints = [n, lnz, nz, refine | perm (n) | Lp (n+1) | Li (lnz) | Ap (n+1) | Ai (nz) |
// LDL's work], reals = [D (n) | Lx (lnz) | Ax (nz) from axOffset | LDL's work]: the permuted upper triangle (Ap, Ai,
// Ax) stays beside the factor for solve()'s iterative refinement.
#include "plan/kkt_ldl_solver.h"

#include <algorithm>
#include <cmath>
#include <vector>

extern "C" {  // ldl.h declares its C functions without C linkage
#include <ldl.h>
}

namespace varsim::kkt {
namespace {

constexpr std::size_t kHeader = 4;  // n, nonzeros of L, of the matrix, whether solve() refines
// A pivot below this fraction of its row's largest entry makes solve() refine its solution (two steps against the
// matrix kept beside the factor): an order that eliminates a regularised constraint row (pivot -delta_c ~ 1e-9)
// before its variables loses about log10(row / pivot) digits, which one step of refinement recovers.
constexpr double kRefineBelow = 1e-6;
constexpr int kRefinementSteps = 2;

// Where the permuted matrix's values go in `reals`: past D and Lx, and past the input values reals[0 .. nz), which
// are read while Ax is filled and overwritten by D and Lx only afterwards.
std::size_t axOffset(int n, int nz, std::size_t lnz) { return std::max(std::size_t(n) + lnz, std::size_t(nz)); }

}  // namespace

Storage storage(const Pattern& a, const int* keep) {
  const std::size_t n = std::size_t(a.n), nz = std::size_t(std::max(a.nz, 0)), lnz = factorNonzeros(a.n, keep);
  Storage s;
  s.ints = kHeader + n + (n + 1) + lnz + (n + 1) + nz + 2 * n;  // + Ap, Ai, LDL's Pattern and Flag
  s.reals = axOffset(a.n, a.nz, lnz) + nz + 2 * n;               // + Ax, LDL's Y, the rows' largest entries
  for (std::size_t k = 0; k < n; ++k) s.flops += double(keep[2 * n + k]) * double(keep[2 * n + k]);
  return s;
}

Factorisation factorise(const Pattern& a, const int* keep, double pivotTolerance, int* ints, double* reals,
                        int* scratch) {
  const int n = a.n;
  const std::size_t N = std::size_t(n), lnz = factorNonzeros(n, keep);
  const int* perm = keep;
  int* parent = const_cast<int*>(keep + n);  // LDL's numeric pass reads the tree only
  const int* colCount = keep + 2 * n;
  ints[0] = n;
  ints[1] = int(lnz);
  ints[2] = std::max(a.nz, 0);
  ints[3] = 0;
  int* P = ints + kHeader;
  int* Lp = P + N;
  int* Li = Lp + N + 1;
  int* Ap = Li + lnz;
  int* Ai = Ap + N + 1;
  int* pattern = Ai + std::size_t(std::max(a.nz, 0));
  int* flag = pattern + N;
  double* Ax = reals + axOffset(n, a.nz, lnz);
  double* Y = Ax + std::size_t(std::max(a.nz, 0));
  double* rowMax = Y + N;
  int* pinv = scratch;
  int* lnzWork = scratch + N;
  std::copy(perm, perm + N, P);
  for (int k = 0; k < n; ++k) pinv[perm[k]] = k;
  // The upper triangle of P A P^T by columns (duplicates kept: LDL sums them), and each row's largest |entry|.
  std::fill(Ap, Ap + N + 1, 0);
  std::fill(rowMax, rowMax + N, 0.0);
  for (int t = 0; t < a.nz; ++t)
    if (a.inRange(t)) ++Ap[std::max(pinv[a.rows[t] - 1], pinv[a.cols[t] - 1]) + 1];
  for (std::size_t j = 0; j < N; ++j) Ap[j + 1] += Ap[j];
  std::copy(Ap, Ap + N, lnzWork);  // next free slot per column
  for (int t = 0; t < a.nz; ++t) {
    if (!a.inRange(t)) continue;
    const int i = pinv[a.rows[t] - 1], j = pinv[a.cols[t] - 1];
    const int at = lnzWork[std::max(i, j)]++;
    Ai[at] = std::min(i, j);
    Ax[at] = reals[t];
    rowMax[i] = std::max(rowMax[i], std::abs(reals[t]));
    rowMax[j] = std::max(rowMax[j], std::abs(reals[t]));
  }
  Lp[0] = 0;
  for (std::size_t k = 0; k < N; ++k) Lp[k + 1] = Lp[k] + colCount[k];
  std::fill(Y, Y + N, 0.0);
  double* D = reals;
  double* Lx = reals + N;
  const int done = ldl_numeric(n, Ap, Ai, Ax, Lp, parent, lnzWork, Li, Lx, D, Y, pattern, flag, nullptr, nullptr);
  Factorisation f;
  f.rank = done;
  // Static pivots: one tiny relative to its row makes the factor meaningless; report it (Ipopt then perturbs).
  for (int k = 0; k < done; ++k) {
    if (!(std::abs(D[k]) > pivotTolerance * rowMax[k])) {
      f.rank = k;
      break;
    }
    if (D[k] < 0.0) ++f.negative;
    if (std::abs(D[k]) < kRefineBelow * rowMax[k]) ints[3] = 1;
  }
  f.singular = f.rank < n;
  return f;
}

namespace {

// x = A^-1 b with the factor, all in the permuted order.
void ldlSolve(int n, int* Lp, int* Li, double* Lx, double* D, double* x) {
  ldl_lsolve(n, x, Lp, Li, Lx);
  ldl_dsolve(n, x, D);
  ldl_ltsolve(n, x, Lp, Li, Lx);
}

}  // namespace

void solve(const int* ints, const double* reals, double* rhs, double* work) {
  const int n = ints[0];
  const std::size_t N = std::size_t(n), lnz = std::size_t(ints[1]);
  const int* P = ints + kHeader;
  int* Lp = const_cast<int*>(P + N);  // LDL's solves read the factor only
  int* Li = Lp + N + 1;
  double* D = const_cast<double*>(reals);
  double* Lx = D + N;
  double *x = work, *r = work + N;
  for (std::size_t k = 0; k < N; ++k) x[k] = rhs[P[k]];
  ldlSolve(n, Lp, Li, Lx, D, x);
  if (ints[3]) {  // r = P b - (P A P^T) x from the upper triangle kept beside the factor, then x += A^-1 r
    const int* Ap = Li + lnz;
    const int* Ai = Ap + N + 1;
    const double* Ax = reals + axOffset(n, ints[2], lnz);
    for (int step = 0; step < kRefinementSteps; ++step) {
      for (std::size_t k = 0; k < N; ++k) r[k] = rhs[P[k]];
      for (std::size_t j = 0; j < N; ++j)
        for (int p = Ap[j]; p < Ap[j + 1]; ++p) {
          const std::size_t i = std::size_t(Ai[p]);
          r[i] -= Ax[p] * x[j];
          if (i != j) r[j] -= Ax[p] * x[i];
        }
      ldlSolve(n, Lp, Li, Lx, D, r);
      for (std::size_t k = 0; k < N; ++k) x[k] += r[k];
    }
  }
  for (std::size_t k = 0; k < N; ++k) rhs[P[k]] = x[k];
}

}  // namespace varsim::kkt
