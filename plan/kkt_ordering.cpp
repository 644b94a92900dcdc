// plan/kkt_ordering.cpp — AMD order with each zero-diagonal row paired to a partner, and LDL's symbolic pass; see
// kkt_ordering.h. Why the pairs: a constraint row of [W J^T; J 0] eliminated alone before its variables has pivot
// exactly 0, and Ipopt would have to regularise (delta_c > 0) a system MUMPS solves as it is (its least-squares
// multipliers [I J^T; J 0] at the start, every step without regularisation); eliminated with a partner it couples
// to, the pair is a 2x2 pivot [h a; a 0] (or [0 a; a 0]) that the factorisation takes whole when h is small.
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

// Parent and column counts of L for keep's permutation. A pair's first column takes its 2x2 block column: the row of
// its second pivot and every row of the second's column (the etree makes the second the first's parent, so the first's
// scalar column is a subset); a pair whose pivots are not coupled in the pattern is split into two 1x1 pivots.
bool symbolic(int n, Adjacency& g, int* keep) {
  const std::size_t N = std::size_t(n);
  std::vector<int> Lp(N + 1), flag(N), perm(N), pinv(N);
  for (std::size_t k = 0; k < N; ++k) perm[k] = pivotRow(keep, int(k)), pinv[std::size_t(perm[k])] = int(k);
  int* parent = keep + n;
  int* count = keep + 2 * n;
  ldl_symbolic(n, g.p.data(), g.i.data(), Lp.data(), parent, count, flag.data(), perm.data(), pinv.data());
  for (std::size_t k = 1; k < N; ++k) {
    if (!pairedWithPrevious(keep, int(k))) continue;
    if (parent[k - 1] == int(k)) count[k - 1] = count[k] + 1;
    else keep[k] = perm[k];
  }
  return factorNonzeros(n, keep) < std::size_t(INT_MAX / 2);
}

bool amdOrder(int n, Adjacency& g, int* perm) {
  const int ok = amd_order(n, g.p.data(), g.i.data(), perm, nullptr, nullptr);
  return ok == AMD_OK || ok == AMD_OK_BUT_JUMBLED;
}

// A neighbour whose entry is at least this fraction of a zero-diagonal row's largest entry can be its partner: a weak
// coupling (heli_canyon's least-squares multipliers: a Jacobian entry 1.5e-8 beside entries ~1) makes a 2x2 pivot as
// singular as the zero alone.
constexpr double kStrong = 0.1;

bool strong(double entry, double rowMax, double fraction = kStrong) {
  return entry != 0.0 && std::abs(entry) >= fraction * rowMax;
}

// Pairs: mate[r] the row pivoted with r (-1: none), second[r] whether r is the pair's second pivot; follow[r] the row
// whose pair a zero-diagonal row left over (its strong neighbours all taken) is eliminated after (-1: none); forbid[r]
// a partner r must not take (a pair whose factorisation failed).
struct Matching {
  explicit Matching(std::size_t n) : mate(n, -1), follow(n, -1), forbid(n, -1), second(n, 0) {}
  std::vector<int> mate, follow, forbid;
  std::vector<char> second;
  void pair(int first, int second_) {
    mate[std::size_t(first)] = second_, mate[std::size_t(second_)] = first, second[std::size_t(second_)] = 1;
  }
};

// An augmenting path from the unmatched row r (Kuhn's depth-first search): r -> j1 (mate s1) -> j2 (mate s2) ... ->
// j_t untaken, then r takes j1, s1 takes j2, ...: every row keeps a partner and r gains one. True if found.
// `seen` holds the search's stamp on each partner tried (distinct per search).
bool augment(const Adjacency& g, int r, Matching& m, std::vector<int>& seen, int stamp) {
  struct Level {
    int row, next, via;  // the row, its next edge, the partner it was reached through (its mate before)
  };
  std::vector<Level> path{{r, g.p[std::size_t(r)], -1}};
  seen[std::size_t(r)] = stamp;  // r itself is no partner of its path
  while (!path.empty()) {
    Level& top = path.back();
    if (top.next == g.p[std::size_t(top.row) + 1]) {
      path.pop_back();
      continue;
    }
    const int q = top.next++;
    const int j = g.i[std::size_t(q)];
    const std::size_t J = std::size_t(j);
    if (g.x[std::size_t(q)] == 0.0 || seen[J] == stamp || m.second[J] || m.forbid[std::size_t(top.row)] == j) continue;
    seen[J] = stamp;
    if (m.mate[J] >= 0) {
      if (m.second[std::size_t(m.mate[J])]) path.push_back({m.mate[J], g.p[std::size_t(m.mate[J])], j});
      continue;
    }
    for (int partner = j, l = int(path.size()) - 1; l >= 0; --l) {  // flip the path's pairs
      const int row = path[std::size_t(l)].row;
      m.pair(partner, row);
      partner = path[std::size_t(l)].via;
    }
    return true;
  }
  return false;
}

