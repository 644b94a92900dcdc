// The per-frame sequence; see header.
#include "ui/app/app_frame.h"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "render/frame_signature.h"
#include "render/screenshot.h"
#include "render/subject_framing.h"
#include "ui/app/app_state.h"
#include "ui/app/autopilot_ui.h"
#include "ui/app/keyboard.h"
#include "ui/app/panel_redraw_check.h"
#include "ui/app/panels.h"

namespace varsim {

namespace {

void pollDevices(AppState& app) {
  const GamepadSnapshot pad = app.gamepad.poll();
  const KeyboardSnapshot keys = pollControlKeys(app.window, app.live.bindings(), ImGui::GetIO().WantTextInput);
  app.live.setDevices(pad, keys);
  for (const auto& m : app.gamepad.takeMessages()) app.notify(m);
  for (const auto& m : app.live.takeNotices()) app.notify(m, m.find("disconnected") != std::string::npos);
}

void buildDrawList(AppState& app) {
  app.drawList.clear();
  try {
    app.driver.scene().draw(app.drawList);
  } catch (const std::exception& e) {
    app.drawList.clear();
    app.notify(std::string("scene draw failed: ") + e.what(), true);
  }
}

// Runs while the physics worker may be stepping: the notice waits for the next frame.
void takeScreenshot(AppState& app, const std::string& path, int fbw, int fbh) {
  app.screenshotRequested = false;
  std::string error;
  if (saveFramebufferPng(path, fbw, fbh, error)) app.deferredNotices.push_back({"screenshot saved: " + path, 0.0, false});
  else app.deferredNotices.push_back({"screenshot failed: " + error, 0.0, true});
}

std::string screenshotPath(const AppState& app) {
  char path[256];
  std::snprintf(path, sizeof path, "varsim_%s_step%ld.png", app.driver.loaded() ? app.driver.sceneName().c_str() : "empty",
                app.driver.step());
  return path;
}

// Input the panels may answer this frame: a hover highlight or a typed character shows at once. A
// camera drag or zoom over the 3-D view (ImGui does not want the mouse) changes no panel.
bool uiInputThisFrame() {
  const ImGuiIO& io = ImGui::GetIO();
  const bool moved = io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f || io.MouseWheel != 0.0f || io.MouseWheelH != 0.0f;
  for (int b = 0; b < IM_ARRAYSIZE(io.MouseDown); ++b)
    if (io.MouseClicked[b] || io.MouseReleased[b] || (io.WantCaptureMouse && io.MouseDown[b])) return true;
  if (moved && io.WantCaptureMouse) return true;
  if (!io.InputQueueCharacters.empty()) return true;
  for (int k = 0; k < IM_ARRAYSIZE(io.KeysDown); ++k)
    if (io.KeysDown[k] || ImGui::IsKeyReleased(k)) return true;
  return false;
}

// Whether this frame redraws the panel layer: all of it on input, while a widget is active or a popup
// open, and for screenshots (which show the frame's own panels); a timed refresh at the capped rate for
// each set of panels (ui_layer.h: one set per refresh, in turn).
UiLayer::Refresh uiLayerRefreshDue(const AppState& app) {
  if (app.panelRefreshHz <= 0.0 || app.screenshotRequested || uiInputThisFrame() || ImGui::IsAnyItemActive() ||
      ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel))
    return UiLayer::Refresh::All;
  // Behind real time the panels redraw half as often: their CPU goes to the steps.
  const double hz = (app.realTime.behind() ? 0.5 * app.panelRefreshHz : app.panelRefreshHz) * app.uiLayer.setsPerCycle();
  return app.wallTime - app.uiLayerDrawnAt >= 1.0 / hz ? UiLayer::Refresh::Timed : UiLayer::Refresh::None;
}

// Everything a frame between panel redraws draws: the 3-D view's list, camera and rectangle, and the
// ImGui windows drawn over it.
std::uint64_t frameSignature(const AppState& app, const PixelRect& px, const ImDrawData& ui) {
  render::FrameSignature s;
  if (!app.hideScene) render::addDrawList(s, app.drawList);
  s.addValue(app.camera.view());
  s.addValue(app.camera.projection(float(px.width) / float(std::max(px.height, 1))));
  s.addValue(px);
  s.addValue(app.renderer.style.msaaSamples);
  app.uiLayer.addLive(s, ui);
  return s.value();
}

// A partial redraw (ui_layer.h) of this frame's draw data, checked with VARSIM_PANEL_CHECK.
void drawPanelSet(AppState& app, int set, const ViewRect& view, int fbw, int fbh) {
  const glm::vec3& c = app.renderer.style.outsideColor;
  const float ground[3] = {c.r, c.g, c.b};
  app.uiLayer.drawSet(*ImGui::GetDrawData(), set, ground);
  if (app.checkPartialRedraws && !app.hideScene) checkPartialRedraw(app, view, fbw, fbh);
}

// The 3-D view from app.drawList, then the UI (this frame's ImGui draw data, or the last full
// frame's copy); only the draw list, camera, renderer and draw data: the worker may be stepping.
void renderFrame(AppState& app, PhaseClock& phase, const std::string& shotPath, bool snapshotUi) {
  int fbw = 0, fbh = 0;
  glfwGetFramebufferSize(app.window, &fbw, &fbh);
  if (fbw <= 0 || fbh <= 0) return;  // minimized windows have a 0x0 framebuffer
  glViewport(0, 0, fbw, fbh);
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;  // HiDPI: framebuffer / window pixels
  PixelRect px = toFramebufferPixels(app.view, scale.x, scale.y, fbw, fbh);
  // Panels kept from the last redraw (ui_layer.h): only the view and the windows over it are drawn.
  // Frames from the snapshot (camera moving during a slow step) change no panel: no redraw wanted.
  const ImDrawData* ui = snapshotUi ? app.uiSnapshot.data() : ImGui::GetDrawData();
  UiLayer::Plan layer;
  if (app.useUiLayer && ui) {
    layer = app.uiLayer.plan(*ui, px, snapshotUi ? UiLayer::Refresh::None : app.uiLayerRefresh);
    px = layer.view;
  }
  // A frame between redraws that would draw what the buffer holds (paused, camera still) is skipped.
  bool skip = false;
  if (app.useUiLayer && ui) {
    // After steps the frame is new (0: no signature, the next frame's never equals it).
    const std::uint64_t signature = app.drawListAdvanced ? 0 : frameSignature(app, px, *ui);
    skip = signature != 0 && !layer.redrawAll && layer.set < 0 && signature == app.lastFrameSignature;
    app.lastFrameSignature = signature;
  }
  app.renderer.style.clearOutsideView = layer.redrawAll;
  const ViewRect view{px.x, px.y, px.width, px.height};
  // VARSIM_PANEL_CHECK: a frame that keeps the panels must leave their pixels as they are.
  const bool checkKept = app.checkPartialRedraws && ui && !skip && !layer.redrawAll && layer.set < 0;
  std::vector<PixelRect> kept;
  std::vector<unsigned char> keptBefore;
  if (checkKept) {
    kept = app.uiLayer.keptRegions();
    keptBefore = readBackRegions(kept, fbh);
  }
  if (skip) {
    app.renderer.skipFrame();
    ++app.skippedFrames;
  } else if (app.hideScene) {
    // Smoke-test reference: the same frame without the scene's geometry (camera and HUD kept).
    DrawList background;
    background.camera = app.drawList.camera;
    app.renderer.render(background, app.camera, view, fbw, fbh);
  } else {
    app.renderer.render(app.drawList, app.camera, view, fbw, fbh);
  }
  if (app.finishPhases) glFinish();
  app.frameCosts.add(FramePhase::Render, phase.lap());
  if (!skip) {
    if (ui && !layer.redrawAll) {
      app.uiLayer.drawLive(*ui);
      if (layer.set >= 0) drawPanelSet(app, layer.set, view, fbw, fbh);
      if (checkKept) checkKeptFrame(app, kept, keptBefore, fbh);
    } else if (snapshotUi) {
      app.uiSnapshot.render();
    } else {
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    }
  }
  if (app.finishPhases) glFinish();
  if (!shotPath.empty()) takeScreenshot(app, shotPath, fbw, fbh);
  if (!snapshotUi) app.study.writePendingPng(fbw, fbh, scale.x, scale.y);
  app.frameCosts.add(FramePhase::UiRender, phase.lap());
}

// The scene's default view (render/subject_framing.h) when one is due: after a switch, a reset or
// "reset view", and on a resized view unless the user moved the camera since the last framing.
void frameViewIfDue(AppState& app) {
  const bool resized = app.view.w != app.framedViewW || app.view.h != app.framedViewH;
  if (!app.reframeView && !(resized && !app.cameraMoved)) return;
  if (!(app.view.w > 0.0f && app.view.h > 0.0f)) return;
  frameSubject(app.camera, app.drawList, app.view.w / app.view.h);
  app.reframeView = app.cameraMoved = false;
  app.framedViewW = app.view.w, app.framedViewH = app.view.h;
}

// A camera drag or wheel over the view while the worker is still inside the last frame's steps.
bool staleFrameWanted(const AppState& app) {
  if (!app.physicsThread || app.freshFrameNeeded || app.uiSnapshot.empty() || !app.physics.running()) return false;
  const ImGuiIO& io = ImGui::GetIO();
  for (int b = 0; b < 3; ++b)
    if (app.cameraDrag[b] && ImGui::IsMouseDown(b)) return true;
  return io.MouseWheel != 0.0f && app.view.contains(io.MousePos.x, io.MousePos.y);
}

// A frame that leaves the driver to the worker: the 3-D view again from the last draw list with the
// camera moved, under the last full frame's panels. Inputs, shortcuts and panels wait for the next
// full frame, whose steps also get this frame's wall time (the trajectory does not change).
void runStaleFrame(AppState& app, double wallDt, PhaseClock& phase) {
  app.wallTime += wallDt;
  app.staleWallDt += wallDt;
  ++app.staleFrames;
  handleCameraMouse(app);
  app.camera.update(app.drawList.camera, float(wallDt));
  // The worker writes the driver's step cost and paused/diverged flags: none is read here (no step is
  // counted, so the step cost is not used; the worker was running when this frame began).
  app.rates.update(wallDt, 0, 0.0);
  app.realTime.update(wallDt, 0.0, app.driver.speed(), true);
  app.drawListAdvanced = false;  // the last frame's list, under a moved camera
  ImGui::Render();  // no windows this frame: the panels come from the snapshot
  app.frameCosts.add(FramePhase::OtherUi, phase.lap());
  renderFrame(app, phase, std::string(), true);
}

}  // namespace

