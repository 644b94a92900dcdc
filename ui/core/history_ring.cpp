// History ring; see header.
#include "ui/core/history_ring.h"

#include <algorithm>
#include <stdexcept>

namespace varsim {

static size_t valueBytes(const ParamValue& v) {
  return sizeof(ParamValue) + v.numbers.capacity() * sizeof(double) + v.choice.capacity();
}

size_t HistorySettings::approxBytes() const {
  size_t b = sizeof(*this);
  for (const ParamValue& v : running) b += valueBytes(v);
  for (const auto& [k, v] : pending) b += sizeof(k) + k.capacity() + valueBytes(v);
  for (const auto& [k, v] : edits) b += sizeof(k) * 2 + k.capacity() + v.capacity();
  return b;
}

HistoryRing::HistoryRing(size_t capacity, size_t maxBytes)
    : capacity_(std::max<size_t>(capacity, 2)), maxBytes_(maxBytes) {}

size_t HistoryRing::effectiveCapacity(size_t stateSize) const {
  const size_t bytes = std::max<size_t>(stateSize, 1) * sizeof(double);
  return std::clamp<size_t>(maxBytes_ / bytes, 2, capacity_);
}

void HistoryRing::dropOldest() {
  entries_.pop_front();
  while (!entries_.empty() && !entries_.front().checkpoint) entries_.pop_front();
}

void HistoryRing::push(long step, double time, std::vector<double> state,
                       std::shared_ptr<const HistorySettings> settings) {
  stateSize_ = state.size();
  const size_t cap = effectiveCapacity(stateSize_);
  while (entries_.size() >= cap) dropOldest();
  entries_.push_back(Entry{step, time, std::move(state), std::move(settings), true, {}});
}

void HistoryRing::pushInputs(long step, double time, std::shared_ptr<const HistorySettings> settings,
                             InputVector inputs) {
  const size_t cap = effectiveCapacity(stateSize_);
  while (entries_.size() >= cap) dropOldest();
  entries_.push_back(Entry{step, time, {}, std::move(settings), false, std::move(inputs)});
  if (!entries_.front().checkpoint) throw std::logic_error("history ring: an entry without a checkpoint before it");
}

bool HistoryRing::acceptsInputs() const {
  if (entries_.empty()) return false;
  if (entries_.size() < effectiveCapacity(stateSize_)) return true;
  for (size_t i = 1; i < entries_.size(); ++i)  // making room drops the front up to the next checkpoint
    if (entries_[i].checkpoint) return true;
  return false;
}

std::vector<double> HistoryRing::recycleOldest(size_t stateSize) {
  std::vector<double> buffer;
  if (entries_.empty() || entries_.size() < effectiveCapacity(stateSize)) return buffer;
  buffer.swap(entries_.front().state);
  dropOldest();
  buffer.clear();
  return buffer;
}

size_t HistoryRing::checkpointFor(size_t i) const {
  while (i > 0 && !entries_[i].checkpoint) --i;
  return i;
}

void HistoryRing::truncateAfter(size_t index) {
  if (index + 1 < entries_.size()) entries_.resize(index + 1);
}

// Entries sharing a snapshot are neighbours (a new one is made only on an edit), so counting the
// changes along the ring counts the distinct snapshots.
size_t HistoryRing::distinctSettings() const {
  size_t n = 0;
  const HistorySettings* last = nullptr;
  for (const Entry& e : entries_)
    if (e.settings && e.settings.get() != last) ++n, last = e.settings.get();
  return n;
}

size_t HistoryRing::stateBytes() const {
  size_t b = 0;
  for (const Entry& e : entries_) b += sizeof(Entry) + e.state.capacity() * sizeof(double);
  return b;
}

size_t HistoryRing::settingsBytes() const {
  size_t b = 0;
  const HistorySettings* last = nullptr;
  for (const Entry& e : entries_)
    if (e.settings && e.settings.get() != last) b += e.settings->approxBytes(), last = e.settings.get();
  return b;
}

}  // namespace varsim