// Greedy matching of each zero-diagonal row with a distinct strong neighbour (zero diagonal or not: [0 a; a 0] is as
// good a 2x2 pivot as [h a; a 0]), the rows with the fewest candidates first, the largest entry first (Duff and
// Pralet's matching for symmetric indefinite systems, greedy here).
// `m` may hold pairs already (kept) and forbidden partners.
Matching match(int n, const Adjacency& g, const std::vector<char>& zero, const std::vector<double>& rowMax, Matching m) {
  const std::size_t N = std::size_t(n);
  std::vector<int> candidates(N, 0), rows;
  for (std::size_t r = 0; r < N; ++r) {
    if (!zero[r]) continue;
    for (int q = g.p[r]; q < g.p[r + 1]; ++q) candidates[r] += strong(g.x[std::size_t(q)], rowMax[r]);
    if (candidates[r] > 0) rows.push_back(int(r));
  }
  std::stable_sort(rows.begin(), rows.end(), [&](int x, int y) { return candidates[std::size_t(x)] < candidates[std::size_t(y)]; });
  const auto strongest = [&](std::size_t r, bool untaken, double fraction) {
    int best = -1;
    double bestValue = 0.0;
    for (int q = g.p[r]; q < g.p[r + 1]; ++q) {
      const std::size_t j = std::size_t(g.i[std::size_t(q)]);
      const double v = std::abs(g.x[std::size_t(q)]);
      const bool free = m.mate[j] < 0 && m.forbid[r] != int(j);
      if ((!untaken || free) && strong(v, rowMax[r], fraction) && v > bestValue) bestValue = v, best = int(j);
    }
    return best;
  };
  // Strong partners first; a row whose strong neighbours are all taken then takes its largest untaken neighbour (a
  // row left behind a pair with only that pair's variables eliminated would have pivot exactly 0).
  for (const double fraction : {kStrong, 0.0})
    for (const int r : rows) {
      const std::size_t R = std::size_t(r);
      if (m.mate[R] >= 0) continue;  // already some row's partner
      const int j = strongest(R, true, fraction);
      if (j >= 0) m.pair(j, r);
    }
  std::vector<int> seen(N, -1);
  for (const int r : rows)
    if (m.mate[std::size_t(r)] < 0) augment(g, r, m, seen, r);
  for (const int r : rows)  // after every search: a later one may take an earlier unmatched row as a partner
    if (m.mate[std::size_t(r)] < 0) m.follow[std::size_t(r)] = strongest(std::size_t(r), false, kStrong);
  return m;
}

// AMD's order of the graph with each pair (and the rows following it) merged into one node, expanded with the pair's
// pivots consecutive, its second marked in perm, then its followers: the fill stays close to AMD's.
bool pairedOrder(int n, const Adjacency& g, const Matching& pairs, int* perm) {
  const std::size_t N = std::size_t(n);
  std::vector<int> node(N, -1), first;  // node: the merged graph's node of each row; first: its lead row
  for (std::size_t r = 0; r < N; ++r)
    if (!pairs.second[r] && pairs.follow[r] < 0) node[r] = int(first.size()), first.push_back(int(r));
  for (std::size_t r = 0; r < N; ++r)
    if (pairs.mate[r] >= 0 && pairs.second[r]) node[r] = node[std::size_t(pairs.mate[r])];
  for (std::size_t r = 0; r < N; ++r)
    if (pairs.follow[r] >= 0) node[r] = node[std::size_t(pairs.follow[r])];
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
  std::vector<int> start(M + 1, 0), rows(N);  // the followers merged into each node, by node
  for (std::size_t r = 0; r < N; ++r) start[std::size_t(node[r]) + 1] += pairs.follow[r] >= 0;
  for (std::size_t j = 0; j < M; ++j) start[j + 1] += start[j];
  for (std::size_t j = 0; j < M; ++j) next[j] = start[j];
  for (std::size_t r = 0; r < N; ++r)
    if (pairs.follow[r] >= 0) rows[std::size_t(next[std::size_t(node[r])]++)] = int(r);
  std::size_t out = 0;
  for (const int v : order) {
    const int lead = first[std::size_t(v)], mate = pairs.mate[std::size_t(lead)];
    perm[out++] = lead;
    if (mate >= 0) perm[out++] = -mate - 1;
    for (int q = start[std::size_t(v)]; q < start[std::size_t(v) + 1]; ++q) perm[out++] = rows[std::size_t(q)];
  }
  return true;
}

// Each row's summed diagonal and largest |entry|, and whether its diagonal is zero (|diagonal| <= tolerance * largest).
struct RowStats {
  std::vector<double> rowMax;
  std::vector<char> zero;
};

