// History ring; see header.
#include "ui/core/history_ring.h"

#include <algorithm>

namespace varsim {

HistoryRing::HistoryRing(size_t capacity, size_t maxBytes)
    : capacity_(std::max<size_t>(capacity, 2)), maxBytes_(maxBytes) {}

size_t HistoryRing::effectiveCapacity(size_t stateSize) const {
  const size_t bytes = std::max<size_t>(stateSize, 1) * sizeof(double);
  return std::clamp<size_t>(maxBytes_ / bytes, 2, capacity_);
}

void HistoryRing::push(long step, double time, std::vector<double> state) {
  const size_t cap = effectiveCapacity(state.size());
  while (entries_.size() >= cap) entries_.pop_front();
  entries_.push_back(Entry{step, time, std::move(state)});
}

void HistoryRing::truncateAfter(size_t index) {
  if (index + 1 < entries_.size()) entries_.resize(index + 1);
}

}  // namespace varsim
