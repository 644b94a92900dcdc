// State history ring (MuJoCo `simulate` keeps ~2000 states): the full saveState() vector after each
// physics step, so ← steps back, a slider scrubs the recent past, and resuming from an entry
// continues deterministically (loadState restores everything that influences the next step).
#pragma once
#include <cstddef>
#include <deque>
#include <vector>

namespace varsim {

class HistoryRing {
 public:
  struct Entry {
    long step = 0;  // physics steps since reset
    double time = 0.0;
    std::vector<double> state;
  };

  // Keeps at most `capacity` entries and, for large systems, at most `maxBytes` of state.
  explicit HistoryRing(size_t capacity = 2000, size_t maxBytes = size_t(256) << 20);

  void clear() { entries_.clear(); }
  void push(long step, double time, std::vector<double> state);  // newest; drops the oldest when full
  void truncateAfter(size_t index);  // keeps entries [0, index]
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  const Entry& at(size_t i) const { return entries_[i]; }  // 0 oldest … size()-1 newest
  const Entry& newest() const { return entries_.back(); }
  size_t capacity() const { return capacity_; }
  // Capacity actually usable for states of this many doubles (the byte budget may lower it).
  size_t effectiveCapacity(size_t stateSize) const;

 private:
  size_t capacity_;
  size_t maxBytes_;
  std::deque<Entry> entries_;
};

}  // namespace varsim
