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
// A pivot below this fraction of its row's largest entry (or a replaced one) makes solve() refine its solution
// against the matrix kept beside the factor: an order that eliminates a regularised constraint row (pivot -delta_c ~
// 1e-9) before its variables loses about log10(row / pivot) digits, which a step of refinement recovers.
constexpr double kRefineBelow = 1e-6;
constexpr int kRefinementSteps = 10;  // at most; refinement stops at round-off or when a step stops halving |r|

// Where the permuted matrix's values go in `reals`: past D and Lx, and past the input values reals[0 .. nz), which
// are read while Ax is filled and overwritten by D and Lx only afterwards.
std::size_t axOffset(int n, int nz, std::size_t lnz) { return std::max(std::size_t(n) + lnz, std::size_t(nz)); }

// The up-looking LDL^T (row k of L from a sparse triangular solve along the elimination tree; Davis, "Direct
// Methods for Sparse Linear Systems", sec. 4.10) of the permuted upper triangle (Ap, Ai, Ax). A pivot with |d| <=
// tiny * (its row's largest |entry|) is replaced by +-replace * that (the sign of d, negative for 0: Ipopt's zero
// diagonals are constraint rows) when replace > 0, else the factorisation stops there. Returns the pivots done.
struct Numeric {
  int n;
  const int *Ap, *Ai, *parent;
  const double *Ax, *rowMax;
  int *Lp, *Li, *count, *pattern, *flag;
  double *Lx, *D, *Y;
};

int upLooking(const Numeric& m, double tiny, double replace, int& replaced) {
  for (int k = 0; k < m.n; ++k) {
    int top = m.n;
    m.flag[k] = k, m.count[k] = 0, m.Y[k] = 0.0;
    for (int p = m.Ap[k]; p < m.Ap[k + 1]; ++p) {  // scatter column k; reach of its rows in the tree
      int i = m.Ai[p], len = 0;
      m.Y[i] += m.Ax[p];
      for (; m.flag[i] != k; i = m.parent[i]) m.pattern[len++] = i, m.flag[i] = k;
      while (len > 0) m.pattern[--top] = m.pattern[--len];
    }
    double d = m.Y[k];
    m.Y[k] = 0.0;
    for (; top < m.n; ++top) {  // L(k, i) for the row's pattern, in topological order
      const int i = m.pattern[top];
      const double yi = m.Y[i];
      m.Y[i] = 0.0;
      const int end = m.Lp[i] + m.count[i];
      for (int p = m.Lp[i]; p < end; ++p) m.Y[m.Li[p]] -= m.Lx[p] * yi;
      const double l = yi / m.D[i];
      d -= l * yi;
      m.Li[end] = k, m.Lx[end] = l, ++m.count[i];
    }
    if (!(std::abs(d) > tiny * m.rowMax[k])) {
      if (!(replace > 0.0 && m.rowMax[k] > 0.0 && std::isfinite(d))) return k;
      d = (d > 0.0 ? replace : -replace) * m.rowMax[k];
      ++replaced;
    }
    m.D[k] = d;
  }
  return m.n;
}

}  // namespace

Storage storage(const Pattern& a, const int* keep) {
  const std::size_t n = std::size_t(a.n), nz = std::size_t(std::max(a.nz, 0)), lnz = factorNonzeros(a.n, keep);
  Storage s;
  s.ints = kHeader + n + (n + 1) + lnz + (n + 1) + nz + 2 * n;  // + Ap, Ai, LDL's Pattern and Flag
  s.reals = axOffset(a.n, a.nz, lnz) + nz + 2 * n;               // + Ax, LDL's Y, the rows' largest entries
  for (std::size_t k = 0; k < n; ++k) s.flops += double(keep[2 * n + k]) * double(keep[2 * n + k]);
  return s;
}

Factorisation factorise(const Pattern& a, const int* keep, const Pivots& pivots, int* ints, double* reals,
                        int* scratch) {
  const int n = a.n;
  const std::size_t N = std::size_t(n), lnz = factorNonzeros(n, keep);
  const int* perm = keep;
  const int* parent = keep + n;
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
  Factorisation f;
  f.rank = upLooking({n, Ap, Ai, parent, Ax, rowMax, Lp, Li, lnzWork, pattern, flag, Lx, D, Y}, pivots.tiny,
                     pivots.replace, f.replaced);
  for (int k = 0; k < f.rank; ++k) {
    f.negative += D[k] < 0.0;
    if (std::abs(D[k]) < kRefineBelow * rowMax[k]) ints[3] = 1;
  }
  if (f.replaced > 0) ints[3] = 1;
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
    double last = INFINITY;
    for (int step = 0; step < kRefinementSteps; ++step) {
      double aMax = 0.0, bMax = 0.0, xMax = 0.0, rMax = 0.0;
      for (std::size_t k = 0; k < N; ++k) r[k] = rhs[P[k]], bMax = std::max(bMax, std::abs(r[k])), xMax = std::max(xMax, std::abs(x[k]));
      for (std::size_t j = 0; j < N; ++j)
        for (int p = Ap[j]; p < Ap[j + 1]; ++p) {
          const std::size_t i = std::size_t(Ai[p]);
          r[i] -= Ax[p] * x[j];
          if (i != j) r[j] -= Ax[p] * x[i];
          aMax = std::max(aMax, std::abs(Ax[p]));
        }
      for (std::size_t k = 0; k < N; ++k) rMax = std::max(rMax, std::abs(r[k]));
      if (!(rMax > 1e-15 * (aMax * xMax + bMax)) || !(rMax < 0.5 * last)) break;
      last = rMax;
      ldlSolve(n, Lp, Li, Lx, D, r);
      for (std::size_t k = 0; k < N; ++k) x[k] += r[k];
    }
  }
  for (std::size_t k = 0; k < N; ++k) rhs[P[k]] = x[k];
}

}  // namespace varsim::kkt
