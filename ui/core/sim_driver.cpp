// Fixed-step simulation driver; see header.
#include "ui/core/sim_driver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"
#include "ui/core/speed_ladder.h"

namespace varsim {

// Sampling interval for plots so that the longest window (10 min) fits the plot ring buffer.
static double minPlotInterval(size_t capacity) { return 600.0 / double(capacity) * (1.0 - 1e-9); }

SimDriver::SimDriver(size_t historyCapacity, size_t plotCapacity) : history_(historyCapacity), plots_(plotCapacity) {}

void SimDriver::load(const std::string& name, const ParamSet& params) {
  std::unique_ptr<Scene> scene;
  try {
    scene = SceneRegistry::create(name, params);
  } catch (const BadInput&) {
    throw;
  } catch (const std::exception& e) {
    throw BadInput("scene '" + name + "' could not be built: " + e.what());
  }
  if (!scene) throw BadInput("scene '" + name + "' could not be built");
  adopt(std::move(scene), name, params);
}

void SimDriver::adopt(std::unique_ptr<Scene> scene, const std::string& name, const ParamSet& params) {
  scene_ = std::move(scene);
  sceneName_ = name;
  params_ = params;
  pending_.clear();
  step_ = 0;
  clock_.reset();
  diverged_ = false;
  divergedMessage_.clear();
  inputWasClamped_ = false;
  recorded_.clear();
  lastInputs_ = neutralInputs(scene_->controls());
  columns_ = scene_->columns();
  layout_.configure(columns_);
  plots_.setSeries(layout_.names());
  plotGroups_ = plotGroupsFor(layout_.names(), scene_->plots());
  lastPlotTime_ = -1e300;
  lastStepMicros_ = 0.0;
  history_.clear();
  history_.push(0, scene_->time(), scene_->saveState());
  cursor_ = 0;
  recordSample();
}

void SimDriver::reset() {
  if (sceneName_.empty()) return;
  load(sceneName_, params_);
}

SimDriver::Apply SimDriver::setParam(const std::string& key, const ParamValue& value) {
  if (!scene_) throw BadInput("no scene loaded");
  const ParamSpec* spec = params_.spec(key);
  if (!spec) throw BadInput("unknown parameter '" + key + "' for scene '" + sceneName_ + "'");
  ParamSet candidate = params_;
  candidate.set(key, value, "parameter");  // throws BadInput with the allowed range
  if (const SceneInfo* info = SceneRegistry::find(sceneName_); info && info->validate) info->validate(candidate);
  if (spec->live) {
    // Only this key changes in the running scene; other edits still wait for reset.
    ParamSet running = scene_->params();
    running.set(key, value, "parameter");
    const std::vector<double> before = scene_->saveState();
    try {
      scene_->applyLive(running);
    } catch (const std::exception& e) {
      scene_->loadState(before);
      throw BadInput(std::string("parameter '") + key + "': " + e.what());
    }
    params_ = candidate;
    return Apply::Live;
  }
  params_ = candidate;
  if (std::find(pending_.begin(), pending_.end(), key) == pending_.end()) pending_.push_back(key);
  return Apply::OnReset;
}

void SimDriver::setPaused(bool p) {
  paused_ = p;
  clock_.reset();  // resuming never runs a backlog accumulated while paused
}

void SimDriver::setSpeed(double speed) { clock_.speed = clampSpeed(speed); }

int SimDriver::frame(double wallDt) {
  if (!scene_ || paused_ || diverged_) return 0;
  const double h = scene_->dt();
  const int n = clock_.advance(wallDt, h);
  int done = 0;
  for (; done < n; ++done)
    if (!doStep()) break;
  return done;
}

bool SimDriver::stepOnce() { return scene_ && doStep(); }

void SimDriver::rewriteFutureIfScrubbed() {
  if (atPresent()) return;
  // Resuming from a past state: the recorded future (history, plots, recorded inputs) is rewritten.
  history_.truncateAfter(cursor_);
  plots_.truncateAfter(history_.newest().time);
  lastPlotTime_ = plots_.size() ? plots_.newestTime() : -1e300;
  recorded_.erase(std::remove_if(recorded_.begin(), recorded_.end(),
                                 [&](const std::pair<long, InputVector>& r) { return r.first >= step_; }),
                  recorded_.end());
}

bool SimDriver::doStep() {
  if (diverged_) {
    // Stepping again after divergence retries from the restored state (deterministically diverges).
    diverged_ = false;
    divergedMessage_.clear();
  }
  rewriteFutureIfScrubbed();
  const double h = scene_->dt();
  const std::vector<ControlSpec> controls = scene_->controls();
  InputVector inputs = replay_ ? replay_->inputsForStep(step_, h)
                       : live_ ? live_->inputsForStep(step_, h)
                               : neutralInputs(controls);
  const bool clamped = sanitizeInputs(controls, inputs);
  if (clamped && !inputWasClamped_)
    notices_.push_back("input out of range or not finite at step " + std::to_string(step_ + 1) +
                       ": clamped, non-finite values set to neutral");
  inputWasClamped_ = clamped;

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
  if (failure.empty()) {
    scene_->diagnostics(row_);
    for (size_t c = 0; c < row_.size() && failure.empty(); ++c)
      if (!std::isfinite(row_[c]))
        failure = "'" + (c < columns_.size() ? columns_[c] : std::to_string(c)) + "' is not finite";
  }
  if (!failure.empty()) {
    // The state before the step comes back from the history ring, whatever the scene left behind.
    scene_->loadState(history_.at(cursor_).state);
    scene_->diagnostics(row_);
    diverged_ = true;
    paused_ = true;
    char when[64];
    std::snprintf(when, sizeof when, " (t=%.6g s)", scene_->time() + h);
    divergedMessage_ = "diverged at step " + std::to_string(step_ + 1) + when + ": " + failure;
    return false;
  }
  lastInputs_ = inputs;
  if (recording_) recorded_.emplace_back(step_, inputs);
  ++step_;
  ++totalSteps_;
  history_.push(step_, scene_->time(), scene_->saveState());
  cursor_ = history_.size() - 1;
  recordSample();
  if (afterStep) afterStep(step_, *scene_);
  return true;
}

void SimDriver::recordSample() {
  const double t = scene_->time();
  if (t < lastPlotTime_ + minPlotInterval(plots_.capacity())) return;
  scene_->diagnostics(row_);
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
  const HistoryRing::Entry& e = history_.at(index);
  scene_->loadState(e.state);
  scene_->diagnostics(row_);
  step_ = e.step;
  cursor_ = index;
  diverged_ = false;
  divergedMessage_.clear();
  setPaused(true);
}

void SimDriver::startReplay(InputTrack track) {
  replay_ = std::make_unique<ReplayInput>(std::move(track));
  reset();
}

void SimDriver::stopReplay() { replay_.reset(); }

void SimDriver::startRecording() {
  recording_ = true;
  recorded_.erase(std::remove_if(recorded_.begin(), recorded_.end(),
                                 [&](const std::pair<long, InputVector>& r) { return r.first >= step_; }),
                  recorded_.end());
}

InputTrack SimDriver::recordedTrack() const {
  InputTrack track;
  track.neutral = neutralInputs(controls());
  for (const auto& [k, values] : recorded_) track.append(k, values);
  return track;
}

std::vector<std::string> SimDriver::takeNotices() {
  std::vector<std::string> out;
  out.swap(notices_);
  return out;
}

}  // namespace varsim
