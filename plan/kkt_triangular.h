// plan/kkt_triangular.h — the KKT LDL^T's triangular kernels (plan/kkt_ldl_solver.h): the up-looking factorisation's
// row solve y = L^-1 a_k over L's columns so far, and the solves with the finished unit lower triangular L (by
// columns) and its transpose. Each performs the operations of the plain column-by-column loop in the same order (the
// factors and solutions are bitwise those of SuiteSparse LDL's loops), with fewer loads and stores.
#pragma once

namespace varsim::kkt {

// L's columns as the up-looking pass has them before row k: column j's first count[j] entries (rows, values) from
// Lp[j], and the elimination tree with the final column counts, which mark L's supernodes.
struct PartialFactor {
  const int *Lp, *Li, *count, *parent, *colCount;
  const double* Lx;
};

// y = L^-1 (row k of A scattered in Y) along the row's pattern (pattern[0 .. len), topological order): each y_i is
// final when its turn comes (later columns update only later rows) and stays in Y. Consecutive pattern entries of one
// supernode (the elimination tree's paths are listed in order) go as one run of up to 4 columns: the triangle in
// registers, then the rows below it loaded and stored once. Not inlined into the factorisation's pivot logic, whose
// register pressure made this loop spill its pointers (~1.5x slower).
[[gnu::noinline]] void solveRow(const PartialFactor& f, const int* pattern, int len, double* Y);

// L x = b and L^T x = b in place: SuiteSparse LDL's ldl_lsolve / ldl_ltsolve loops with x_j held in a register (the
// rows of column j lie below j, so they never touch it).
void lowerSolve(int n, const int* Lp, const int* Li, const double* Lx, double* x);
void upperSolve(int n, const int* Lp, const int* Li, const double* Lx, double* x);

}  // namespace varsim::kkt
