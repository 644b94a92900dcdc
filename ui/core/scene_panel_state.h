// The data side of scene-declared panels (scenes/scene_panel.h) in the app, without GL or ImGui: the
// PanelContext the scene's panels read back, the traces their plots and profiles draw, sampled after
// every physics step (not per frame, so slow frames lose nothing; time going back drops the later
// samples and restarts the running peaks), and applying a widget's action through the driver.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "scenes/scene.h"
#include "ui/core/sim_driver.h"
#include "ui/plot/plot_history.h"

namespace varsim {

// Running peak of a profile since time last went back; restarts when time goes back or the size changes.
class ProfilePeak {
 public:
  void update(double t, const std::vector<double>& values);
  const std::vector<double>& peak() const { return peak_; }
  const std::vector<double>& peakTime() const { return peakTime_; }

 private:
  double lastT_ = -1e300;
  std::vector<double> peak_, peakTime_;
};

class PanelTraces {
 public:
  explicit PanelTraces(size_t capacity = 36000);  // 10 min at 60 Hz per time series
  void clear();
  // Adds one step's samples at time t. A trace absent from `samples` is dropped, one whose series
  // names changed restarts.
  void sample(double t, const std::vector<PanelSample>& samples);
  const PlotHistory* series(const std::string& trace) const;  // nullptr if not sampled
  const ProfilePeak* profile(const std::string& trace) const;

 private:
  size_t capacity_;
  std::map<std::string, PlotHistory> series_;
  std::map<std::string, ProfilePeak> profiles_;
};

// What the app keeps for the current scene object's panels: the context, the traces, the last
// rejection per widget row, and which scene object they belong to (a reset or load makes a new one).
struct ScenePanelState {
  const Scene* scene = nullptr;
  std::string sceneName;
  PanelContext context;
  PanelTraces traces;
  std::map<std::string, std::string> errors;  // error row → message
  std::vector<PanelMark> marks;               // this frame's, drawn over the 3-D view
  bool pressedInView = false;                 // the left button went down over the view (picking)
  size_t editsInForce = 0;                    // Scene::edits() of the followed scene, last seen
  std::string notice;                         // set by follow: what a reset dropped ("" = nothing)
  // Follows the driver's scene: another scene clears the context, a reset of the same scene keeps it
  // (the scene ignores what no longer applies); traces and errors restart. Returns true on a change.
  bool follow(const Scene* current, const std::string& name);
  // The per-step hook (SimDriver::afterStep): samples the scene's panels when it is the followed one.
  void afterStep(const Scene& scene);
  // A widget of the driver's scene changed to `value`: Scene::panelAction's edits are applied in
  // order through the driver (parameters and scene edits are recorded), or, if one is refused, those
  // already applied are put back. The refusal is kept in errors[row] (cleared on success); returns
  // whether the action was applied.
  bool act(SimDriver& driver, const std::string& action, const std::string& value, const std::string& row);
};

}  // namespace varsim
