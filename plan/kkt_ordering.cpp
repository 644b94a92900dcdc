// plan/kkt_ordering.cpp — AMD order with zero-diagonal rows after a neighbour, and LDL's symbolic pass; see
// kkt_ordering.h. Why the amendment: with static 1x1 pivots, a constraint row of [W J^T; J 0] eliminated before all
// of its variables has pivot exactly 0, and Ipopt would have to regularise (delta_c > 0) a system MUMPS solves as it
// is (its least-squares multipliers [I J^T; J 0] at the start, every step without regularisation).
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

// A neighbour whose entry is at least this fraction of a zero-diagonal row's largest fills the row's pivot with
// -a^2 / d: a weak coupling (heli_canyon's least-squares multipliers: a Jacobian entry 1.5e-8 beside entries ~1)
// leaves a pivot of 1e-16, as good as zero.
constexpr double kStrong = 0.1;

// AMD's order with each row in `zero` held back until a strong neighbour is placed, then placed right after it; rows
// whose strong neighbours are all held back go last.
void delayZeroRows(int n, const Adjacency& g, const std::vector<char>& zero, const std::vector<double>& rowMax,
                   int* perm) {
  const std::size_t N = std::size_t(n);
  const std::vector<int> amd(perm, perm + N);
  std::vector<char> placed(N, 0), waiting(N, 0);
  std::vector<int> stack;
  std::size_t out = 0;
  const auto place = [&](int v) {
    stack.push_back(v);
    while (!stack.empty()) {
      const std::size_t u = std::size_t(stack.back());
      stack.pop_back();
      perm[out++] = int(u), placed[u] = 1;
      for (int q = g.p[u]; q < g.p[u + 1]; ++q) {
        const std::size_t w = std::size_t(g.i[std::size_t(q)]);
        if (waiting[w] && std::abs(g.x[std::size_t(q)]) >= kStrong * rowMax[w]) waiting[w] = 0, stack.push_back(int(w));
      }
    }
  };
  for (const int v : amd) {
    const std::size_t V = std::size_t(v);
    if (placed[V] || waiting[V]) continue;
    bool ready = !zero[V];
    for (int q = g.p[V]; q < g.p[V + 1] && !ready; ++q)
      ready = placed[std::size_t(g.i[std::size_t(q)])] && std::abs(g.x[std::size_t(q)]) >= kStrong * rowMax[V];
    if (ready) place(v);
    else waiting[V] = 1;
  }
  for (const int v : amd)
    if (waiting[std::size_t(v)]) waiting[std::size_t(v)] = 0, place(v);
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
  std::vector<int> pinv(N), first(N, a.n);  // first: the earliest pivot among a row's strong neighbours
  for (std::size_t k = 0; k < N; ++k) pinv[std::size_t(keep[k])] = int(k);
  for (int t = 0; t < a.nz; ++t) {
    if (!a.inRange(t)) continue;
    const std::size_t r = std::size_t(a.rows[t] - 1), c = std::size_t(a.cols[t] - 1);
    const double v = std::abs(values[t]);
    rowMax[r] = std::max(rowMax[r], v), rowMax[c] = std::max(rowMax[c], v);
    if (r == c) diag[r] += values[t];
  }
  for (int t = 0; t < a.nz; ++t) {
    if (!a.inRange(t) || a.rows[t] == a.cols[t]) continue;
    const std::size_t r = std::size_t(a.rows[t] - 1), c = std::size_t(a.cols[t] - 1);
    const double v = std::abs(values[t]);
    if (v > 0.0 && v >= kStrong * rowMax[r]) first[r] = std::min(first[r], pinv[c]);
    if (v > 0.0 && v >= kStrong * rowMax[c]) first[c] = std::min(first[c], pinv[r]);
  }
  std::vector<char> zero(N, 0);
  bool fits = true;
  for (std::size_t r = 0; r < N; ++r) {
    zero[r] = !(std::abs(diag[r]) > tolerance * rowMax[r]);
    if (zero[r] && first[r] < a.n && first[r] > pinv[r]) fits = false;
  }
  if (fits) return true;
  Adjacency g;
  if (!adjacency(a, values, g) || !amdOrder(a.n, g, keep)) return false;
  delayZeroRows(a.n, g, zero, rowMax, keep);
  return symbolic(a.n, g, keep);
}

}  // namespace varsim::kkt
