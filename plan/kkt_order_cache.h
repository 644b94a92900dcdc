// plan/kkt_order_cache.h — the KKT LDL^T's elimination orders kept across Ipopt solves of one problem: an MPC run
// re-solves the same sparsity pattern every re-plan, and AMD, the zero-diagonal matching and the symbolic pass
// (plan/kkt_ordering.h) cost about as much per re-plan as a factorisation. Entries are keyed on the pattern itself
// (sizes and triplets compared whole); the bridge (plan/ma27_bridge.h) tests a cached order's pivots once per solve.
// With the order, its row patterns of L (kkt::RowPatterns) spare each factorisation the elimination-tree walks.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "plan/kkt_ldl_solver.h"
#include "plan/kkt_ordering.h"

namespace varsim::kkt {

class OrderCache {
 public:
  struct Entry {
    int n = 0, nz = 0;
    std::vector<int> rows, cols;  // the pattern's triplets (the key)
    std::vector<int> keep;        // the order last factorised (keepSize(n) ints)
    RowPatterns lRows;            // L's row patterns in that order (recorded by its first factorisation)
    void setKeep(const int* order);  // `order` (keepSize(n) ints) becomes the keep; another one clears lRows
    // lRows when `order` is this entry's keep, else null
    RowPatterns* rowsFor(const int* order) {
      return std::equal(keep.begin(), keep.end(), order) && !keep.empty() ? &lRows : nullptr;
    }
    bool untested = false;        // handed out by analyse and not yet factorised in this solve
  };
  // At most this many patterns (an Ipopt solve factorises its KKT system and, in restoration, another one); a new
  // pattern beyond it replaces the oldest.
  static constexpr std::size_t kEntries = 4;

  OrderCache() { entries_.reserve(kEntries); }  // entries never move: the bridge's pointers stay valid

  Entry* find(const Pattern& a);                   // the pattern's entry, or null
  Entry* reuse(const Pattern& a);                  // find() for a new solve: a hit is counted and marked untested
  Entry& store(const Pattern& a, const int* keep);  // keep becomes the pattern's order (another: rows cleared)
  int hits() const { return hits_; }                // reuse() calls that found the pattern

 private:
  std::vector<Entry> entries_;
  std::size_t next_ = 0;  // the entry a new pattern replaces once kEntries are held
  int hits_ = 0;
};

// The cache MA27's routines use on the calling thread: MA27's calling sequence carries no user pointer, so the owner
// of a run (plan/ipopt_solver.h's NlpStructure) makes its cache active for the span of one Ipopt solve. Null (no
// scope): every solve orders afresh.
OrderCache* activeOrderCache();
class ActiveOrderCache {
 public:
  explicit ActiveOrderCache(OrderCache* cache);
  ~ActiveOrderCache();
  ActiveOrderCache(const ActiveOrderCache&) = delete;
  ActiveOrderCache& operator=(const ActiveOrderCache&) = delete;

 private:
  OrderCache* previous_;
};

}  // namespace varsim::kkt
