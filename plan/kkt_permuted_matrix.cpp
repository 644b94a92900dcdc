// plan/kkt_permuted_matrix.cpp — the triplets placed into the permuted upper triangle, counted out or from a record;
// see kkt_permuted_matrix.h.
#include "plan/kkt_permuted_matrix.h"

#include <algorithm>
#include <cmath>

namespace varsim::kkt {

void scatterMatrix(const Pattern& a, const int* perm, const double* values, int* Ap, int* Ai, double* Ax,
                   double* rowMax, const double* knownRowMax, int* pinv, int* next, RowPatterns* rows) {
  const int n = a.n;
  const std::size_t N = std::size_t(n);
  if (knownRowMax)
    for (int k = 0; k < n; ++k) rowMax[k] = knownRowMax[pivotRow(perm, k)];
  else
    std::fill(rowMax, rowMax + N, 0.0);
  double* takeMax = knownRowMax ? nullptr : rowMax;  // rowMax still to be taken from the values
  if (rows && rows->complete) {
    std::copy(rows->ap.begin(), rows->ap.end(), Ap);
    std::copy(rows->ai.begin(), rows->ai.end(), Ai);
    for (int t = 0; t < a.nz; ++t)
      if (rows->place[std::size_t(t)] >= 0) Ax[rows->place[std::size_t(t)]] = values[t];
    if (!takeMax) return;
    for (int j = 0; j < n; ++j)
      for (int p = Ap[j]; p < Ap[j + 1]; ++p) {
        const double v = std::abs(Ax[p]);
        rowMax[Ai[p]] = std::max(rowMax[Ai[p]], v), rowMax[j] = std::max(rowMax[j], v);
      }
    return;
  }
  const bool record = rows != nullptr;
  if (record) rows->place.assign(std::size_t(std::max(a.nz, 0)), -1);
  for (int k = 0; k < n; ++k) pinv[pivotRow(perm, k)] = k;
  std::fill(Ap, Ap + N + 1, 0);
  for (int t = 0; t < a.nz; ++t)
    if (a.inRange(t)) ++Ap[std::max(pinv[a.rows[t] - 1], pinv[a.cols[t] - 1]) + 1];
  for (std::size_t j = 0; j < N; ++j) Ap[j + 1] += Ap[j];
  std::copy(Ap, Ap + N, next);  // next free slot per column
  for (int t = 0; t < a.nz; ++t) {
    if (!a.inRange(t)) continue;
    const int i = pinv[a.rows[t] - 1], j = pinv[a.cols[t] - 1];
    const int at = next[std::max(i, j)]++;
    Ai[at] = std::min(i, j);
    Ax[at] = values[t];
    if (takeMax) {
      takeMax[i] = std::max(takeMax[i], std::abs(values[t]));
      takeMax[j] = std::max(takeMax[j], std::abs(values[t]));
    }
    if (record) rows->place[std::size_t(t)] = at;
  }
  if (record) rows->ap.assign(Ap, Ap + N + 1), rows->ai.assign(Ai, Ai + Ap[n]);
}

}  // namespace varsim::kkt
