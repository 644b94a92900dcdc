// plan/ma27_bridge.cpp — MA27's calling sequence over plan/kkt_ldl_solver.h; see ma27_bridge.h for the INFO,
// ICNTL and CNTL entries Ipopt 3.11.9 reads, which are the ones set here.
#include "plan/ma27_bridge.h"

#include <HSLLoader.h>

#include <algorithm>
#include <climits>
#include <mutex>
#include <vector>

#include "plan/kkt_ldl_solver.h"
#include "plan/kkt_order_cache.h"

namespace varsim {
namespace ma27 {
namespace {

constexpr int kInfoSize = 20, kIcntlSize = 30, kCntlSize = 5;

kkt::Pattern pattern(const int* n, const int* nz, const int* irn, const int* icn) { return {*n, *nz, irn, icn}; }

// A factorisation that replaced pivots (the fixed order met a singular Schur complement) orders again around them and
// factorises once more when the new order fits A / IW; otherwise the new order waits in IKEEP for the next call.
// The factor of the order with fewer replaced pivots is kept.
kkt::Factorisation refit(const kkt::Pattern& m, const kkt::Factorisation& f, double* a, int la, int* iw, int liw,
                         int* ikeep, int* iw1, const kkt::Pivots& pivots) {
  std::vector<double> values(std::size_t(std::max(m.nz, 0)));
  kkt::matrixValues(m, iw, a, values.data());
  const std::vector<int> failed(iw1, iw1 + f.replaced), old(ikeep, ikeep + kkt::keepSize(m.n));
  if (!kkt::refitOrdering(m, values.data(), failed.data(), f.replaced, ikeep)) {
    std::copy(old.begin(), old.end(), ikeep);
    return f;
  }
  const kkt::Storage s = kkt::storage(m, ikeep);
  if (s.ints > std::size_t(liw) || s.reals > std::size_t(la)) return f;
  std::copy(values.begin(), values.end(), a);
  const kkt::Factorisation g = kkt::factorise(m, ikeep, pivots, iw, a, iw1);
  if (!g.singular && g.replaced < f.replaced) return g;
  std::copy(old.begin(), old.end(), ikeep);  // no better: the first order's factor again
  std::copy(values.begin(), values.end(), a);
  return kkt::factorise(m, ikeep, pivots, iw, a, iw1);
}

// The order in IKEEP fitted to the values in A (re-made when a zero-diagonal row has no partner: IKEEP is Ipopt's,
// kept to the next call; exact zeros only: rows merely small are left to the pivot replacement, treating them as zero
// re-ordered at most factorisations of heli_canyon, ~1 ms each), the storage checked, the factorisation (with the
// cache entry's row patterns when IKEEP is its order), and refit() after replaced pivots when `refitReplaced`.
// False: INFO(1) set (-3, -4 or -5; A still holds the values).
bool factoriseInOrder(const kkt::Pattern& m, double* a, int la, int* iw, int liw, int* ikeep, int* iw1,
                      const kkt::Pivots& pivots, bool refitReplaced, kkt::OrderCache::Entry* cached, int* info,
                      kkt::Factorisation& f) {
  std::vector<double> rowMax(std::size_t(m.n));  // the fit's, handed to the factorisation
  if (!kkt::fitOrdering(m, a, 0.0, ikeep, rowMax.data())) return info[0] = -5, false;
  const kkt::Storage s = kkt::storage(m, ikeep);
  if (std::size_t(liw) < s.ints) return info[0] = -3, info[1] = int(s.ints), false;
  if (std::size_t(la) < s.reals) return info[0] = -4, info[1] = int(s.reals), false;
  f = kkt::factorise(m, ikeep, pivots, iw, a, iw1, cached ? cached->rowsFor(ikeep) : nullptr, rowMax.data());
  if (refitReplaced && f.replaced > 0 && !f.singular) f = refit(m, f, a, la, iw, liw, ikeep, iw1, pivots);
  return true;
}

}  // namespace

void id(int* icntl, double* cntl) {
  std::fill(icntl, icntl + kIcntlSize, 0);
  std::fill(cntl, cntl + kCntlSize, 0.0);
  cntl[0] = 0.1;  // MA27's default threshold (unused here, Ipopt overwrites it with ma27_pivtol)
  cntl[2] = kSingularTolerance;
  cntl[3] = kPivotReplacement;
}

void ad(int* n, int* nz, const int* irn, const int* icn, int*, int*, int* ikeep, int*, int* nsteps, int*, int*,
        double*, int* info, double* ops) {
  std::fill(info, info + kInfoSize, 0);
  *nsteps = 1;
  *ops = 0.0;
  if (*n < 1) return void(info[0] = -1);
  if (*nz < 0) return void(info[0] = -2);
  const kkt::Pattern a = pattern(n, nz, irn, icn);
  kkt::OrderCache* cache = kkt::activeOrderCache();  // an earlier solve's order of this pattern, else AMD's
  const kkt::OrderCache::Entry* cached = cache ? cache->reuse(a) : nullptr;
  if (cached) std::copy(cached->keep.begin(), cached->keep.end(), ikeep);
  else if (!kkt::analyse(a, ikeep)) return void(info[0] = -5);
  const kkt::Storage s = kkt::storage(a, ikeep);
  if (s.ints > std::size_t(INT_MAX) || s.reals > std::size_t(INT_MAX)) return void(info[0] = -5);
  info[4] = int(s.reals);
  info[5] = int(s.ints);
  *ops = s.flops;
  int outside = 0;
  for (int t = 0; t < *nz; ++t) outside += !a.inRange(t);
  if (outside > 0) info[0] = 1, info[1] = outside;  // MA27's warning: those entries are ignored
}

void bd(int* n, int* nz, const int* irn, const int* icn, double* a, int* la, int* iw, int* liw, int* ikeep, int*,
        int* maxfrt, int* iw1, int*, double* cntl, int* info) {
  std::fill(info, info + kInfoSize, 0);
  const kkt::Pattern m = pattern(n, nz, irn, icn);
  const kkt::Pivots pivots{cntl[2], cntl[3]};
  kkt::OrderCache* cache = kkt::activeOrderCache();
  kkt::OrderCache::Entry* cached = cache ? cache->find(m) : nullptr;
  // An order kept from an earlier solve (AD took it from the cache) is tested on this solve's first values: a pivot it
  // had to replace sends the solve to the order it would have taken without the cache (AMD, then fitted).
  const bool trial = cached && cached->untested;
  kkt::Factorisation f;
  if (!factoriseInOrder(m, a, *la, iw, *liw, ikeep, iw1, pivots, !trial, cached, info, f)) return;
  if (trial) {
    cached->untested = false;
    if (f.replaced > 0 || f.singular) {
      std::vector<double> values(std::size_t(std::max(m.nz, 0)));
      kkt::matrixValues(m, iw, a, values.data());
      std::copy(values.begin(), values.end(), a);
      if (!kkt::analyse(m, ikeep)) return void(info[0] = -5);
      if (!factoriseInOrder(m, a, *la, iw, *liw, ikeep, iw1, pivots, true, cached, info, f)) return;
    }
  }
  *maxfrt = int(kkt::solveWorkSize(*n));  // CD's W: the solve's work
  kkt::correct(iw1, iw, a, f);
  info[14] = f.negative;
  if (f.singular) info[0] = 3, info[1] = f.rank;
  else if (cached) cached->setKeep(ikeep);
  else if (cache) cache->store(m, ikeep);
}

void cd(int*, double* a, int*, int* iw, int*, double* w, int*, double* rhs, int*, int*, int*, double*) {
  kkt::solve(iw, a, rhs, w);
}

}  // namespace ma27

void registerKktLdlAsMa27() {
  static std::once_flag once;
  std::call_once(once, [] { LSL_setMA27(ma27::ad, ma27::bd, ma27::cd, ma27::id); });
}

}  // namespace varsim
