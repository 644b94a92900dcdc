// plan/kkt_triangular.cpp — the KKT LDL^T's triangular kernels: the factorisation's row solve over supernode runs,
// and the solves with L and L^T; see kkt_triangular.h.
#include "plan/kkt_triangular.h"

namespace varsim::kkt {
namespace {

// The columns j of one supernode of L (parent j + 1, column j's rows j + 1 and column j + 1's): the row solve takes a
// run of up to this many of them at once.
constexpr int kRun = 4;

bool nested(const int* parent, const int* colCount, int j) {
  return parent[j] == j + 1 && colCount[j] == colCount[j + 1] + 1;
}

// A run of T columns c = i .. e = i + T - 1 (column c's first e - c rows are c + 1 .. e, the rest column e's): y_i ..
// y_e from the triangle in registers, then Y[rows of e] -= l_i y_i, then -= l_{i+1} y_{i+1}, ... on each row, each
// loaded and stored once. The same operations in the same order as column by column.
template <int T>
void runUpdate(double* Y, const int* Lp, const int* Li, const double* Lx, int i, int count) {
  double y[T];
  for (int a = 0; a < T; ++a) y[a] = Y[i + a];
  for (int a = 0; a < T; ++a)
    for (int b = a + 1; b < T; ++b) y[b] -= Lx[Lp[i + a] + (b - a - 1)] * y[a];
  const double* l[T];
  for (int a = 0; a < T; ++a) Y[i + a] = y[a], l[a] = Lx + Lp[i + a] + (T - 1 - a);
  const int* rows = Li + Lp[i + T - 1];
  for (int q = 0; q < count; ++q) {
    double v = Y[rows[q]];
    for (int a = 0; a < T; ++a) v -= l[a][q] * y[a];
    Y[rows[q]] = v;
  }
}

}  // namespace

void solveRow(const PartialFactor& f, const int* pattern, int len, double* Y) {
  const int *Lp = f.Lp, *Li = f.Li, *count = f.count, *parent = f.parent, *colCount = f.colCount;
  const double* Lx = f.Lx;
  for (int at = 0; at < len;) {
    const int i = pattern[at];
    int t = 1;
    while (t < kRun && at + t < len && pattern[at + t] == i + t && nested(parent, colCount, i + t - 1)) ++t;
    const int shared = count[i + t - 1];
    switch (t) {
      case 1: runUpdate<1>(Y, Lp, Li, Lx, i, shared); break;
      case 2: runUpdate<2>(Y, Lp, Li, Lx, i, shared); break;
      case 3: runUpdate<3>(Y, Lp, Li, Lx, i, shared); break;
      default: runUpdate<kRun>(Y, Lp, Li, Lx, i, shared); break;
    }
    at += t;
  }
}

void lowerSolve(int n, const int* Lp, const int* Li, const double* Lx, double* x) {
  for (int j = 0; j < n; ++j) {
    const double xj = x[j];
    for (int p = Lp[j]; p < Lp[j + 1]; ++p) x[Li[p]] -= Lx[p] * xj;
  }
}

void upperSolve(int n, const int* Lp, const int* Li, const double* Lx, double* x) {
  for (int j = n - 1; j >= 0; --j) {
    double xj = x[j];
    for (int p = Lp[j]; p < Lp[j + 1]; ++p) xj -= Lx[p] * x[Li[p]];
    x[j] = xj;
  }
}

}  // namespace varsim::kkt
