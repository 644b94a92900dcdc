// One run of a scene as `varsim run` and the Python module (python/) step it: the scene at fixed h, input
// events applied through live_edit.h, and the CSV row (the scene's diagnostics, checked finite, then the energy
// monitor's energy_gain and energy_flag). Both callers use this one loop, so the CLI's CSV and Python's arrays
// hold the same bits.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/sim/energy_monitor.h"
#include "engine/sim/input_track.h"
#include "scenes/live_edit.h"
#include "scenes/scene.h"
#include "scenes/scene_file.h"

namespace varsim {

class RunSession {
 public:
  // Receives each warning line without the "varsim: warning: " prefix (parameter warning, energy flag).
  using Warn = std::function<void(const std::string&)>;

  // Builds config.scene from config.params (BadInput on a refused value) and records row 0.
  RunSession(const SceneConfig& config, Warn warn);

  Scene& scene() { return *scene_; }
  const Scene& scene() const { return *scene_; }
  const std::string& name() const { return name_; }
  double h() const { return h_; }
  long stepCount() const { return steps_; }
  const ParamSet& edited() const { return edited_; }              // parameters as edits changed them
  const std::vector<std::string>& columns() const { return csvColumns_; }  // the CSV header
  const std::vector<double>& row() const { return row_; }         // the CSV row of the current state
  const EnergyMonitor& monitor() const { return monitor_; }

  // Applies one Param/Edit event before the next step; after the last event of that step call endEdits(),
  // which prints a changed parameter warning and books the edits' energy jump as work.
  EditTiming applyEvent(const InputEvent& event);
  void endEdits();
  // One physics step with `inputs`; SimulationDiverged names the step and the quantity.
  void step(const InputVector& inputs);

  // The scene's state, the monitor's, the step count and the row (exact round trip; same scene and parameters).
  std::vector<double> saveState() const;
  void loadState(const std::vector<double>& state);  // BadInput on a size that does not fit

 private:
  void checkRow();
  void monitorRow();
  void warnParams();

  std::string name_;
  std::unique_ptr<Scene> scene_;
  ParamSet edited_;
  Warn warn_;
  double h_ = 0.0;
  long steps_ = 0;
  std::vector<std::string> sceneColumns_, csvColumns_;
  int energyCol_ = -1;
  EnergyMonitor monitor_;
  std::vector<double> row_;
  std::string warned_;
};

}  // namespace varsim
