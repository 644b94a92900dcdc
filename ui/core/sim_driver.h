// The app's simulation core, without any GL: a scene stepped at exactly its h by a FixedStepClock,
// inputs taken once per physics step from an InputSource (live devices or a replayed track), a
// history ring for step-back/scrubbing, plot sampling, input recording and divergence handling.
// The window only calls frame(wallDt) and draws: a slow frame changes how many steps run per frame,
// never their size or inputs, so the trajectory is a function of (scene, params, inputs by step).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/sim/fixed_step_clock.h"
#include "engine/sim/input_track.h"
#include "scenes/scene.h"
#include "ui/core/history_ring.h"
#include "ui/core/plot_groups.h"
#include "ui/input/input_source.h"
#include "ui/plot/plot_history.h"

namespace varsim {

class SimDriver {
 public:
  explicit SimDriver(size_t historyCapacity = 2000, size_t plotCapacity = 65536);

  // Builds a registered scene (validated). Throws BadInput and keeps the current scene on failure.
  void load(const std::string& name, const ParamSet& params);
  bool loaded() const { return scene_ != nullptr; }
  // Exact restart: rebuilds from the edited parameters (including those waiting for a reset), step 0,
  // history/plots/recording cleared, a replay restarts from its first row. Throws BadInput (then the
  // previous scene stays).
  void reset();

  enum class Apply { Live, OnReset };
  // Validates (throws BadInput naming key, value and range; nothing changes). Live keys reach the
  // scene through applyLive before the next step; the others wait for reset().
  Apply setParam(const std::string& key, const ParamValue& value);
  const ParamSet& params() const { return params_; }
  const std::vector<std::string>& pendingKeys() const { return pending_; }

  // Runs the steps the clock grants for a frame of wallDt seconds; none while paused or diverged.
  int frame(double wallDt);
  bool stepOnce();              // one step (also while paused); false if it diverged
  bool stepBack();              // to the previous history entry; pauses; false at the oldest
  void scrubTo(size_t index);   // loads history entry `index`; pauses
  void setPaused(bool p);
  bool paused() const { return paused_; }
  void setSpeed(double speed);  // clamped to [0.1, 4]
  double speed() const { return clock_.speed; }
  long missedTicks() const { return clock_.missedTicks(); }

  // Inputs. The live source is not owned (the app keeps it); a replay is.
  void setLiveInput(InputSource* live) { live_ = live; }
  void startReplay(InputTrack track);  // resets the scene and replays from step 0
  void stopReplay();                   // back to live input from the current step
  bool replaying() const { return replay_ != nullptr; }
  const ReplayInput* replay() const { return replay_.get(); }
  void startRecording();  // records the inputs of every following step (truncated on rewind)
  void stopRecording() { recording_ = false; }
  bool recording() const { return recording_; }
  InputTrack recordedTrack() const;
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
  double lastStepMicros() const { return lastStepMicros_; }
  long totalSteps() const { return totalSteps_; }  // steps run since construction (rate meters)

  // Called after every completed step (tests hash states here).
  std::function<void(long step, const Scene&)> afterStep;

 private:
  void adopt(std::unique_ptr<Scene> scene, const std::string& name, const ParamSet& params);
  bool doStep();
  void recordSample();
  void rewriteFutureIfScrubbed();

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
  std::vector<std::pair<long, InputVector>> recorded_;
  InputVector lastInputs_;
  bool inputWasClamped_ = false;
  bool diverged_ = false;
  std::string divergedMessage_;
  std::vector<std::string> notices_;
  double lastStepMicros_ = 0.0;
};

}  // namespace varsim
