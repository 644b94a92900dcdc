// scenes/tree/solvability_readout.h — the solvability monitor (seed 002 Sec. 4) for any scene that steps a tree
// with the trapezoidal VI: the step bound h_bar (engine/tree/solvability_bound.h) at the stepper's state,
// shown beside the current h and the last Newton count as a HUD line and a plain-data panel (readout, a
// warning — never a clamp — when h > h_bar, the Assumption 1 constants, and h_bar and h over time).
#pragma once

#include <string>
#include <vector>

#include "engine/integrators/tree_trapezoidal.h"
#include "engine/tree/solvability_bound.h"
#include "scenes/scene_panel.h"

namespace varsim {

class SolvabilityReadout {
 public:
  // Re-evaluates the bound at the stepper's (q_k, v_k) with the forcing of the next step.
  void update(const tree::TreeTrapezoidal& s, const tree::TreeForcing& f);
  const tree::StepBound& bound() const { return bound_; }
  double hBar() const { return bound_.hBar(); }

  std::string hudText() const;             // "h_bar = ... s", for the line that shows h and the Newton count
  std::string hudWarning(double h) const;  // a line when h > h_bar, else ""
  ScenePanel panel(double h, int newtonIters) const;
  PanelSample sample(double h) const;  // trace "solvability": series h_bar, h (s)

 private:
  tree::StepBound bound_;
};

}  // namespace varsim
