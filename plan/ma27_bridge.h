// plan/ma27_bridge.h — the KKT LDL^T solver (plan/kkt_ldl_solver.h) behind HSL MA27's calling sequence (MA27ID,
// MA27AD analyse, MA27BD factorise with the inertia, MA27CD solve), registered with Debian's Ipopt 3.11.9 through
// coin/HSLLoader.h's LSL_setMA27 so that Ipopt's `linear_solver = ma27` runs it. All state lives in the arrays
// Ipopt owns (IKEEP from analyse to factorise, A/IW from factorise to solve), and in the caller's order cache when one
// is active on the thread (plan/kkt_order_cache.h): no globals, safe on any thread.
#pragma once

namespace varsim {

// Registers the bridge as Ipopt's MA27 (once per process; later calls do nothing). Ipopt then uses it for every
// solve with `linear_solver = ma27`; MUMPS stays the default linear solver.
void registerKktLdlAsMa27();

// MA27's routines as the bridge implements them (Fortran calling convention: every argument by pointer, indices
// 1-based). The subset of MA27's INFO/ICNTL/CNTL that Ipopt 3.11.9 (IpMa27TSolverInterface.cpp) reads or writes:
//   AD: the active cache's order of this pattern, else AMD's (plan/kkt_ordering.h); INFO(1) 0, or -1 (N < 1),
//       -2 (NZ < 0), -5 (the analysis failed), 1 (entries outside 1..N ignored);
//       INFO(5) / INFO(6) the reals / ints BD needs in A / IW; IKEEP 3N ints for BD; NSTEPS 1; OPS the flops.
//   BD: CNTL(3) zero-pivot tolerance (a pivot |d| <= CNTL(3) * its row's largest |entry|), replaced by +-CNTL(4)
//       times that entry, the sign of its diagonal entry (CNTL(4) = 0: singular); INFO(1) 0, -3 (LIW too small,
//       INFO(2) the LIW needed), -4 (LA too small, INFO(2) the LA needed), -5 (the ordering failed) or 3 (singular,
//       INFO(2) the rank); INFO(15) the number of negative eigenvalues of D; MAXFRT 4N (CD's work array W);
//       INFO(12), INFO(13) (compressions) 0. CNTL(1) (MA27's threshold pivoting) is not used: the order is fixed,
//       with 1x1 or 2x2 pivots on it. A cached order that replaces a pivot in its solve's first factorisation gives
//       way to the order the solve takes without the cache; the order factorised goes back to the active cache.
//   CD: solves A x = RHS in place with W (MAXFRT reals) as work.
namespace ma27 {
void id(int* icntl, double* cntl);
void ad(int* n, int* nz, const int* irn, const int* icn, int* iw, int* liw, int* ikeep, int* iw1, int* nsteps,
        int* iflag, int* icntl, double* cntl, int* info, double* ops);
void bd(int* n, int* nz, const int* irn, const int* icn, double* a, int* la, int* iw, int* liw, int* ikeep,
        int* nsteps, int* maxfrt, int* iw1, int* icntl, double* cntl, int* info);
void cd(int* n, double* a, int* la, int* iw, int* liw, double* w, int* maxfrt, double* rhs, int* iw1, int* nsteps,
        int* icntl, double* cntl);
// Default CNTL(3): a pivot 1e-14 of its row's largest entry or smaller is a zero pivot.
constexpr double kSingularTolerance = 1e-14;
// Default CNTL(4): a zero pivot is replaced by +-1e-8 of its row's largest entry (0: reported singular instead), and
// the solve corrects for it exactly (plan/kkt_pivot_correction.h). Measured (bench_plan): with 1e-12 the correction's
// S loses ~4 digits to cancellation (its terms ~ 1 / 1e-12) and boat_dock takes 21 iterations (MUMPS 14); with 1e-8
// every preset takes MUMPS's iterations. Reporting zero pivots singular makes Ipopt regularise every step (other
// local minima of heli_canyon).
constexpr double kPivotReplacement = 1e-8;
}  // namespace ma27

}  // namespace varsim
