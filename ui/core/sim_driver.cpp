// Fixed-step simulation driver: stepping, edits, history and plots (see header); recording and replay are in
// sim_driver_recording.cpp.
#include "ui/core/sim_driver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"
#include "scenes/live_edit.h"
#include "ui/core/speed_ladder.h"

namespace varsim {

// Sampling interval for plots so that the longest window (10 min) fits the plot ring buffer.
static double minPlotInterval(size_t capacity) { return 600.0 / double(capacity) * (1.0 - 1e-9); }

SimDriver::SimDriver(size_t historyCapacity, size_t plotCapacity) : history_(historyCapacity), plots_(plotCapacity) {}

std::unique_ptr<Scene> SimDriver::build(const std::string& name, const ParamSet& params) {
  std::unique_ptr<Scene> scene;
  try {
    scene = SceneRegistry::create(name, params);
  } catch (const BadInput&) {
    throw;
  } catch (const std::exception& e) {
    throw BadInput("scene '" + name + "' could not be built: " + e.what());
  }
  if (!scene) throw BadInput("scene '" + name + "' could not be built");
  return scene;
}

void SimDriver::load(const std::string& name, const ParamSet& params) {
  std::unique_ptr<Scene> scene = build(name, params);
  // A recording and a replay hold one scene: a switch (or reload) ends both.
  replay_.reset();
  recording_ = false;
  recorded_.clear();
  recordedEvents_.clear();
  trackBase_ = 0;
  adopt(std::move(scene), name, params);
}

void SimDriver::adopt(std::unique_ptr<Scene> scene, const std::string& name, const ParamSet& params) {
  scene_ = std::move(scene);
  sceneName_ = name;
  params_ = params;
  pending_.clear();
  step_ = 0;
  owed_ = 0;
  clock_.reset();
  credit_.reset();
  diverged_ = false;
  divergedMessage_.clear();
  inputWasClamped_ = false;
  rewound_ = false;
  eventsAppliedAt_ = -1;
  lastInputs_ = neutralInputs(scene_->controls());
  columns_ = scene_->columns();
  layout_.configure(columns_);
  plots_.setSeries(layout_.names());
  plotGroups_ = plotGroupsFor(layout_.names(), scene_->plots());
  lastPlotTime_ = -1e300;
  lastStepMicros_ = 0.0;
  history_.clear();
  settingsChanged_ = true;
  pushHistory();
  cursor_ = 0;
  recordSample();
  energyColumn_ = EnergyMonitor::energyColumn(columns_);
  energy_ = EnergyMonitor{};
  scene_->diagnostics(row_);
  if (energyColumn_ >= 0) energy_.start(energyNow(), scene_->inputWork(), scene_->energyScale());
}

void SimDriver::rebuild(long trackBase) {
  adopt(build(sceneName_, params_), sceneName_, params_);
  trackBase_ = trackBase;
}

void SimDriver::reset() {
  if (sceneName_.empty()) return;
  if (!recording_) return rebuild(0);
  rewriteFutureIfRewound();
  const long k = trackStep();
  rebuild(k);  // throws BadInput before anything is recorded
  recordedEvents_.push_back(InputEvent{k, InputEvent::Kind::Reset, "", "", ""});
}

SimDriver::Apply SimDriver::setParam(const std::string& key, const ParamValue& value) {
  if (!scene_) throw BadInput("no scene loaded");
  const EditTiming timing = applyParamEdit(*scene_, sceneName_, params_, key, value);
  afterEdit(InputEvent{trackStep(), InputEvent::Kind::Param, key, params_.valueText(key), ""},
            timing == EditTiming::OnReset);
  return timing == EditTiming::Live ? Apply::Live : Apply::OnReset;
}

void SimDriver::applyEdit(const std::string& key, const std::string& value) {
  if (!scene_) throw BadInput("no scene loaded");
  InputEvent e{trackStep(), InputEvent::Kind::Edit, key, value, ""};
  applyInputEvent(*scene_, sceneName_, params_, e);
  afterEdit(std::move(e), false);
}

// After an edit took effect: a past state gets a new future, the edit is recorded, and the next
// history entry carries the new settings.
void SimDriver::afterEdit(InputEvent event, bool onReset) {
  // row_ holds the state's diagnostics from before the edit: the energy jump at fixed state (e.g.
  // gravity: ΔE = −m Δg·x) is work done by the edit, not by the integrator.
  const double energyBefore = energyNow();
  scene_->diagnostics(row_);
  energy_.addEditWork(energyNow() - energyBefore);
  if (onReset && std::find(pending_.begin(), pending_.end(), event.key) == pending_.end())
    pending_.push_back(event.key);
  rewriteFutureIfRewound();
  settingsChanged_ = true;
  if (!recording_) return;
  event.where.clear();
  // A slider dragged while paused sends many values at one step: the last one is the edit.
  InputEvent* last = recordedEvents_.empty() ? nullptr : &recordedEvents_.back();
  if (last && last->step == event.step && last->kind == event.kind && last->key == event.key &&
      event.kind != InputEvent::Kind::Reset)
    last->value = std::move(event.value);
  else
    recordedEvents_.push_back(std::move(event));
}

void SimDriver::setPaused(bool p) {
  paused_ = p;
  owed_ = 0;
  clock_.reset();  // resuming never runs a backlog accumulated while paused
  credit_.reset();
}

void SimDriver::setSpeed(double speed) { clock_.speed = clampSpeed(speed); }

int SimDriver::frame(double wallDt) {
  if (!scene_ || paused_ || diverged_) return 0;
  const double h = scene_->dt();
  owed_ += clock_.advance(wallDt, h);
  const auto start = std::chrono::steady_clock::now();
  const auto spent = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  credit_.beginFrame();
  int done = 0;
  while (done < owed_) {
    if (done > 0 && !credit_.allows(spent(), 1e-6 * lastStepMicros_)) break;
    if (!replay_ && live_ && !live_->readyForStep(step_)) break;  // e.g. the Autopilot's re-plan still running
    if (!doStep()) break;
    ++done;
  }
  if (credit_.budget() > 0.0) credit_.endFrame(spent());
  owed_ -= done;
  if (paused_ || diverged_ || credit_.budget() <= 0.0) owed_ = 0;
  const long maxOwed = long(std::floor(maxOwedSeconds_ / h));
  if (owed_ > maxOwed) {
    budgetMissed_ += owed_ - maxOwed;
    owed_ = maxOwed;
  }
  return done;
}

FramePhaseTimes SimDriver::takeCosts() {
  FramePhaseTimes c = costs_;
  costs_ = FramePhaseTimes{};
  return c;
}

bool SimDriver::stepOnce() { return scene_ && doStep(); }

void SimDriver::rewriteFutureIfRewound() {
  if (!rewound_) return;
  rewound_ = false;
  // Resuming (or editing) from a restored entry: the recorded future (history, plots, recorded inputs
  // and events from this step on, which the restore undid) is rewritten.
  history_.truncateAfter(cursor_);
  plots_.truncateAfter(history_.newest().time);
  lastPlotTime_ = plots_.size() ? plots_.newestTime() : -1e300;
  truncateRecording(trackStep());
}

bool SimDriver::doStep() {
  if (diverged_) {
    // Stepping again after divergence retries from the restored state (deterministically diverges).
    diverged_ = false;
    divergedMessage_.clear();
  }
  PhaseClock phase;
  rewriteFutureIfRewound();
  if (!applyReplayEvents()) return false;
  const double h = scene_->dt();
  const std::vector<ControlSpec> controls = scene_->controls();
  InputVector inputs = replay_ ? replay_->inputsForStep(trackStep(), h)
                       : live_ ? live_->inputsForStep(step_, h)
                               : neutralInputs(controls);
  const bool clamped = sanitizeInputs(controls, inputs);
  if (clamped && !inputWasClamped_)
    notices_.push_back("input out of range or not finite at step " + std::to_string(step_ + 1) +
                       ": clamped, non-finite values set to neutral");
  inputWasClamped_ = clamped;

  costs_.add(FramePhase::Bookkeeping, phase.lap());
  const auto t0 = std::chrono::steady_clock::now();
  std::string failure;
  try {
    scene_->step(h, inputs);
  } catch (const SimulationDiverged& e) {
    failure = e.what();
  } catch (const std::exception& e) {
    failure = std::string("step failed: ") + e.what();
  }
  lastStepMicros_ = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  costs_.add(FramePhase::Step, phase.lap());
  if (failure.empty()) {
    scene_->diagnostics(row_);
    for (size_t c = 0; c < row_.size() && failure.empty(); ++c)
      if (!std::isfinite(row_[c]))
        failure = "'" + (c < columns_.size() ? columns_[c] : std::to_string(c)) + "' is not finite";
  }
  if (!failure.empty()) {
    // The state before the step comes back from the history ring, whatever the scene left behind;
    // the edits made before the step stay in force (they are what the user is tuning).
    restoreBeforeFailedStep();
    scene_->diagnostics(row_);
    diverged_ = true;
    paused_ = true;
    char when[64];
    std::snprintf(when, sizeof when, " (t=%.6g s)", scene_->time() + h);
    divergedMessage_ = "diverged at step " + std::to_string(step_ + 1) + when + ": " + failure;
    return false;
  }
  lastInputs_ = inputs;
  if (recording_) recorded_.emplace_back(trackStep(), inputs);
  ++step_;
  ++totalSteps_;
  if (energyColumn_ >= 0 &&
      energy_.update(step_, scene_->time(), energyNow(), scene_->inputWork(), scene_->energyScale()))
    notices_.push_back(energy_.message());
  pushHistory();
  cursor_ = history_.size() - 1;
  recordSample(true);
  costs_.add(FramePhase::Bookkeeping, phase.lap());
  if (afterStep) afterStep(step_, *scene_);
  costs_.add(FramePhase::PanelSamples, phase.lap());
  return true;
}

std::shared_ptr<const HistorySettings> SimDriver::settingsNow() {
  if (settingsChanged_ || !settings_) {
    auto s = std::make_shared<HistorySettings>();
    for (const ParamSpec& spec : scene_->params().specs()) s->running.push_back(scene_->params().value(spec.key));
    for (const std::string& key : pending_) s->pending.emplace_back(key, params_.value(key));
    s->edits = scene_->edits();
    settings_ = std::move(s);
    settingsChanged_ = false;
  }
  return settings_;
}

void SimDriver::pushHistory() {
  const std::shared_ptr<const HistorySettings> settings = settingsNow();
  if (!history_.empty() && history_.stateSize() * sizeof(double) >= checkpointMinBytes_) {
    // Steps since the last checkpoint, counted in the ring (a rewound past was truncated to the cursor).
    const size_t since = history_.size() - history_.checkpointFor(history_.size() - 1);
    if (since < size_t(checkpointEvery_) && settings == history_.newest().settings && history_.acceptsInputs())
      return history_.pushInputs(step_, scene_->time(), settings, lastInputs_);
  }
  // The oldest entry's buffer when the ring is full (sized like a checkpoint: a scene keeps its state size).
  std::vector<double> state = history_.recycleOldest(history_.stateSize());
  scene_->saveStateInto(state);
  history_.push(step_, scene_->time(), std::move(state), settings);
}

void SimDriver::applySettings(const HistorySettings& s) {
  // The driver's parameters are the running ones except for the keys waiting for a reset.
  ParamSet running = scene_->params();
  for (size_t i = 0; i < s.running.size(); ++i) running.set(running.specs()[i].key, s.running[i], "history");
  params_ = running;
  pending_.clear();
  for (const auto& [key, value] : s.pending) {
    params_.set(key, value, "history");
    pending_.push_back(key);
  }
  scene_->applyLive(running);
  scene_->clearEdits();
  for (const auto& [key, value] : s.edits) scene_->applyEdit(key, value);
}

// Settings first (applyLive/applyEdit may touch derived data), then the state: the checkpoint's, then the steps
// after it again with their inputs (entries between checkpoints share its settings: an edit makes a checkpoint).
void SimDriver::restoreEntry(size_t index) {
  const HistoryRing::Entry& e = history_.at(index);
  if (e.settings && (settingsChanged_ || e.settings != settings_)) {
    applySettings(*e.settings);
    settings_ = e.settings;
    settingsChanged_ = false;
  }
  const size_t c = history_.checkpointFor(index);
  scene_->loadState(history_.at(c).state);
  for (size_t i = c + 1; i <= index; ++i) scene_->step(scene_->dt(), history_.at(i).inputs);
}

// The state before a failed step, with the settings in force now: an edit made before the step stays.
void SimDriver::restoreBeforeFailedStep() {
  const HistoryRing::Entry& e = history_.at(cursor_);
  if (e.checkpoint) return scene_->loadState(e.state);
  const std::shared_ptr<const HistorySettings> now = settingsNow();
  restoreEntry(cursor_);  // under the entry's settings, as its steps ran
  if (now != settings_) {
    applySettings(*now);
    settings_ = now;
  }
}

void SimDriver::recordSample(bool rowCurrent) {
  const double t = scene_->time();
  if (t < lastPlotTime_ + minPlotInterval(plots_.capacity())) return;
  if (!rowCurrent) scene_->diagnostics(row_);
  if (step_ == 0) layout_.reset();
  layout_.compute(row_, lastStepMicros_, plotRow_);
  if (plots_.push(t, plotRow_)) lastPlotTime_ = t;
}

bool SimDriver::stepBack() {
  if (!scene_ || cursor_ == 0) return false;
  scrubTo(cursor_ - 1);
  return true;
}

void SimDriver::scrubTo(size_t index) {
  if (!scene_ || history_.empty()) return;
  index = std::min(index, history_.size() - 1);
  restoreEntry(index);
  scene_->diagnostics(row_);
  step_ = history_.at(index).step;
  cursor_ = index;
  rewound_ = true;
  eventsAppliedAt_ = -1;  // the entry holds the settings before this step's events
  energy_.rebase(energyNow(), scene_->inputWork());
  diverged_ = false;
  divergedMessage_.clear();
  setPaused(true);
}

std::vector<std::string> SimDriver::takeNotices() {
  std::vector<std::string> out;
  out.swap(notices_);
  return out;
}

}  // namespace varsim
