// The app's simulation core, without any GL: a scene stepped at exactly its h by a FixedStepClock,
// inputs taken once per physics step from an InputSource (live devices or a replayed track), a
// history ring for step-back/scrubbing (states + parameters + scene edits), plot sampling, recording
// of inputs and of every live edit (parameter, scene edit, reset) as timed events, and divergence.
// The window only calls frame(wallDt) and draws: a slow frame changes how many steps run per frame,
// never their size or inputs, so the trajectory is a function of (scene, params, inputs by step).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/sim/energy_monitor.h"
#include "engine/sim/fixed_step_clock.h"
#include "engine/sim/input_track.h"
#include "scenes/scene.h"
#include "ui/core/frame_phases.h"
#include "ui/core/history_ring.h"
#include "ui/core/plot_groups.h"
#include "ui/core/step_credit.h"
#include "ui/input/input_source.h"
#include "ui/plot/plot_history.h"

namespace varsim {

class SimDriver {
 public:
  explicit SimDriver(size_t historyCapacity = 2000, size_t plotCapacity = 65536);

  // Builds a registered scene (validated). Throws BadInput and keeps the current scene on failure.
  // Ends a recording (a file holds one scene: save it first) and a replay.
  void load(const std::string& name, const ParamSet& params);
  bool loaded() const { return scene_ != nullptr; }
  // Exact restart: rebuilds from the edited parameters (including those waiting for a reset), step 0,
  // history/plots cleared. While recording, the reset is a recorded event and the recording goes on
  // (its steps keep counting: trackStep()); otherwise a replay restarts from its first row. Throws
  // BadInput (then the previous scene stays).
  void reset();

  // Live edits: both validate (BadInput naming key, value and range; nothing changes), take effect
  // before the next step, are recorded as events while recording, and made in the past (after a step
  // back or scrub) rewrite the future like Run does. Live keys reach the scene through applyLive;
  // the others wait for reset(). applyEdit is Scene::applyEdit (e.g. per-constraint overrides).
  enum class Apply { Live, OnReset };
  Apply setParam(const std::string& key, const ParamValue& value);
  void applyEdit(const std::string& key, const std::string& value);
  const ParamSet& params() const { return params_; }
  const std::vector<std::string>& pendingKeys() const { return pending_; }

  // Runs the steps the clock grants for a frame of wallDt seconds; none while paused or diverged.
  // With a step budget, stepping stops once the next step (at the last step's cost) would end past
  // the frame's credit (StepCredit: the budget plus what earlier frames left unused, at most two
  // budgets; at least one step runs); the steps left over are owed to the next frames, up to
  // maxOwedSeconds of simulated time, and beyond that dropped as missed ticks: a step too slow for
  // real time makes the simulation run slower than real time at a steady frame rate instead of
  // frames growing without bound, and a step that fits the budget repays a backlog (a slow first
  // step, sub-stepped frames) in the frames' spare time. Which steps run never depends on it: only
  // when they run.
  int frame(double wallDt);
  void setStepBudget(double seconds, double maxOwedSeconds = 0.25) {
    credit_.setBudget(seconds);
    maxOwedSeconds_ = maxOwedSeconds;
  }
  long owedSteps() const { return owed_; }
  // History of large states: a state of at least `minBytes` is stored only every `every` steps and at each settings
  // change (a checkpoint); the entries between hold their step's inputs and are rebuilt, when stepped back to,
  // scrubbed to or needed after a failed step, by stepping again from the checkpoint before them: the same bits
  // (the copy of a 10 000-link ladder's 3.8 MB state into the ring was ~0.5 ms per step). every = 1: a state per step.
  void setHistoryCheckpoints(size_t minBytes, int every) {
    checkpointMinBytes_ = minBytes;
    checkpointEvery_ = every < 1 ? 1 : every;
  }
  bool stepOnce();             // one step (also while paused); false if it diverged
  bool stepBack();             // to the previous history entry; pauses; false at the oldest
  void scrubTo(size_t index);  // loads history entry `index`; pauses
  void setPaused(bool p);
  bool paused() const { return paused_; }
  void setSpeed(double speed);  // clamped to [0.1, 4]
  double speed() const { return clock_.speed; }
  long missedTicks() const { return clock_.missedTicks() + budgetMissed_; }

  // Inputs. The live source is not owned (the app keeps it); a replay is.
  void setLiveInput(InputSource* live) { live_ = live; }
  // Resets the scene and replays inputs and events from step 0 (events at step k apply before step
  // k's physics; a bad event stops the replay with a notice and pauses).
  void startReplay(InputTrack track);
  void stopReplay();  // back to live input from the current step
  bool replaying() const { return replay_ != nullptr; }
  const ReplayInput* replay() const { return replay_.get(); }
  // Records the inputs and edits of every following step (truncated on rewind). Live parameters that
  // differ from the scene's defaults and the scene edits in force are recorded first, as events.
  void startRecording();
  void stopRecording() { recording_ = false; }
  bool recording() const { return recording_; }
  InputTrack recordedTrack() const;
  const std::vector<InputEvent>& recordedEvents() const { return recordedEvents_; }
  void saveRecording(const std::string& path) const;  // with a comment naming rebuild-only parameters
  // Steps since the replay/recording started: step() plus the steps before the last recorded reset.
  long trackStep() const { return trackBase_ + step_; }
  std::vector<ControlSpec> controls() const { return scene_ ? scene_->controls() : std::vector<ControlSpec>{}; }
  const InputVector& lastInputs() const { return lastInputs_; }

