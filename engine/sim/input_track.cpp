// Input track parsing/writing. Parsing is strict (bad numbers, wrong column counts, decreasing
// steps are errors with file:line) because a silently misread flight would not replay.
#include "engine/sim/input_track.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {

InputVector neutralInputs(const std::vector<ControlSpec>& controls) {
  InputVector v;
  for (const auto& c : controls) v.push_back(c.neutral);
  return v;
}

bool sanitizeInputs(const std::vector<ControlSpec>& controls, InputVector& values) {
  bool changed = values.size() != controls.size();
  values.resize(controls.size(), 0.0);
  for (size_t i = 0; i < controls.size(); ++i) {
    double& v = values[i];
    if (!std::isfinite(v)) { v = controls[i].neutral; changed = true; }
    if (v < controls[i].min) { v = controls[i].min; changed = true; }
    if (v > controls[i].max) { v = controls[i].max; changed = true; }
  }
  return changed;
}

static std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string item;
  while (std::getline(ss, item, ',')) {
    while (!item.empty() && (item.back() == '\r' || item.back() == ' ')) item.pop_back();
    while (!item.empty() && item.front() == ' ') item.erase(item.begin());
    out.push_back(item);
  }
  return out;
}

InputTrack InputTrack::load(const std::string& path, const std::vector<ControlSpec>& controls, double h) {
  std::ifstream in(path);
  if (!in) throw BadInput(path + ": cannot read input file");
  InputTrack track;
  track.neutral = neutralInputs(controls);
  std::string line;
  if (!std::getline(in, line)) throw BadInput(path + ": empty input file (expected a header 'step,<controls>')");
  auto header = splitCsv(line);
  if (header.empty() || (header[0] != "step" && header[0] != "t"))
    throw BadInput(path + ":1: first column must be 'step' or 't'");
  const bool byTime = header[0] == "t";
  std::vector<int> column(header.size(), -1);
  for (size_t c = 1; c < header.size(); ++c) {
    for (size_t i = 0; i < controls.size(); ++i)
      if (controls[i].name == header[c]) column[c] = int(i);
    if (column[c] < 0) {
      std::string known;
      for (const auto& ctl : controls) known += (known.empty() ? "" : ", ") + ctl.name;
      throw BadInput(path + ":1: unknown control '" + header[c] + "'; this scene's controls: " + known);
    }
  }
  InputVector current = track.neutral;
  long lineNo = 1;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.empty() || line[0] == '#') continue;
    auto cells = splitCsv(line);
    if (cells.size() != header.size())
      throw BadInput(path + ":" + std::to_string(lineNo) + ": expected " + std::to_string(header.size()) +
                     " columns, got " + std::to_string(cells.size()));
    std::vector<double> nums;
    for (size_t c = 0; c < cells.size(); ++c) {
      char* end = nullptr;
      double d = std::strtod(cells[c].c_str(), &end);
      if (cells[c].empty() || *end != '\0' || !std::isfinite(d))
        throw BadInput(path + ":" + std::to_string(lineNo) + ": column '" + header[c] + "': '" + cells[c] +
                       "' is not a finite number");
      nums.push_back(d);
    }
    // A row given by time applies from the first step whose start time is at or after it.
    long step = byTime ? long(std::ceil(nums[0] / h - 1e-9)) : long(nums[0]);
    if (step < 0 || (!byTime && nums[0] != std::floor(nums[0])))
      throw BadInput(path + ":" + std::to_string(lineNo) + ": '" + cells[0] + "' must be a non-negative " +
                     (byTime ? "time" : "integer step"));
    if (!track.steps_.empty() && step < track.steps_.back())
      throw BadInput(path + ":" + std::to_string(lineNo) + ": steps/times must not decrease");
    for (size_t c = 1; c < cells.size(); ++c) {
      const ControlSpec& spec = controls[size_t(column[c])];
      if (nums[c] < spec.min || nums[c] > spec.max)
        throw BadInput(path + ":" + std::to_string(lineNo) + ": control '" + spec.name + "' = " +
                       formatNumber(nums[c]) + " is out of range [" + formatNumber(spec.min) + ", " +
                       formatNumber(spec.max) + "]");
      current[size_t(column[c])] = nums[c];
    }
    if (!track.steps_.empty() && track.steps_.back() == step) track.values_.back() = current;
    else { track.steps_.push_back(step); track.values_.push_back(current); }
  }
  return track;
}

InputVector InputTrack::at(long step) const {
  InputVector result = neutral;
  // Binary search for the last row at or before `step`.
  size_t lo = 0, hi = steps_.size();
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (steps_[mid] <= step) lo = mid + 1; else hi = mid;
  }
  if (lo > 0) result = values_[lo - 1];
  return result;
}

void InputTrack::append(long step, const InputVector& values) {
  if (!values_.empty() && values_.back() == values) return;
  if (!steps_.empty() && steps_.back() == step) { values_.back() = values; return; }
  steps_.push_back(step);
  values_.push_back(values);
}

void InputTrack::save(const std::string& path, const std::vector<ControlSpec>& controls) const {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw BadInput(path + ": cannot write input file");
  std::fprintf(f, "step");
  for (const auto& c : controls) std::fprintf(f, ",%s", c.name.c_str());
  std::fprintf(f, "\n");
  for (size_t r = 0; r < steps_.size(); ++r) {
    std::fprintf(f, "%ld", steps_[r]);
    for (double v : values_[r]) std::fprintf(f, ",%.17g", v);
    std::fprintf(f, "\n");
  }
  std::fclose(f);
}

}  // namespace varsim
