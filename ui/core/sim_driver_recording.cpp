// The driver's input recording and replay (see sim_driver.h): what a recorded input file holds (sticks by step,
// live edits and resets as timed events, the settings a replay must be given with --set) and how a replayed
// file's events are applied at their steps through the same live-edit path as typed edits.
#include <algorithm>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"
#include "scenes/live_edit.h"
#include "ui/core/sim_driver.h"

namespace varsim {

void SimDriver::truncateRecording(long fromTrackStep) {
  recorded_.erase(std::remove_if(recorded_.begin(), recorded_.end(),
                                 [&](const std::pair<long, InputVector>& r) { return r.first >= fromTrackStep; }),
                  recorded_.end());
  while (!recordedEvents_.empty() && recordedEvents_.back().step >= fromTrackStep) recordedEvents_.pop_back();
}

bool SimDriver::applyReplayEvents() {
  const long k = trackStep();
  if (!replay_ || eventsAppliedAt_ == k) return true;
  const auto [first, last] = replay_->track().eventsAt(k);
  for (size_t i = first; i < last; ++i) {
    const InputEvent& e = replay_->track().events()[i];
    try {
      if (e.kind == InputEvent::Kind::Reset) {
        if (!recording_)
          rebuild(k);
        else
          reset();
        continue;
      }
      const EditTiming timing = applyInputEvent(*scene_, sceneName_, params_, e);
      afterEdit(e, timing == EditTiming::OnReset);
    } catch (const BadInput& err) {
      notices_.push_back(std::string("replay stopped at step ") + std::to_string(k) + ": " + err.what());
      stopReplay();
      setPaused(true);
      return false;
    }
  }
  eventsAppliedAt_ = k;
  return true;
}

void SimDriver::startReplay(InputTrack track) {
  replay_ = std::make_unique<ReplayInput>(std::move(track));
  rebuild(0);
  if (recording_) truncateRecording(0);  // a recording running along restarts with the replay
}

void SimDriver::stopReplay() { replay_.reset(); }

void SimDriver::startRecording() {
  rewriteFutureIfRewound();
  recording_ = true;
  const long k = trackStep();
  truncateRecording(k);
  // The replay starts from defaults (or its own --set): live values in force go in as events, values
  // that need a rebuild are named in the file's comment.
  const ParamSet defaults = SceneRegistry::defaults(sceneName_);
  std::string rebuildOnly;
  for (const ParamSpec& spec : params_.specs()) {
    const std::string text = scene_->params().valueText(spec.key);
    if (text == defaults.valueText(spec.key)) continue;
    if (spec.live)
      recordedEvents_.push_back(InputEvent{k, InputEvent::Kind::Param, spec.key, text, ""});
    else
      rebuildOnly += " " + spec.key + "=" + text;
  }
  for (const auto& [key, value] : scene_->edits())
    recordedEvents_.push_back(InputEvent{k, InputEvent::Kind::Edit, key, value, ""});
  recordingComment_ = "scene '" + sceneName_ + "', h = " + formatNumber(h()) + " s";
  if (!rebuildOnly.empty()) recordingComment_ += "\nrecorded with (give them with --set):" + rebuildOnly;
}

InputTrack SimDriver::recordedTrack() const {
  InputTrack track;
  track.neutral = neutralInputs(controls());
  for (const auto& [k, values] : recorded_) track.append(k, values);
  for (const InputEvent& e : recordedEvents_) track.addEvent(e);
  return track;
}

void SimDriver::saveRecording(const std::string& path) const {
  // The length is not in the rows (they store changes only): say how to replay all of it.
  const long steps = recorded_.empty() ? 0 : recorded_.back().first + 1;
  const bool reset = std::any_of(recordedEvents_.begin(), recordedEvents_.end(),
                                 [](const InputEvent& e) { return e.kind == InputEvent::Kind::Reset; });
  const std::string n = std::to_string(steps);
  recordedTrack().save(path, controls(),
                       recordingComment_ + "\n" + n + " steps: " +
                           (reset ? "varsim --replay " + path + " (resets replay in the app only)"
                                  : "varsim run " + sceneName_ + " --steps " + n + " --input " + path));
}

}  // namespace varsim