int finishPhysics(AppState& app) {
  try {
    app.physics.wait();
  } catch (const std::exception& e) {
    // The driver catches divergence and bad replay events itself; anything else the job threw (a scene
    // panel's sampling, memory) is shown like a failed draw, and the simulation pauses.
    app.notify(std::string("physics step failed: ") + e.what(), true);
    app.driver.setPaused(true);
  }
  const int steps = app.physicsSteps;
  app.physicsSteps = 0;
  return steps;
}

int runAppFrame(AppState& app, double wallDt) {
  PhaseClock phase;
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  const PhaseCost newFrame = phase.lap();
  app.frameCosts = FramePhaseTimes{};
  if (staleFrameWanted(app)) {
    app.frameCosts.add(FramePhase::OtherUi, newFrame);
    runStaleFrame(app, wallDt, phase);
    return 0;
  }
  int steps = finishPhysics(app);
  phase.lap();  // waiting for the worker belongs to no phase (the frame's work time shows it)
  app.frameCosts = app.driver.takeCosts();
  app.frameCosts.add(FramePhase::OtherUi, newFrame);
  for (const Notice& n : app.deferredNotices) app.notify(n.text, n.error);
  app.deferredNotices.clear();
  app.wallTime += wallDt;
  pollDevices(app);

  handleShortcuts(app);
  app.panelBoxes.clear();
  app.menuBarHeight = 0.0f;
  const bool threaded = app.physicsThread;
  app.drawListAdvanced = false;
  if (app.driver.loaded()) {
    handleCameraMouse(app);
    planBeforeStep(app);  // a finished solve; a touched control takes over from a played plan
    autopilotBeforeStep(app);  // goal keys; a touched control, reset or step back ends the autopilot
    if (!threaded) {
      app.frameCosts.add(FramePhase::OtherUi, phase.lap());
      steps = app.driver.frame(wallDt);
      app.frameCosts.add(app.driver.takeCosts());
      phase.lap();
    }
    for (const auto& m : app.driver.takeNotices()) app.notify(m, true);
    showScenePanelNotice(app);
    app.rates.update(wallDt, steps, app.driver.lastStepMicros());
    app.realTime.update(wallDt, steps * app.driver.h(), app.driver.speed(),
                        !app.driver.paused() && !app.driver.diverged());
    app.frameCosts.add(FramePhase::OtherUi, phase.lap());
    flushVideoRecording(app);  // the frames this frame's steps produced (video_recording.h)
    app.drawListAdvanced = steps > 0;
    buildDrawList(app);
    addPlanDrawing(app);
    addAutopilotDrawing(app);
    app.frameCosts.add(FramePhase::DrawList, phase.lap());
    app.camera.update(app.drawList.camera, float(wallDt));
    frameViewIfDue(app);
  }

  app.plan.shown = false;  // until the Plan tab or window draws this frame (addPlanDrawing reads last frame's)
  if (!app.hideUi) {
    drawMainMenu(app);
    if (app.settings.panels.scenes) drawScenePanel(app);
    if (app.settings.panels.simulation) drawSimulationPanel(app);
    if (app.settings.panels.parameters) drawParametersPanel(app);
    app.frameCosts.add(FramePhase::OtherUi, phase.lap());
    if (app.settings.panels.plots) drawPlotsPanel(app);
    app.frameCosts.add(FramePhase::Plots, phase.lap());
    if (app.settings.panels.input) drawInputPanel(app);
    app.frameCosts.add(FramePhase::OtherUi, phase.lap());
    drawScenePanels(app);
    drawPlanPanel(app);
    app.frameCosts.add(FramePhase::ScenePanels, phase.lap());
    app.study.draw();
    drawOpenFileWindow(app);
    drawSceneKeysWindow(app);
    app.frameCosts.add(FramePhase::OtherUi, phase.lap());
  }
  app.layoutView();
  // Marks and labels of the 3-D view (background list) stay inside it: the panels around the view
  // may come from a layer drawn before it (ui_layer.h).
  ImGui::GetBackgroundDrawList()->PushClipRect(ImVec2(app.view.x, app.view.y),
                                               ImVec2(app.view.x + app.view.w, app.view.y + app.view.h), true);
  if (!app.hideUi) {
    drawSceneViewMarks(app);
    handlePlanGoalClick(app);
    handleAutopilotGoalDrag(app);
  }
  if (app.settings.panels.help) drawHelpOverlay(app);
  drawOverlays(app);
  ImGui::GetBackgroundDrawList()->PopClipRect();
  ImGui::Render();
  app.uiLayerRefresh = uiLayerRefreshDue(app);
  if (app.uiLayerRefresh != UiLayer::Refresh::None) app.uiLayerDrawnAt = app.wallTime;
  const std::string shotPath = app.screenshotRequested ? screenshotPath(app) : std::string();
  if (threaded) {
    // For frames that may go on without the panels (staleFrameWanted): never while a widget is being
    // dragged or a popup is open (ImGui drops what a frame does not submit), nor for a screenshot.
    app.uiSnapshot.capture(*ImGui::GetDrawData());
    app.freshFrameNeeded = ImGui::IsAnyItemActive() || app.screenshotRequested ||
                           ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
  }
  app.frameCosts.add(FramePhase::OtherUi, phase.lap());

  // From here on the worker may be stepping: only the draw list, camera, renderer and draw data.
  // This frame's steps (and those of the frames drawn without panels since the last full frame) run
  // on the worker; finishPhysics collects them at the next full frame's start.
  if (threaded && app.driver.loaded()) {
    const double dt = wallDt + app.staleWallDt;
    app.staleWallDt = 0.0;
    app.physics.start([&app, dt] { app.physicsSteps = app.driver.frame(dt); });
  }
  renderFrame(app, phase, shotPath, false);
  return steps;
}

}  // namespace varsim
