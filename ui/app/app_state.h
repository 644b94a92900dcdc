// Everything the app's panels read and change, in one place: the simulation driver, live input,
// settings, camera, renderer, per-plot view state and the notice list. Panels are free functions
// over AppState (ui/app/panels.h), so each panel file stays small and GL-agnostic apart from ImGui.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "render/camera.h"
#include "render/renderer.h"
#include "ui/app/gamepad.h"
#include "ui/app/plan_panel.h"
#include "ui/app/plot_widget.h"
#include "ui/app/ui_layer.h"
#include "ui/app/ui_snapshot.h"
#include "ui/app/video_recording.h"
#include "ui/app/study_panel.h"
#include "ui/core/autopilot.h"
#include "ui/core/autopilot_input.h"
#include "ui/core/background_job.h"
#include "ui/core/frame_phases.h"
#include "ui/core/frame_stats.h"
#include "ui/core/scene_panel_state.h"
#include "ui/core/settings.h"
#include "ui/core/sim_driver.h"
#include "ui/core/view_layout.h"
#include "ui/input/axis_shaping.h"
#include "ui/input/live_input.h"

struct GLFWwindow;

namespace varsim {

struct Notice {
  std::string text;
  double shownAt = 0.0;  // app wall clock, s
  bool error = false;
};

struct AppState {
  GLFWwindow* window = nullptr;
  std::string settingsPath;
  Settings settings;
  SimDriver driver;
  LiveInput live;
  GamepadInput gamepad;
  OrbitCamera camera;
  Renderer renderer;
  DrawList drawList;
  RateMeter rates;
  RealTimeMeter realTime;  // achieved % of real time ("running slower than real time" line)
  FramePhaseTimes frameCosts;  // this frame's cost by phase (the benchmark's report)
  bool finishPhases = false;   // benchmark: glFinish after the 3-D and the ImGui render, so each phase's
                               // time includes its rasterization
  double wallTime = 0.0;  // seconds since start (notices fade by it)
  bool hideUi = false;    // Tab
  bool hideScene = false; // smoke-test reference image: background only
  std::deque<Notice> notices;
  std::map<std::string, PlotView> plotViews;  // by plot title
  bool freezePlots = false;
  double frozenTime = 0.0;
  std::string recordPath = "varsim_inputs.csv";
  std::string replayPath = "varsim_inputs.csv";
  std::map<std::string, std::string> paramErrors;  // key → last rejection message
  ScenePanelState scenePanels;  // context, traces and errors of the scene's own panels (scene_panels.cpp)
  int calibratingControl = -1;
  AxisCalibrator calibrator;
  bool screenshotRequested = false;
  VideoRecording videoRecording;  // F9 / View > Record video (video_recording.h); stopped before the window closes
  // The 3-D view's rectangle (logical pixels): the window minus the docked panels, recomputed every
  // frame once the panels are laid out (the camera's mouse input uses the previous frame's).
  ScreenRect view;
  std::vector<ScreenRect> panelBoxes;  // this frame's shown panels (beginPanel records them)
  // Panels that lay wholly outside the view last frame: drawn without a window background, over
  // the renderer's clear in the same colour (a CPU rasterizer pays per blended panel pixel).
  std::map<std::string, bool> panelOutsideView;
  float menuBarHeight = 0.0f;          // this frame's main menu bar, 0 when hidden
  bool cameraDrag[3] = {false, false, false};  // per mouse button: pressed over the view
  // Default framing (render/subject_framing.h): due after a scene switch, a reset and "reset view"
  // (Home), and when the view's size changes while the user has not moved the camera since.
  bool reframeView = true;
  bool cameraMoved = false;
  float framedViewW = 0.0f, framedViewH = 0.0f;
  std::string panelLayoutFile;         // ImGui's ini (interactive runs only; io.IniFilename points here)
  StudyPanel study;                    // the "Integrator study" window (F4) and its worker thread
  std::string presetName;  // the scene preset file loaded (its stem, in the window title); "" for a scene's defaults
  bool sceneKeysOpen = false;  // Help > Keys of every scene (help_menu.cpp)
  bool openFileOpen = false;   // File > Open file... (file_menu.cpp)
  std::string openDir;         // the directory that window lists
  std::string openPath;        // its path entry
  PlanPanelState plan;  // the Plan panel (scenes with a plan problem): its worker, plan and Play (plan_panel.h)
  // The Autopilot (MPC) (ui/app/autopilot_ui.h): its worker re-plans; its input replaces the devices' while it flies.
  Autopilot autopilot;
  AutopilotInput autopilotInput{driver, autopilot, live};
  long autopilotSeenStep = -1;  // the driver's step at the last frame (a smaller one: reset or step back)

