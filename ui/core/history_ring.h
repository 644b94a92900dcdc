// State history ring (MuJoCo `simulate` keeps ~2000 states): an entry per physics step with the settings in force
// (parameters and scene edits), so ← steps back, a slider scrubs the recent past, stepping back across an edit
// brings the old values back, and resuming from an entry continues deterministically (loadState + settings restore
// everything the next step uses). An entry holds the full saveState() vector (a checkpoint) or, for large states,
// only the inputs of its step: the driver (ui/core/sim_driver.h) rebuilds it from the checkpoint before it by
// stepping again, bit for bit. The oldest entry is always a checkpoint.
#pragma once
#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/sim/param.h"
#include "engine/sim/system.h"

namespace varsim {

// Everything besides the state that decides the next step. Values only (the specs never change
// within a scene), and entries share one snapshot until an edit changes it, so a big ladder's 2000
// entries hold one small copy per edit, not one per step.
struct HistorySettings {
  std::vector<ParamValue> running;                          // the scene's params() in spec order: the values in force
  std::vector<std::pair<std::string, ParamValue>> pending;  // the driver's values waiting for a reset
  std::vector<std::pair<std::string, std::string>> edits;   // Scene::edits()
  size_t approxBytes() const;                               // heap + object size, for the memory budget
};

class HistoryRing {
 public:
  struct Entry {
    long step = 0;  // physics steps since reset
    double time = 0.0;
    std::vector<double> state;  // a checkpoint's; else empty
    std::shared_ptr<const HistorySettings> settings;  // shared with neighbours until an edit
    bool checkpoint = true;  // false: rebuilt from the checkpoint before it by stepping with each entry's `inputs`
    InputVector inputs;      // of the step that led here (kept when not a checkpoint)
  };

  // Keeps at most `capacity` entries and, for large systems, at most `maxBytes` of state.
  explicit HistoryRing(size_t capacity = 2000, size_t maxBytes = size_t(256) << 20);

  void clear() {
    entries_.clear();
    stateSize_ = 0;
  }
  // Newest, a checkpoint; drops the oldest when full, and then the entries up to the next checkpoint.
  void push(long step, double time, std::vector<double> state, std::shared_ptr<const HistorySettings> settings = {});
  // Newest, not a checkpoint (never into an empty ring): the inputs of its step instead of its state. The capacity
  // stays that of the checkpoints' state size, so the ring spans as many steps as with a state per entry.
  void pushInputs(long step, double time, std::shared_ptr<const HistorySettings> settings, InputVector inputs);
  // Whether pushInputs keeps a checkpoint at the front (false: the next entry must be a checkpoint).
  bool acceptsInputs() const;
  // When full for states of this many doubles: drops the oldest entry (and the entries up to the next checkpoint)
  // and returns its state's buffer, emptied, for the next push (System::saveStateInto writes into it: no allocation
  // per step). Else {}.
  std::vector<double> recycleOldest(size_t stateSize);
  // The checkpoint at or before entry i (the entry whose state rebuilds entry i).
  size_t checkpointFor(size_t i) const;
  size_t stateSize() const { return stateSize_; }  // doubles of a checkpoint's state (0: none yet)
  void truncateAfter(size_t index);  // keeps entries [0, index]
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  const Entry& at(size_t i) const { return entries_[i]; }  // 0 oldest … size()-1 newest
  const Entry& newest() const { return entries_.back(); }
  size_t capacity() const { return capacity_; }
  // Capacity actually usable for states of this many doubles (the byte budget may lower it).
  size_t effectiveCapacity(size_t stateSize) const;
  // Distinct settings snapshots held, and the bytes of states and of settings (measured, approx.).
  size_t distinctSettings() const;
  size_t stateBytes() const;
  size_t settingsBytes() const;

 private:
  void dropOldest();  // the oldest entry and the non-checkpoints after it

  size_t capacity_;
  size_t maxBytes_;
  size_t stateSize_ = 0;
  std::deque<Entry> entries_;
};

}  // namespace varsim
