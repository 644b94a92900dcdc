// Shared state of the SPOOK tuning panel's files (panels_rods.cpp: window, picking, status, ghosts;
// panels_rods_tuning.cpp: the eps/tau and conventions tabs). One panel state for the app: it follows
// the current scene object (syncScene) and is sampled after every physics step.
#pragma once
#include <imgui.h>

#include <map>
#include <set>
#include <string>

#include "ui/app/app_state.h"
#include "ui/core/rod_panel_data.h"

namespace varsim {

inline const ImVec4 kWarnColor(1.0f, 0.45f, 0.3f, 1.0f);   // rejections, divergence
inline const ImVec4 kPickColor(1.0f, 0.85f, 0.25f, 1.0f);   // the picked joint (row, marker)
inline const ImVec4 kOkColor(0.45f, 0.85f, 0.45f, 1.0f);    // ghost running
inline const ImVec4 kDriftColor(1.0f, 0.8f, 0.3f, 1.0f);    // ghost gaining energy

struct RodPanelState {
  const Scene* scene = nullptr;  // the scene object everything below belongs to
  std::string sceneName;
  int picked = -1;
  std::set<int> overrides;  // constraints given their own ε, τ in this scene object
  ConstraintTrace trace;
  SpeedEnvelope envelope;
  double initialEnergy = 0.0;  // J, of the scene object when it appeared (t = 0 after load/reset)
  std::map<std::string, double> ghostGrowthAt;  // ghost stepper → first time it gained energy (latched)
  std::map<std::string, std::string> errors;  // widget row → last rejection message
  int conventionTarget = 0;
  double effectiveMass = 1.0;  // kg: 1 = per unit mass
  bool pressedInView = false;
  bool hookInstalled = false;
  PlotView violationView, forceView;
};

RodPanelState& rodPanelState();
// "joint 89: rod 28 tail - rod 30 head" → "joint 89".
std::string shortName(const std::string& name);

// Shows the last rejection of `row` (if any) in the warning colour.
void showRodPanelError(const std::string& row);
// Applies an edit, recording (or clearing) the rejection shown under the row.
template <class F>
void tryRodPanelEdit(const std::string& row, F&& edit) {
  try {
    edit();
    rodPanelState().errors.erase(row);
  } catch (const std::exception& e) {
    rodPanelState().errors[row] = e.what();
  }
}

// The tabs of panels_rods_tuning.cpp.
void drawRelaxationTab(AppState& app, RodScene& rod);
void drawConventionsTab(AppState& app, RodScene& rod);

}  // namespace varsim
