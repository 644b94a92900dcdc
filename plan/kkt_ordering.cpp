// plan/kkt_ordering.cpp — AMD order with each zero-diagonal row paired to a partner, and LDL's symbolic pass; see
// kkt_ordering.h. Why the pairs: with static 1x1 pivots, a constraint row of [W J^T; J 0] eliminated before its
// variables has pivot exactly 0, and Ipopt would have to regularise (delta_c > 0) a system MUMPS solves as it is
// (its least-squares multipliers [I J^T; J 0] at the start, every step without regularisation); eliminated right
// after a partner variable it is the second pivot of a 2x2 block [h a; a 0], non-zero (Duff and Pralet's matching
// for symmetric indefinite systems, greedy here).
#include "plan/kkt_ordering.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <vector>

#include <amd.h>
extern "C" {  // ldl.h declares its C functions without C linkage
#include <ldl.h>
}

namespace varsim::kkt {
namespace {

// The off-diagonal pattern of A + A^T by columns, with each entry's value (0 when no values are given).
struct Adjacency {
  std::vector<int> p, i;
  std::vector<double> x;
};

bool adjacency(const Pattern& a, const double* values, Adjacency& g) {
  const std::size_t N = std::size_t(a.n);
  g.p.assign(N + 1, 0);
  for (int t = 0; t < a.nz; ++t)
    if (a.inRange(t) && a.rows[t] != a.cols[t]) ++g.p[std::size_t(a.rows[t])], ++g.p[std::size_t(a.cols[t])];
  for (std::size_t j = 0; j < N; ++j) g.p[j + 1] += g.p[j];
  if (g.p[N] < 0) return false;  // int overflow of the pattern's size
  g.i.resize(std::size_t(std::max(g.p[N], 1)));
  g.x.assign(g.i.size(), 0.0);
  std::vector<int> next(g.p.begin(), g.p.end() - 1);
  for (int t = 0; t < a.nz; ++t) {
    if (!a.inRange(t) || a.rows[t] == a.cols[t]) continue;
    const int r = a.rows[t] - 1, c = a.cols[t] - 1;
    const double v = values ? values[t] : 0.0;
    const int at = next[std::size_t(c)]++, bt = next[std::size_t(r)]++;
    g.i[std::size_t(at)] = r, g.x[std::size_t(at)] = v;
    g.i[std::size_t(bt)] = c, g.x[std::size_t(bt)] = v;
  }
  return true;
}

// Parent and column counts of L for keep's permutation.
bool symbolic(int n, Adjacency& g, int* keep) {
  const std::size_t N = std::size_t(n);
  std::vector<int> Lp(N + 1), flag(N), pinv(N);
  for (std::size_t k = 0; k < N; ++k) pinv[std::size_t(keep[k])] = int(k);
  ldl_symbolic(n, g.p.data(), g.i.data(), Lp.data(), keep + n, keep + 2 * n, flag.data(), keep, pinv.data());
  return factorNonzeros(n, keep) < std::size_t(INT_MAX / 2);
}

bool amdOrder(int n, Adjacency& g, int* perm) {
  const int ok = amd_order(n, g.p.data(), g.i.data(), perm, nullptr, nullptr);
  return ok == AMD_OK || ok == AMD_OK_BUT_JUMBLED;
}

// A neighbour whose entry is at least this fraction of a zero-diagonal row's largest entry can be its partner: a weak
// coupling (heli_canyon's least-squares multipliers: a Jacobian entry 1.5e-8 beside entries ~1) leaves a pivot of
// 1e-16, as good as zero.
constexpr double kStrong = 0.1;

constexpr int kChain = 1;

bool strong(double entry, double rowMax) { return entry != 0.0 && std::abs(entry) >= kStrong * rowMax; }

// Each zero-diagonal row's partner: a distinct strong neighbour with a non-zero diagonal, the largest entry first,
// rows with the fewest candidates matched first (greedy; -1: none left). Distinct partners matter: two constraint
// rows through one variable would leave the second one's pivot 0.
std::vector<int> partners(int n, const Adjacency& g, const std::vector<char>& zero, const std::vector<double>& rowMax) {
  const std::size_t N = std::size_t(n);
  std::vector<int> partner(N, -1), candidates(N, 0), rows;
  std::vector<char> taken(N, 0);
  for (std::size_t r = 0; r < N; ++r) {
    if (!zero[r]) continue;
    for (int q = g.p[r]; q < g.p[r + 1]; ++q)
      candidates[r] += !zero[std::size_t(g.i[std::size_t(q)])] && strong(g.x[std::size_t(q)], rowMax[r]);
    if (candidates[r] > 0) rows.push_back(int(r));
  }
  std::stable_sort(rows.begin(), rows.end(), [&](int x, int y) { return candidates[std::size_t(x)] < candidates[std::size_t(y)]; });
  for (const int r : rows) {
    const std::size_t R = std::size_t(r);
    double best = 0.0;
    for (int q = g.p[R]; q < g.p[R + 1]; ++q) {
      const std::size_t j = std::size_t(g.i[std::size_t(q)]);
      const double v = std::abs(g.x[std::size_t(q)]);
      if (!zero[j] && !taken[j] && strong(v, rowMax[R]) && v > best) best = v, partner[R] = int(j);
    }
    if (partner[R] >= 0) taken[std::size_t(partner[R])] = 1;
  }
  for (const int r : rows) {  // no distinct partner left: share the strongest neighbour's (its pivot may vanish)
    const std::size_t R = std::size_t(r);
    double best = 0.0;
    for (int q = g.p[R]; q < g.p[R + 1] && partner[R] < 0; ++q) {
      const std::size_t j = std::size_t(g.i[std::size_t(q)]);
      const double v = std::abs(g.x[std::size_t(q)]);
      if (!zero[j] && strong(v, rowMax[R]) && v > best) best = v;
    }
    for (int q = g.p[R]; q < g.p[R + 1] && partner[R] < 0; ++q)
      if (!zero[std::size_t(g.i[std::size_t(q)])] && std::abs(g.x[std::size_t(q)]) == best) partner[R] = g.i[std::size_t(q)];
  }
  // A zero row whose strong neighbours are all zero rows follows the strongest one that has a partner (chains of up
  // to kChain rows): its pivot is filled by that row's, and when a regularised system (delta_w > 0) makes those
  // neighbours non-zero the order still fits, so the systems Ipopt alternates between do not re-order each time.
  for (int pass = 0; pass < kChain; ++pass)
    for (std::size_t r = 0; r < N; ++r) {
      if (!zero[r] || candidates[r] > 0 || partner[r] >= 0) continue;
      double best = 0.0;
      for (int q = g.p[r]; q < g.p[r + 1]; ++q) {
        const std::size_t j = std::size_t(g.i[std::size_t(q)]);
        const double v = std::abs(g.x[std::size_t(q)]);
        if (zero[j] && candidates[j] > 0 && partner[j] >= 0 && strong(v, rowMax[r]) && v > best) best = v, partner[r] = int(j);
      }
    }
  return partner;
}

// AMD's order of the graph with each zero-diagonal row merged into its partner, expanded with the row right after its
// partner: the pair is eliminated as consecutive pivots (a static 2x2 pivot in 1x1 steps), the fill close to AMD's.
bool pairedOrder(int n, const Adjacency& g, const std::vector<int>& partner, int* perm) {
  const std::size_t N = std::size_t(n);
  std::vector<int> node(N, -1), first;  // node: the merged graph's node of each row; first: its lead row
  std::vector<int> depth(N, 0);         // 0 a lead row, k its partner has depth k - 1
  for (std::size_t r = 0; r < N; ++r)
    if (partner[r] < 0) node[r] = int(first.size()), first.push_back(int(r));
  for (int level = 1; level <= kChain + 1; ++level)
    for (std::size_t r = 0; r < N; ++r) {
      const int p = partner[r];
      if (p >= 0 && node[r] < 0 && node[std::size_t(p)] >= 0 && depth[std::size_t(p)] == level - 1)
        node[r] = node[std::size_t(p)], depth[r] = level;
    }
  Adjacency m;
  const std::size_t M = first.size();
  m.p.assign(M + 1, 0);
  for (std::size_t r = 0; r < N; ++r)
    for (int q = g.p[r]; q < g.p[r + 1]; ++q) m.p[std::size_t(node[r]) + 1] += node[r] != node[std::size_t(g.i[std::size_t(q)])];
  for (std::size_t j = 0; j < M; ++j) m.p[j + 1] += m.p[j];
  m.i.resize(std::size_t(std::max(m.p[M], 1)));
  std::vector<int> next(m.p.begin(), m.p.end() - 1), order(M);
  for (std::size_t r = 0; r < N; ++r)
    for (int q = g.p[r]; q < g.p[r + 1]; ++q) {
      const int other = node[std::size_t(g.i[std::size_t(q)])];
      if (other != node[r]) m.i[std::size_t(next[std::size_t(node[r])]++)] = other;
    }
  if (!amdOrder(int(M), m, order.data())) return false;
  std::vector<int> start(M + 1, 0), rows(N);  // the zero-diagonal rows merged into each node, by node
  for (std::size_t r = 0; r < N; ++r) start[std::size_t(node[r]) + 1] += depth[r] > 0;
  for (std::size_t j = 0; j < M; ++j) start[j + 1] += start[j];
  std::copy(start.begin(), start.end() - 1, next.begin());
  for (int level = 1; level <= kChain + 1; ++level)  // a row after the one its pivot is filled by
    for (std::size_t r = 0; r < N; ++r)
      if (depth[r] == level) rows[std::size_t(next[std::size_t(node[r])]++)] = int(r);
  std::size_t out = 0;
  for (const int v : order) {
    perm[out++] = first[std::size_t(v)];
    for (int q = start[std::size_t(v)]; q < start[std::size_t(v) + 1]; ++q) perm[out++] = rows[std::size_t(q)];
  }
  return true;
}

}  // namespace

std::size_t factorNonzeros(int n, const int* keep) {
  std::size_t lnz = 0;
  for (int k = 0; k < n; ++k) lnz += std::size_t(keep[2 * n + k]);
  return lnz;
}

bool analyse(const Pattern& a, int* keep) {
  if (a.n < 1 || a.nz < 0) return false;
  Adjacency g;
  return adjacency(a, nullptr, g) && amdOrder(a.n, g, keep) && symbolic(a.n, g, keep);
}

bool fitOrdering(const Pattern& a, const double* values, double tolerance, int* keep) {
  const std::size_t N = std::size_t(a.n);
  std::vector<double> diag(N, 0.0), rowMax(N, 0.0);
  std::vector<int> pinv(N);
  for (std::size_t k = 0; k < N; ++k) pinv[std::size_t(keep[k])] = int(k);
  for (int t = 0; t < a.nz; ++t) {
    if (!a.inRange(t)) continue;
    const std::size_t r = std::size_t(a.rows[t] - 1), c = std::size_t(a.cols[t] - 1);
    const double v = std::abs(values[t]);
    rowMax[r] = std::max(rowMax[r], v), rowMax[c] = std::max(rowMax[c], v);
    if (r == c) diag[r] += values[t];
  }
  std::vector<char> zero(N, 0), candidate(N, 0), paired(N, 0);
  for (std::size_t r = 0; r < N; ++r) zero[r] = !(std::abs(diag[r]) > tolerance * rowMax[r]);
  // The order fits when each zero-diagonal row with a candidate partner comes after one (a pair built here puts it
  // right after; a later factorisation keeps the order while that holds: re-ordering costs about a factorisation).
  const auto see = [&](std::size_t r, std::size_t c, double v) {
    if (!zero[r] || zero[c] || !strong(v, rowMax[r])) return;
    candidate[r] = 1;
    if (pinv[c] < pinv[r]) paired[r] = 1;
  };
  for (int t = 0; t < a.nz; ++t) {
    if (!a.inRange(t) || a.rows[t] == a.cols[t]) continue;
    const std::size_t r = std::size_t(a.rows[t] - 1), c = std::size_t(a.cols[t] - 1);
    see(r, c, values[t]), see(c, r, values[t]);
  }
  bool fits = true;
  for (std::size_t r = 0; r < N && fits; ++r) fits = !candidate[r] || paired[r];
  if (fits) return true;
  Adjacency g;
  return adjacency(a, values, g) && pairedOrder(a.n, g, partners(a.n, g, zero, rowMax), keep) && symbolic(a.n, g, keep);
}

}  // namespace varsim::kkt
