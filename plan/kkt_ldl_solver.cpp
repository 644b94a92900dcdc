// plan/kkt_ldl_solver.cpp — an up-looking LDL^T with 1x1 and 2x2 pivots behind caller-owned arrays (SuiteSparse LDL's
// triangular solve loops); see kkt_ldl_solver.h for the contract. Layout (after a factorisation): ints = [n, lnz, nz,
// refine | perm (n, keep's) | Lp (n+1) | Li (lnz) | Ap (n+1) | Ai (nz) | work], reals = [D (n) | E (n): the 2x2
// pivots' off-diagonals | Lx (lnz) | Ax (nz) from axOffset | work]: the permuted upper triangle (Ap, Ai, Ax) stays
// beside the factor for solve()'s iterative refinement.
#include "plan/kkt_ldl_solver.h"

#include "plan/kkt_permuted_matrix.h"
#include "plan/kkt_pivot_correction.h"
#include "plan/kkt_triangular.h"

#include <algorithm>
#include <cmath>
#include <vector>


namespace varsim::kkt {
namespace {

// n, nonzeros of L, of the matrix, whether solve() refines, the replaced pivots corrected (plan/kkt_pivot_correction.h)
constexpr std::size_t kHeader = 5;
// A replaced pivot, or a pivot eliminated before all its row's neighbours and below this fraction of its row's
// largest entry, makes solve() refine its solution against the matrix kept beside the factor: an order that
// eliminates a regularised constraint row (pivot -delta_c ~ 1e-9) before its variables loses about log10(row / pivot)
// digits, which a step of refinement recovers. A small pivot after its neighbours (-a^2 / h of a constraint on a
// variable h ~ 1e12 near its bound) is the matrix's own: refining every solve for it doubled heli_canyon's
// back-solve time (0.04 -> 0.11 s CPU at 600 kg). So is the small first pivot of a 2x2 block (a control without
// curvature paired with its dynamics row): refining for those refined every solve of the car's MPC.
constexpr double kRefineBelow = 1e-6;
constexpr int kRefinementSteps = 10;  // at most; refinement stops at round-off or when a step stops halving |r|

// Where the permuted matrix's values go in `reals`: past D, E and Lx, and past the input values reals[0 .. nz), which
// are read while Ax is filled and overwritten by D, E and Lx only afterwards.
std::size_t axOffset(int n, int nz, std::size_t lnz) { return std::max(2 * std::size_t(n) + lnz, std::size_t(nz)); }

// Bunch and Kaufman's growth bound: a candidate pair's first pivot is taken alone when |d| >= alpha |e| (e the pair's
// off-diagonal after the earlier pivots), else the pair is one 2x2 pivot.
const double kAlpha = (1.0 + std::sqrt(17.0)) / 8.0;

// The up-looking LDL^T (row k of L from a sparse triangular solve along the elimination tree; Davis, "Direct
// Methods for Sparse Linear Systems", sec. 4.10) of the permuted upper triangle (Ap, Ai, Ax), with the order's
// candidate pairs (pivots k - 1, k) taken as one 2x2 pivot [D(k-1) E(k-1); E(k-1) D(k)] when the first pivot is
// small beside the pair's coupling (L(k, k-1) = 0 then). A 1x1 pivot |d| <= tiny * (its row's largest |entry|), or a
// 2x2 one whose determinant is that small, is replaced by +-replace * that entry (the sign of d, negative for 0:
// Ipopt's zero diagonals are constraint rows) when replace > 0, else the factorisation stops there. Returns the
// pivots done.
struct Numeric {
  int n;
  const int *Ap, *Ai, *parent, *colCount, *perm;
  const double *Ax, *rowMax;
  int *Lp, *Li, *count, *pattern, *flag, *replacedAt;
  double *Lx, *D, *E, *Y, *delta;  // delta: each replaced pivot's change, for the first correctable(n)
  bool second(int k) const { return perm[k] < 0; }
  bool first(int k) const { return k + 1 < n && perm[k + 1] < 0; }
  void append(int column, int row, double l) const {
    const int at = Lp[column] + count[column]++;
    Li[at] = row, Lx[at] = l;
  }
};

// Row k's reach in the elimination tree (topological order in pattern[top .. n)), a pair's first pivot with its
// second: the 2x2 block column has the second's pattern. Row k of A is scattered into Y.
int reach(const Numeric& m, int k) {
  int top = m.n;
  for (int p = m.Ap[k]; p < m.Ap[k + 1]; ++p) {
    int i = m.Ai[p], len = 0;
    m.Y[i] += m.Ax[p];
    for (; m.flag[i] != k; i = m.parent[i]) {
      if (m.second(i) && m.flag[i - 1] != k) m.pattern[len++] = i - 1, m.flag[i - 1] = k;
      m.pattern[len++] = i, m.flag[i] = k;
    }
    while (len > 0) m.pattern[--top] = m.pattern[--len];
  }
  return top;
}

bool tinyPivot(double d, double scale, double tiny) { return !(std::abs(d) > tiny * scale); }

// The replacement of pivot k when tiny; false when replacement is off (singular). Its sign: that of the matrix's
// diagonal entry, -0.0 counting as negative (Ipopt's constraint rows carry -delta_c, -0.0 without regularisation, and
// eliminated alone their exact pivots are negative: a pivot there that round-off left at +1e-17 would add a positive
// eigenvalue, Ipopt would see the wrong inertia and regularise a system MUMPS solves as it is), else that of d
// (negative for 0).
double diagonal(const Numeric& m, int k) {
  double a = -0.0;
  for (int p = m.Ap[k]; p < m.Ap[k + 1]; ++p)
    if (m.Ai[p] == k) a += m.Ax[p];  // -0.0 + -0.0 stays -0.0
  return a;
}

bool replacePivot(const Numeric& m, int k, double& d, double replace, int& replaced) {
  const double scale = m.rowMax[k], a = diagonal(m, k);
  if (!(replace > 0.0 && scale > 0.0 && std::isfinite(d))) return false;
  const bool negative = a != 0.0 ? a < 0.0 : std::signbit(a) || !(d > 0.0);
  const double before = d;
  d = (negative ? -replace : replace) * scale;
  if (replaced < correctable(m.n)) m.delta[replaced] = d - before;
  m.replacedAt[replaced++] = k;
  return true;
}

// Row k (the second of a candidate pair) decides the pair's pivots: e = L(k-1..)'s coupling y_{k-1}, d the second's
// pivot before the first is eliminated. False: a tiny pivot with replacement off.
bool pairPivots(const Numeric& m, int k, double e, double& d, double tiny, double replace, int& replaced) {
  const int f = k - 1;
  double& df = m.D[f];
  const double det = df * d - e * e;
  const bool block = std::abs(df) < kAlpha * std::abs(e) &&
                     !tinyPivot(det, m.rowMax[f] * m.rowMax[k], tiny);
  if (block) {
    m.E[f] = e;
    m.append(f, k, 0.0);
    return true;
  }
  if (tinyPivot(df, m.rowMax[f], tiny) && !replacePivot(m, f, df, replace, replaced)) return false;
  const double l = e / df;
  m.E[f] = 0.0;
  m.append(f, k, l);
  d -= l * e;
  return true;
}

// Row k's pattern: from `rows` when complete (the caller's: this pattern and keep), else reach() (recorded into
// `rows` when given). Row k of A is scattered into Y either way, in the same order.
const int* rowPattern(const Numeric& m, int k, RowPatterns* rows, int& len) {
  if (rows && rows->complete) {
    for (int p = m.Ap[k]; p < m.Ap[k + 1]; ++p) m.Y[m.Ai[p]] += m.Ax[p];
    len = rows->start[std::size_t(k) + 1] - rows->start[std::size_t(k)];
    return rows->rows.data() + rows->start[std::size_t(k)];
  }
  const int top = reach(m, k);
  len = m.n - top;
  if (rows) {
    rows->rows.insert(rows->rows.end(), m.pattern + top, m.pattern + m.n);
    rows->start.push_back(int(rows->rows.size()));
  }
  return m.pattern + top;
}

int upLooking(const Numeric& m, double tiny, double replace, int& replaced, bool& refine, RowPatterns* rows) {
  for (int k = 0; k < m.n; ++k) {
    m.flag[k] = k, m.count[k] = 0, m.Y[k] = 0.0;
    int len = 0;
    const int* pattern = rowPattern(m, k, rows, len);
    const bool alone = len == 0;  // no earlier pivot in the row: d is the matrix's diagonal
    double d = m.Y[k], e = 0.0, yFirst = 0.0;
    m.Y[k] = 0.0;
    solveRow(PartialFactor{m.Lp, m.Li, m.count, m.parent, m.colCount, m.Lx}, pattern, len, m.Y);
    for (int at = 0; at < len; ++at) {  // L(k, i) for the row's pattern, in topological order
      const int i = pattern[at];
      const double yi = m.Y[i];
      m.Y[i] = 0.0;
      if (m.second(k) && i == k - 1) {
        e = yi;  // the pair's coupling: decided after the row
      } else if (m.first(i) && m.E[i] != 0.0) {
        yFirst = yi;  // a 2x2 pivot's first: converted with its second, next in the pattern
      } else if (m.second(i) && m.E[i - 1] != 0.0) {  // [l_f l_i] = [y_f y_i] B^-1
        const double a = m.D[i - 1], b = m.E[i - 1], c = m.D[i], det = a * c - b * b;
        const double lf = (c * yFirst - b * yi) / det, li = (a * yi - b * yFirst) / det;
        d -= lf * yFirst + li * yi;
        m.append(i - 1, k, lf), m.append(i, k, li);
      } else {
        const double l = yi / m.D[i];
        d -= l * yi;
        m.append(i, k, l);
      }
    }
    if (m.second(k) && !pairPivots(m, k, e, d, tiny, replace, replaced)) return k - 1;
    m.E[k] = 0.0;
    // A pair's first pivot waits for its second row; any other pivot (and a 1x1 second) is checked now.
    if (!m.first(k) && !(m.second(k) && m.E[k - 1] != 0.0) && tinyPivot(d, m.rowMax[k], tiny) &&
        !replacePivot(m, k, d, replace, replaced))
      return k;
    // A pair's first is judged with its second: a 2x2 pivot (Bunch and Kaufman's test: |d| < 0.64 |e|) loses no
    // digits to its small diagonal; a small first taken alone makes the solve refine.
    if (m.second(k)) refine |= m.E[k - 1] == 0.0 && std::abs(m.D[k - 1]) < kRefineBelow * m.rowMax[k - 1];
    refine |= alone && !m.first(k) && std::abs(d) < kRefineBelow * m.rowMax[k];
    m.D[k] = d;
  }
  return m.n;
}

// Negative eigenvalues of D: 1x1 pivots by sign, a 2x2 one by its determinant and trace.
int negativeEigenvalues(const Numeric& m, int rank) {
  int negative = 0;
  for (int k = 0; k < rank; ++k) {
    if (k + 1 < rank && m.E[k] != 0.0) {
      const double a = m.D[k], b = m.E[k], c = m.D[k + 1], det = a * c - b * b;
      negative += det < 0.0 ? 1 : (a + c < 0.0 ? 2 : 0);
      ++k;
      continue;
    }
    negative += m.D[k] < 0.0;
  }
  return negative;
}

}  // namespace

// Ahat^-1 in place with the factor in ints/reals (permuted order), for the pivot correction.
FactorSolve factorSolve(const int* ints, const double* reals);

Storage storage(const Pattern& a, const int* keep) {
  const std::size_t n = std::size_t(a.n), nz = std::size_t(std::max(a.nz, 0)), lnz = factorNonzeros(a.n, keep);
  Storage s;
  // + Ap, Ai, the reach's pattern and flags, the corrected positions; + Ax, Y, the rows' largest entries, S
  s.ints = kHeader + n + (n + 1) + lnz + (n + 1) + nz + 2 * n + correctionInts(a.n);
  s.reals = axOffset(a.n, a.nz, lnz) + nz + 2 * n + correctionReals(a.n);
  for (std::size_t k = 0; k < n; ++k) s.flops += double(keep[2 * n + k]) * double(keep[2 * n + k]);
  return s;
}

Factorisation factorise(const Pattern& a, const int* keep, const Pivots& pivots, int* ints, double* reals,
                        int* scratch, RowPatterns* rows, const double* rowMaxIn) {
  const int n = a.n;
  const std::size_t N = std::size_t(n), lnz = factorNonzeros(n, keep);
  const int* perm = keep;
  const int* parent = keep + n;
  const int* colCount = keep + 2 * n;
  ints[0] = n;
  ints[1] = int(lnz);
  ints[2] = std::max(a.nz, 0);
  ints[3] = 0;
  ints[4] = 0;
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
  // the replaced pivots' changes, for correct(): in the correction's eigenvalue array (plan/kkt_pivot_correction.h)
  double* lambda = rowMax + N + std::size_t(correctable(n)) * std::size_t(correctable(n));
  int* pinv = scratch;
  int* lnzWork = scratch + N;
  std::copy(perm, perm + N, P);
  scatterMatrix(a, perm, reals, Ap, Ai, Ax, rowMax, rowMaxIn, pinv, lnzWork, rows);
  Lp[0] = 0;
  for (std::size_t k = 0; k < N; ++k) Lp[k + 1] = Lp[k] + colCount[k];
  std::fill(Y, Y + N, 0.0);
  double* D = reals;
  double* E = reals + N;
  double* Lx = reals + 2 * N;
  // pinv is done with: its room takes the replaced pivots' positions
  const Numeric m{n, Ap, Ai, parent, colCount, P, Ax, rowMax, Lp, Li,
                  lnzWork, pattern, flag, pinv, Lx, D, E, Y, lambda};
  Factorisation f;
  bool refine = false;
  const bool record = rows && !rows->complete;
  if (record) rows->start.assign(1, 0), rows->rows.clear(), rows->rows.reserve(lnz);
  f.rank = upLooking(m, pivots.tiny, pivots.replace, f.replaced, refine, rows);
  if (record) rows->complete = f.rank == n;  // a factorisation stopped early visited only some rows
  f.negative = negativeEigenvalues(m, f.rank);
  f.singular = f.rank < n;
  ints[3] = (refine ? 1 : 0) | (f.replaced > 0 ? 2 : 0);  // why solve() refines: a lone small pivot, a replaced one
  return f;
}

void correct(const int* scratch, int* ints, double* reals, Factorisation& f) {
  const int n = ints[0];
  if (f.singular || f.replaced == 0 || f.replaced > correctable(n)) return;
  const std::size_t N = std::size_t(n), lnz = std::size_t(ints[1]), nz = std::size_t(ints[2]);
  int* positions = ints + kHeader + N + (N + 1) + lnz + (N + 1) + nz + 2 * N;
  double* Y = reals + axOffset(n, ints[2], lnz) + nz;
  double* Q = Y + 2 * N;
  double* lambda = Q + std::size_t(correctable(n)) * std::size_t(correctable(n));
  std::copy(scratch, scratch + f.replaced, positions);
  // An S singular to round-off (A singular) keeps the perturbed factor, which solve() refines.
  const CorrectionInertia c = buildCorrection(n, f.replaced, positions, lambda, factorSolve(ints, reals), Q, lambda, Y);
  if (c.singular) return;
  ints[4] = f.replaced;
  f.negative += c.negativeShift;
  ints[3] &= 1;  // the replaced pivots need no refinement now
}

namespace {

// x = A^-1 b with the factor, all in the permuted order: L, D's 1x1 and 2x2 blocks, L^T.
void ldlSolve(int n, const int* Lp, const int* Li, const double* Lx, const double* D, const double* E, double* x) {
  lowerSolve(n, Lp, Li, Lx, x);
  for (int k = 0; k < n; ++k) {
    if (E[k] == 0.0) {
      x[k] /= D[k];
      continue;
    }
    const double a = D[k], b = E[k], c = D[k + 1], det = a * c - b * b, u = x[k], v = x[k + 1];
    x[k] = (c * u - b * v) / det, x[k + 1] = (a * v - b * u) / det;
    ++k;
  }
  upperSolve(n, Lp, Li, Lx, x);
}

}  // namespace

void matrixValues(const Pattern& a, const int* ints, const double* reals, double* values) {
  const int n = ints[0];
  const std::size_t N = std::size_t(n), lnz = std::size_t(ints[1]);
  const int* P = ints + kHeader;
  const int* Ap = P + N + (N + 1) + lnz;
  const double* Ax = reals + axOffset(n, ints[2], lnz);
  std::vector<int> pinv(N), next(Ap, Ap + N);  // factorise()'s scatter of the triplets, again
  for (int k = 0; k < n; ++k) pinv[std::size_t(pivotRow(P, k))] = k;
  for (int t = 0; t < a.nz; ++t)
    values[t] = a.inRange(t) ? Ax[next[std::size_t(std::max(pinv[std::size_t(a.rows[t] - 1)], pinv[std::size_t(a.cols[t] - 1)]))]++] : 0.0;
}

namespace {

// r = P b - (P A P^T) x with the upper triangle kept beside the factor; returns max |r| relative to
// aMax max |x| + max |b| (aMax = max |A|). Column j's entries (rows i <= j) update r_j in a register: no other column
// touches r_j meanwhile, so the sums are the same as entry by entry, without a store and reload per entry.
double residual(int n, const int* P, const int* Ap, const int* Ai, const double* Ax, double aMax, const double* rhs,
                const double* x, double* r) {
  double bMax = 0.0, xMax = 0.0, rMax = 0.0;
  for (int k = 0; k < n; ++k) r[k] = rhs[pivotRow(P, k)], bMax = std::max(bMax, std::abs(r[k])), xMax = std::max(xMax, std::abs(x[k]));
  for (int j = 0; j < n; ++j) {
    const double xj = x[j];
    double rj = r[j];
    for (int p = Ap[j]; p < Ap[j + 1]; ++p) {
      const int i = Ai[p];
      if (i == j) {
        rj -= Ax[p] * xj;
        continue;
      }
      r[i] -= Ax[p] * xj;
      rj -= Ax[p] * x[i];
    }
    r[j] = rj;
  }
  for (int k = 0; k < n; ++k) rMax = std::max(rMax, std::abs(r[k]));
  return rMax / (aMax * xMax + bMax);
}

}  // namespace

FactorSolve factorSolve(const int* ints, const double* reals) {
  const int n = ints[0];
  const std::size_t N = std::size_t(n);
  const int* Lp = ints + kHeader + N;
  const int* Li = Lp + N + 1;
  const double* D = reals;
  const double* E = D + N;
  const double* Lx = E + N;
  return [=](double* v) { ldlSolve(n, Lp, Li, Lx, D, E, v); };
}

void solve(const int* ints, const double* reals, double* rhs, double* work) {
  const int n = ints[0], corrected = ints[4];
  const std::size_t N = std::size_t(n), lnz = std::size_t(ints[1]);
  const int* P = ints + kHeader;
  const int* Ap = P + N + (N + 1) + lnz;
  const int* Ai = Ap + N + 1;
  const double* Ax = reals + axOffset(n, ints[2], lnz);
  const FactorSolve factor = factorSolve(ints, reals);
  // A^-1 v: the factor's solve, corrected for its replaced pivots (plan/kkt_pivot_correction.h)
  const int* positions = Ai + std::max(ints[2], 0) + 2 * N;
  const double* Q = Ax + std::max(ints[2], 0) + 2 * N;
  const double* lambda = Q + std::size_t(correctable(n)) * std::size_t(correctable(n));
  double *x = work, *r = work + N, *step = work + 2 * N, *tmp = work + 3 * N;
  const auto solveA = [&](double* v) {
    factor(v);
    if (corrected > 0) applyCorrection(n, corrected, positions, Q, lambda, factor, v, tmp);
  };
  for (int k = 0; k < n; ++k) x[k] = rhs[pivotRow(P, k)];
  solveA(x);
  if (ints[3]) {  // x += A^-1 r while that at least halves |r|; a step that makes |r| larger is taken back
    double last = INFINITY;
    const double* rowMax = Ax + std::max(ints[2], 0) + N;  // factorise()'s: max |A| over its rows' largest entries
    const double aMax = *std::max_element(rowMax, rowMax + N);
    for (int k = 0; k < kRefinementSteps; ++k) {
      const double rel = residual(n, P, Ap, Ai, Ax, aMax, rhs, x, r);
      if (k > 0 && !(rel <= last))
        for (std::size_t i = 0; i < N; ++i) x[i] -= step[i];
      if (!(rel > 1e-15) || !(rel < 0.5 * last)) break;
      last = rel;
      solveA(r);
      for (std::size_t i = 0; i < N; ++i) x[i] += r[i], step[i] = r[i];
    }
  }
  for (int k = 0; k < n; ++k) rhs[pivotRow(P, k)] = x[k];
}

}  // namespace varsim::kkt
