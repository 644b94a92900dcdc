// Recorded control inputs: a CSV with a `step` (or `t`) column followed by one column per control.
// Values hold from their row until the next one, so a replay applies exactly the recorded inputs at
// exactly the recorded physics steps — the basis of replay, sharing flights and input-driven tests.
#pragma once
#include <string>
#include <vector>

#include "engine/sim/system.h"

namespace varsim {

class InputTrack {
 public:
  // Reads a track; throws BadInput naming the file, line and column on malformed content.
  // Controls absent from the file stay neutral; unknown columns are an error.
  static InputTrack load(const std::string& path, const std::vector<ControlSpec>& controls, double h);
  // Input for physics step k (k = 0 is the first step): the last row at or before k.
  InputVector at(long step) const;
  bool empty() const { return steps_.empty(); }
  long lastStep() const { return steps_.empty() ? 0 : steps_.back(); }

  void append(long step, const InputVector& values);  // recording; only stores changes
  void save(const std::string& path, const std::vector<ControlSpec>& controls) const;

  InputVector neutral;  // used before the first row

 private:
  std::vector<long> steps_;
  std::vector<InputVector> values_;
};

InputVector neutralInputs(const std::vector<ControlSpec>& controls);
// Clamps to each control's range; a non-finite value becomes neutral. Returns true if anything was
// changed (the caller shows a notice: physics never sees NaN or out-of-range inputs).
bool sanitizeInputs(const std::vector<ControlSpec>& controls, InputVector& values);

}  // namespace varsim
