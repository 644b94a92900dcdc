// Dense kernels of the block solver (block_tridiagonal_solver.h) on its packed lower-triangular diagonal blocks
// and column-major coupling corners a few rows wide. A size given as std::integral_constant (withSize) unrolls
// the loops over it whole (forRange): at w ≈ 12 the loop set-up of triangular loops with varying bounds cost more
// instructions than their arithmetic, and the solve runs at ~5 instructions per cycle, so instructions are time.
#pragma once
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "engine/solvers/block_tridiagonal_layout.h"

namespace varsim {
namespace blockkernel {

template <class T>
struct IsConstant : std::false_type {};
template <int N>
struct IsConstant<std::integral_constant<int, N>> : std::true_type {};
using Zero = std::integral_constant<int, 0>;

// Calls f(n) with n as a compile-time constant for the block sizes the rod models produce (≤ 16), else the int.
template <class F>
inline void withSize(int n, F&& f) {
  switch (n) {
#define VARSIM_SIZE_CASE(N) \
  case N: return f(std::integral_constant<int, N>{});
    VARSIM_SIZE_CASE(1) VARSIM_SIZE_CASE(2) VARSIM_SIZE_CASE(3) VARSIM_SIZE_CASE(4) VARSIM_SIZE_CASE(5)
    VARSIM_SIZE_CASE(6) VARSIM_SIZE_CASE(7) VARSIM_SIZE_CASE(8) VARSIM_SIZE_CASE(9) VARSIM_SIZE_CASE(10)
    VARSIM_SIZE_CASE(11) VARSIM_SIZE_CASE(12) VARSIM_SIZE_CASE(13) VARSIM_SIZE_CASE(14) VARSIM_SIZE_CASE(15)
    VARSIM_SIZE_CASE(16)
#undef VARSIM_SIZE_CASE
    default: return f(n);
  }
}

template <int B, class F, int... K>
inline void unrolled(F& f, std::integer_sequence<int, K...>) {
  (f(std::integral_constant<int, B + K>{}), ...);
}

// f(i) for i = begin … end − 1 in order: unrolled, i a compile-time constant, when both bounds are; else a loop.
template <class Begin, class End, class F>
inline void forRange(Begin begin, End end, F&& f) {
  if constexpr (IsConstant<Begin>::value && IsConstant<End>::value) {
    if constexpr (End::value > Begin::value)
      unrolled<Begin::value>(f, std::make_integer_sequence<int, End::value - Begin::value>{});
  } else {
    for (int i = begin; i < end; ++i) f(i);
  }
}

template <class I>
inline auto plusOne(I i) {
  if constexpr (IsConstant<I>::value) return std::integral_constant<int, I::value + 1>{};
  else return i + 1;
}

// Runs f(v) on a local copy of v[0 … n) written back after (the compiler keeps it in registers) when n is a
// compile-time constant, else on v itself.
template <class Size, class F>
inline void onLocalCopy(double* v, Size n, F&& f) {
  if constexpr (IsConstant<Size>::value) {
    double acc[Size::value];
    for (int a = 0; a < n; ++a) acc[a] = v[a];
    f(acc);
    for (int a = 0; a < n; ++a) v[a] = acc[a];
  } else {
    f(v);
  }
}

// A multiplier that is zero (a structural zero of S or of its factor: many in the coupling corners) skips its
// column update: the update would not change a bit, and skipping it is most of the work saved there.

// The factor keeps 1 / L_jj in place of its diagonal: the substitutions and C L⁻ᵀ multiply by it instead of
// dividing (a division's ~13 cycles sat on the substitutions' dependency chain, one per row, twice per solve;
// results move at round-off: x · (1/d) is not always the correctly rounded x / d).

// In-place lower Cholesky of the packed w × w block A, right-looking (column j finished, then subtracted from the
// columns after it: each entry gets the same products in the same order i = 0 … j − 1 as left-looking).
// Returns −1, or the first column whose pivot cancelled below 1e-13 of diag0 (the block's diagonal before) or
// is not finite.
template <class Width>
int choleskyPacked(double* __restrict A, Width w, const double* __restrict diag0) {
  int failed = -1;
  forRange(Zero{}, w, [&](auto j) {
    if (failed >= 0) return;
    double* Aj = packedColumn(A, w, j);
    const double pivot = Aj[j];
    if (!(pivot > 1e-13 * diag0[int(j)]) || !std::isfinite(pivot)) {
      failed = j;
      return;
    }
    const double inv = 1.0 / std::sqrt(pivot);
    Aj[j] = inv;
    for (int a = j + 1; a < w; ++a) Aj[a] *= inv;
    forRange(plusOne(j), w, [&](auto b) {
      const double l = Aj[b];
      if (l == 0.0) return;
      double* Ab = packedColumn(A, w, b);
      for (int a = b; a < w; ++a) Ab[a] -= Aj[a] * l;
    });
  });
  return failed;
}

// C (r × c) ← C L⁻ᵀ in place, L the packed c × c lower triangle at T (its diagonal holds 1 / L_ii): column j
// minus the finished columns i < j times L_ji, in that order, then scaled (per entry the same operations as the
// right-looking order); for a compile-time r the column stays in registers meanwhile (one load and store per
// entry instead of one per update: 4-5 % of the solve at N = 1000).
template <class Rows>
void solveRightLowerTransposed(double* __restrict C, Rows r, int c, const double* __restrict T) {
  for (int j = 0; j < c; ++j) {
    double* Cj = C + size_t(j) * size_t(r);
    onLocalCopy(Cj, r, [&](double* acc) {
      const double* Ti = T;  // packedColumn(T, c, i): the next column starts c − i − 1 further on
      for (int i = 0; i < j; Ti += c - i - 1, ++i) {
        const double l = Ti[j];
        if (l == 0.0) continue;
        const double* Ci = C + size_t(i) * size_t(r);
        for (int a = 0; a < r; ++a) acc[a] -= Ci[a] * l;
      }
      const double inv = Ti[j];
      for (int a = 0; a < r; ++a) acc[a] *= inv;
    });
  }
}

// Lower triangle of the leading r × r block of the packed n × n block A −= C Cᵀ, C r × c: column b of A is kept
// in registers over the c columns of C (the products in order j = 0 … c − 1, as before).
template <class Rows>
void subtractGram(double* __restrict A, int n, const double* __restrict C, Rows r, int c) {
  forRange(Zero{}, r, [&](auto b) {
    double* Ab = packedColumn(A, n, b);
    if constexpr (IsConstant<Rows>::value) {  // r ≤ 16 (withSize)
      double acc[16];                          // rows b … r − 1
      for (int a = b; a < r; ++a) acc[a] = Ab[a];
      for (int j = 0; j < c; ++j) {
        const double* Cj = C + size_t(j) * size_t(r);
        const double x = Cj[b];
        if (x == 0.0) continue;
        for (int a = b; a < r; ++a) acc[a] -= Cj[a] * x;
      }
      for (int a = b; a < r; ++a) Ab[a] = acc[a];
    } else {
      for (int j = 0; j < c; ++j) {
        const double* Cj = C + size_t(j) * size_t(r);
        const double x = Cj[b];
        if (x == 0.0) continue;
        for (int a = b; a < r; ++a) Ab[a] -= Cj[a] * x;
      }
    }
  });
}

template <class Width>
void forwardSubstitute(const double* __restrict L, Width w, double* __restrict z) {  // L z = b in place, L packed
  forRange(Zero{}, w, [&](auto j) {
    const double* Lj = packedColumn(L, w, j);
    const double zj = z[j] *= Lj[j];
    for (int i = j + 1; i < w; ++i) z[i] -= Lj[i] * zj;
  });
}

template <class Width>
void backSubstitute(const double* __restrict L, Width w, double* __restrict z) {  // Lᵀ y = z in place, by columns of Lᵀ
  forRange(Zero{}, w, [&](auto k) {
    const int j = w - 1 - k;
    const double zj = z[j] *= packedColumn(L, w, j)[j];
    const double* Li = L;
    for (int i = 0; i < j; Li += w - i - 1, ++i) z[i] -= Li[j] * zj;
  });
}

// z −= Cᵀ y, C r × c: four columns at a time so the four sums run side by side.
template <class Rows>
void subtractTransposedProduct(const double* C, Rows r, int c, const double* y, double* z) {
  int j = 0;
  for (; j + 4 <= c; j += 4) {
    const double* C0 = C + size_t(j) * size_t(r);
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int a = 0; a < r; ++a) {
      s0 += C0[a] * y[a];
      s1 += C0[a + r] * y[a];
      s2 += C0[a + 2 * r] * y[a];
      s3 += C0[a + 3 * r] * y[a];
    }
    z[j] -= s0, z[j + 1] -= s1, z[j + 2] -= s2, z[j + 3] -= s3;
  }
  for (; j < c; ++j) {
    double s = 0;
    for (int a = 0; a < r; ++a) s += C[a + size_t(j) * size_t(r)] * y[a];
    z[j] -= s;
  }
}

}  // namespace blockkernel
}  // namespace varsim
