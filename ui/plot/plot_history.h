// Ring buffer of plot samples: one time axis and several named series, oldest samples dropped when
// full. Times must not decrease (the driver truncates on a history rewind before pushing again), so
// the visible window and the hover read-out are binary searches.
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace varsim {

class PlotHistory {
 public:
  explicit PlotHistory(size_t capacity = 65536);

  void setSeries(std::vector<std::string> names);  // also clears
  void clear();
  // values.size() must equal seriesCount(); a sample older than the newest is ignored (returns false).
  bool push(double t, const std::vector<double>& values);
  // Drops every sample with time > t (resuming from an earlier state rewrites the future).
  void truncateAfter(double t);

  size_t capacity() const { return capacity_; }
  size_t size() const { return size_; }
  size_t seriesCount() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }
  int seriesIndex(const std::string& name) const;  // -1 if absent
  // i counts from the oldest retained sample (0) to the newest (size()-1).
  double time(size_t i) const { return times_[slot(i)]; }
  double value(size_t series, size_t i) const { return values_[series][slot(i)]; }
  double newestTime() const { return size_ ? time(size_ - 1) : 0.0; }
  double oldestTime() const { return size_ ? time(0) : 0.0; }

  // Index range [first, last) of samples with tMin <= t <= tMax.
  std::pair<size_t, size_t> range(double tMin, double tMax) const;
  // Index of the sample closest in time to t (size() if empty).
  size_t nearest(double t) const;

 private:
  size_t slot(size_t i) const { return (head_ + i) % capacity_; }
  size_t lowerBound(double t) const;  // first index with time >= t
  size_t upperBound(double t) const;  // first index with time > t

  size_t capacity_;
  size_t head_ = 0;  // slot of the oldest sample
  size_t size_ = 0;
  std::vector<std::string> names_;
  std::vector<double> times_;
  std::vector<std::vector<double>> values_;
};

}  // namespace varsim