  // The physics worker (app_frame.h): while it runs a frame's steps, the main thread touches only
  // the draw list, camera, renderer and ImGui's draw data. Destroyed first (declared last): it
  // waits for the running steps before the driver they use goes away.
  bool physicsThread = false;
  int physicsSteps = 0;  // steps the worker ran in its last job
  // Frames drawn while the worker is still stepping and the camera moves (app_frame.cpp): the last
  // full frame's panels, whether the next frame must be a full one, wall time not yet given to steps.
  UiSnapshot uiSnapshot;
  bool freshFrameNeeded = false;
  double staleWallDt = 0.0;
  long staleFrames = 0;
  std::vector<Notice> deferredNotices;  // raised while the worker ran (notices are the UI's)
  // CPU rasterizers: the panels around the view are kept between redraws, at most panelRefreshHz times
  // a second (half that behind real time), and at once on input (ui_layer.h); 0 = every frame. GPUs
  // draw ImGui directly.
  bool useUiLayer = false;
  double panelRefreshHz = 0.0;
  double uiLayerDrawnAt = -1e9;  // app wall clock of the last redraw
  UiLayer::Refresh uiLayerRefresh = UiLayer::Refresh::All;  // this frame's decision (runAppFrame, before the worker starts)
  // VARSIM_PANEL_CHECK=1 (panel_redraw_check.h): every partial panel redraw is compared with a full redraw of
  // the same frame, every frame keeping the panels with the kept pixels before it; the bench report gives the
  // pixels that differed (0 expected).
  bool checkPartialRedraws = false;
  long partialChecks = 0, partialPixelsDiffering = 0, keptChecks = 0, keptPixelsChanged = 0;
  UiLayer uiLayer;
  std::uint64_t lastFrameSignature = 0;  // what the buffer holds (render/frame_signature.h)
  // This frame's draw list was built from a state steps advanced: it differs from the last frame's, so its
  // signature is not computed (hashing a 10 000-link ladder's 30 001 shapes cost ~1.5 ms of UI-thread CPU per frame).
  bool drawListAdvanced = false;
  long skippedFrames = 0;                // frames that drew nothing: the buffer already held them
  BackgroundJob physics;

  void notify(const std::string& text, bool error = false);
  // Loads a scene with its saved input mapping and resets camera/plots; false + notice on BadInput.
  bool loadScene(const std::string& name, const ParamSet& params);
  // After driver.load(): input mapping of the new scene, camera re-adopts its hint, errors cleared.
  void onSceneLoaded();
  // Rebuilds the scene (pending parameters applied), restarts the input ramps and frames the view;
  // a failure is a notice, the old state stays.
  void resetScene();
  // A scene preset file (assets/scenes/*.json or any scene file): loaded, named in the window title; a file that
  // cannot be read or is refused is an error notice naming file, key and value, and the running scene stays.
  bool loadPreset(const std::string& path);
  // "varsim — <scene title>" or "varsim — <preset> (<scene>)".
  void updateTitle();
  // View > Reset saved settings: speed, last scene, panels, plot window and input mappings back to their defaults
  // now, anti-aliasing from the next start (the window's size and place are kept); saved at exit like any change.
  void resetSavedSettings();
  // Follow / centre-on-subject camera (C key, View menu): render/camera.h setFollow; a notice when the
  // scene has nothing to follow.
  void setFollow(bool on);
  void saveSettings();
  // Interactive runs: ImGui keeps the panel layout in panelLayoutPath(settingsPath), so moved and
  // resized panels come back. Call before the first frame; smoke tests and benchmarks never do.
  void usePanelLayoutFile();
  // The view rectangle from this frame's panels (whole window with the UI hidden).
  void layoutView();
  // Physics on the worker (overlapping the frame's rendering) or on the UI thread (--sync-physics,
  // Simulation menu), with the matching step budget. Switching takes effect from the next frame's
  // steps (runAppFrame collects the worker's at every frame start).
  void setPhysicsThread(bool on);
  // Wall time per frame the steps may take before the rest wait for the next frame (SimDriver::frame):
  // on the worker they overlap the frame's rendering, so they get most of a 60 Hz frame; on the UI
  // thread they share the frame with the rendering.
  double physicsBudget() const { return physicsThread ? 0.8 / 60.0 : 0.5 / 60.0; }
};

}  // namespace varsim