  // State.
  Scene& scene() { return *scene_; }
  const Scene& scene() const { return *scene_; }
  const std::string& sceneName() const { return sceneName_; }
  long step() const { return step_; }
  double h() const { return scene_ ? scene_->dt() : 0.0; }
  const HistoryRing& history() const { return history_; }
  size_t historyCursor() const { return cursor_; }
  bool atPresent() const { return cursor_ + 1 >= history_.size(); }
  const PlotHistory& plotData() const { return plots_; }
  const std::vector<PlotSpec>& plotGroups() const { return plotGroups_; }
  const std::vector<std::string>& columns() const { return columns_; }
  const std::vector<double>& lastRow() const { return row_; }

  bool diverged() const { return diverged_; }
  const std::string& divergedMessage() const { return divergedMessage_; }
  std::vector<std::string> takeNotices();  // events: input clamped, parameter applied, …
  // Energy gained without input (flagged like a divergence: a notice once, a HUD line while it holds).
  const EnergyMonitor& energyMonitor() const { return energy_; }
  double lastStepMicros() const { return lastStepMicros_; }
  long totalSteps() const { return totalSteps_; }  // steps run since construction (rate meters)
  // Cost of the steps since the last call, by phase (Step, Bookkeeping, PanelSamples); resets it.
  FramePhaseTimes takeCosts();

  // Called after every completed step (tests hash states here).
  std::function<void(long step, const Scene&)> afterStep;

 private:
  static std::unique_ptr<Scene> build(const std::string& name, const ParamSet& params);
  void adopt(std::unique_ptr<Scene> scene, const std::string& name, const ParamSet& params);
  void rebuild(long trackBase);  // reset keeping replay and recording
  bool doStep();
  bool applyReplayEvents();  // false (replay stopped, paused) on a bad event
  void afterEdit(InputEvent event, bool onReset);
  void pushHistory();
  // The settings in force as a history snapshot (a new one after an edit, else the last).
  std::shared_ptr<const HistorySettings> settingsNow();
  void applySettings(const HistorySettings& s);
  void restoreEntry(size_t index);
  void restoreBeforeFailedStep();
  // A plot sample of the current state when one is due; rowCurrent: row_ already holds its diagnostics
  // (doStep computed them after the step: a 5000-link ladder's diagnostics are ~0.3 ms).
  void recordSample(bool rowCurrent = false);
  void rewriteFutureIfRewound();
  void truncateRecording(long fromTrackStep);

  std::unique_ptr<Scene> scene_;
  std::string sceneName_;
  ParamSet params_;
  std::vector<std::string> pending_;
  FixedStepClock clock_;
  bool paused_ = false;
  long step_ = 0;
  long totalSteps_ = 0;
  HistoryRing history_;
  size_t cursor_ = 0;
  PlotHistory plots_;
  PlotSeriesLayout layout_;
  std::vector<PlotSpec> plotGroups_;
  std::vector<std::string> columns_;
  std::vector<double> row_, plotRow_;
  double lastPlotTime_ = -1e300;
  InputSource* live_ = nullptr;
  std::unique_ptr<ReplayInput> replay_;
  bool recording_ = false;
  std::vector<std::pair<long, InputVector>> recorded_;  // by track step
  std::vector<InputEvent> recordedEvents_;
  std::string recordingComment_;
  long trackBase_ = 0;                               // track step of the scene's step 0
  long eventsAppliedAt_ = -1;                        // track step whose replay events are in force (a retry skips them)
  bool rewound_ = false;                             // restored from history: the next step or edit rewrites the future
  std::shared_ptr<const HistorySettings> settings_;  // snapshot for the next history entry
  bool settingsChanged_ = true;                      // an edit since settings_ was taken
  size_t checkpointMinBytes_ = size_t(1) << 20;      // setHistoryCheckpoints: ladders above ~2700 links
  int checkpointEvery_ = 4;                          // at most 3 steps re-run to rebuild an entry
  InputVector lastInputs_;
  bool inputWasClamped_ = false;
  bool diverged_ = false;
  std::string divergedMessage_;
  int energyColumn_ = -1;
  EnergyMonitor energy_;
  double energyNow() const { return energyColumn_ >= 0 ? row_[size_t(energyColumn_)] : 0.0; }
  std::vector<std::string> notices_;
  double lastStepMicros_ = 0.0;
  StepCredit credit_;  // the step budget (none by default)
  double maxOwedSeconds_ = 0.25;
  long owed_ = 0;  // steps granted by the clock and not yet run (step budget)
  long budgetMissed_ = 0;
  FramePhaseTimes costs_;
};

}  // namespace varsim
