// plan/kkt_order_cache.cpp — the pattern-keyed store of KKT LDL^T orders and its per-thread activation; see
// kkt_order_cache.h.
#include "plan/kkt_order_cache.h"

#include <algorithm>

namespace varsim::kkt {
namespace {

thread_local OrderCache* active = nullptr;

bool same(const OrderCache::Entry& e, const Pattern& a) {
  const std::size_t nz = std::size_t(a.nz);
  return e.n == a.n && e.nz == a.nz && std::equal(a.rows, a.rows + nz, e.rows.begin()) &&
         std::equal(a.cols, a.cols + nz, e.cols.begin());
}

}  // namespace

OrderCache::Entry* OrderCache::find(const Pattern& a) {
  if (a.n < 1 || a.nz < 0) return nullptr;
  for (Entry& e : entries_)
    if (same(e, a)) return &e;
  return nullptr;
}

OrderCache::Entry* OrderCache::reuse(const Pattern& a) {
  Entry* e = find(a);
  if (e) ++hits_, e->untested = true;
  return e;
}

OrderCache::Entry& OrderCache::store(const Pattern& a, const int* keep) {
  Entry* e = find(a);
  if (!e) {  // a new pattern: a new slot, or the oldest one's
    if (entries_.size() < kEntries) e = &entries_.emplace_back();
    else e = &entries_[next_], next_ = (next_ + 1) % kEntries;
    e->n = a.n, e->nz = a.nz, e->untested = false, e->keep.clear(), e->lRows = RowPatterns{};
    e->rows.assign(a.rows, a.rows + std::max(a.nz, 0)), e->cols.assign(a.cols, a.cols + std::max(a.nz, 0));
  }
  e->setKeep(keep);
  return *e;
}

void OrderCache::Entry::setKeep(const int* order) {
  if (std::equal(order, order + keepSize(n), keep.begin(), keep.end())) return;
  keep.assign(order, order + keepSize(n));
  lRows = RowPatterns{};
}

OrderCache* activeOrderCache() { return active; }

ActiveOrderCache::ActiveOrderCache(OrderCache* cache) : previous_(active) { active = cache; }
ActiveOrderCache::~ActiveOrderCache() { active = previous_; }

}  // namespace varsim::kkt
