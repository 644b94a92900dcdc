// Plot ring buffer; see header.
#include "ui/plot/plot_history.h"

#include <algorithm>
#include <cmath>

namespace varsim {

PlotHistory::PlotHistory(size_t capacity) : capacity_(std::max<size_t>(capacity, 2)), times_(capacity_) {}

void PlotHistory::setSeries(std::vector<std::string> names) {
  names_ = std::move(names);
  values_.assign(names_.size(), std::vector<double>(capacity_, 0.0));
  clear();
}

void PlotHistory::clear() {
  head_ = 0;
  size_ = 0;
}

int PlotHistory::seriesIndex(const std::string& name) const {
  for (size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) return int(i);
  return -1;
}

bool PlotHistory::push(double t, const std::vector<double>& values) {
  if (values.size() != names_.size() || !std::isfinite(t)) return false;
  if (size_ > 0 && t < newestTime()) return false;
  size_t s;
  if (size_ < capacity_) {
    s = slot(size_);
    ++size_;
  } else {  // overwrite the oldest
    s = head_;
    head_ = (head_ + 1) % capacity_;
  }
  times_[s] = t;
  for (size_t k = 0; k < values.size(); ++k) values_[k][s] = values[k];
  return true;
}

void PlotHistory::truncateAfter(double t) { size_ = upperBound(t); }

size_t PlotHistory::lowerBound(double t) const {
  size_t lo = 0, hi = size_;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (time(mid) < t) lo = mid + 1; else hi = mid;
  }
  return lo;
}

size_t PlotHistory::upperBound(double t) const {
  size_t lo = 0, hi = size_;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (time(mid) <= t) lo = mid + 1; else hi = mid;
  }
  return lo;
}

std::pair<size_t, size_t> PlotHistory::range(double tMin, double tMax) const {
  if (!(tMax >= tMin)) return {0, 0};
  return {lowerBound(tMin), upperBound(tMax)};
}

size_t PlotHistory::nearest(double t) const {
  if (size_ == 0) return 0;
  const size_t i = lowerBound(t);
  if (i == 0) return 0;
  if (i >= size_) return size_ - 1;
  return (time(i) - t) < (t - time(i - 1)) ? i : i - 1;
}

}  // namespace varsim