RowStats rowStats(const Pattern& a, const double* values, double tolerance) {
  const std::size_t N = std::size_t(a.n);
  std::vector<double> diag(N, 0.0);
  RowStats st{std::vector<double>(N, 0.0), std::vector<char>(N, 0)};
  for (int t = 0; t < a.nz; ++t) {
    if (!a.inRange(t)) continue;
    const std::size_t r = std::size_t(a.rows[t] - 1), c = std::size_t(a.cols[t] - 1);
    const double v = std::abs(values[t]);
    st.rowMax[r] = std::max(st.rowMax[r], v), st.rowMax[c] = std::max(st.rowMax[c], v);
    if (r == c) diag[r] += values[t];
  }
  for (std::size_t r = 0; r < N; ++r) st.zero[r] = !(std::abs(diag[r]) > tolerance * st.rowMax[r]);
  return st;
}

// AMD's order of the pairs of `m` completed by the matching, and its symbolic pass, into keep.
bool pairedKeep(const Pattern& a, const double* values, const RowStats& st, const Matching& m, int* keep) {
  Adjacency g;
  return adjacency(a, values, g) && pairedOrder(a.n, g, match(a.n, g, st.zero, st.rowMax, m), keep) &&
         symbolic(a.n, g, keep);
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

bool fitOrdering(const Pattern& a, const double* values, double tolerance, int* keep, double* rowMaxOut) {
  const std::size_t N = std::size_t(a.n);
  std::vector<int> mate(N, -1), pinv(N);  // keep's pairs
  for (std::size_t k = 0; k < N; ++k) pinv[std::size_t(pivotRow(keep, int(k)))] = int(k);
  for (std::size_t k = 1; k < N; ++k)
    if (pairedWithPrevious(keep, int(k))) {
      const int f = pivotRow(keep, int(k) - 1), s = pivotRow(keep, int(k));
      mate[std::size_t(f)] = s, mate[std::size_t(s)] = f;
    }
  const RowStats st = rowStats(a, values, tolerance);
  const std::vector<char>& zero = st.zero;
  const std::vector<double>& rowMax = st.rowMax;
  if (rowMaxOut) std::copy(rowMax.begin(), rowMax.end(), rowMaxOut);
  // A zero-diagonal row in a pair fits as soon as it has any nonzero neighbour (a strong one is nonzero): only rows
  // without a partner need the scan below (the MPC's orders pair every one of them).
  bool unpaired = false;
  for (std::size_t r = 0; r < N && !unpaired; ++r) unpaired = zero[r] && mate[r] < 0;
  if (!unpaired) return true;
  std::vector<char> candidate(N, 0), paired(N, 0);
  // The order fits when each zero-diagonal row with a strong neighbour is in a pair still coupled, or comes after a
  // strong neighbour (a row left over by the matching: that neighbour's elimination fills its pivot).
  const auto see = [&](std::size_t r, std::size_t c, double v) {
    if (!zero[r] || v == 0.0) return;
    candidate[r] |= strong(v, rowMax[r]);
    if (mate[r] >= 0 || pinv[c] < pinv[r]) paired[r] = 1;
  };
  for (int t = 0; t < a.nz; ++t) {
    if (!a.inRange(t) || a.rows[t] == a.cols[t]) continue;
    const std::size_t r = std::size_t(a.rows[t] - 1), c = std::size_t(a.cols[t] - 1);
    see(r, c, values[t]), see(c, r, values[t]);
  }
  bool fits = true;
  for (std::size_t r = 0; r < N && fits; ++r) fits = !candidate[r] || paired[r];
  return fits || pairedKeep(a, values, st, Matching(N), keep);
}

bool refitOrdering(const Pattern& a, const double* values, const int* failed, int count, int* keep) {
  const std::size_t N = std::size_t(a.n);
  RowStats st = rowStats(a, values, 0.0);
  Matching m(N);
  for (int k = 1; k < a.n; ++k)
    if (pairedWithPrevious(keep, k)) m.pair(pivotRow(keep, k - 1), pivotRow(keep, k));
  for (int i = 0; i < count; ++i) {
    const int k = failed[i];
    const int s = pairedWithPrevious(keep, k) ? k : k + 1 < a.n && pairedWithPrevious(keep, k + 1) ? k + 1 : -1;
    if (s < 0) {  // a pivot alone: its row looks for a partner
      st.zero[std::size_t(pivotRow(keep, k))] = 1;
      continue;
    }
    const std::size_t f = std::size_t(pivotRow(keep, s - 1)), r = std::size_t(pivotRow(keep, s));
    m.mate[f] = m.mate[r] = -1, m.second[r] = 0, m.forbid[r] = int(f), st.zero[r] = 1;
  }
  return pairedKeep(a, values, st, m, keep);
}

}  // namespace varsim::kkt
