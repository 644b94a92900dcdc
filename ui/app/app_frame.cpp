// The per-frame sequence; see header.
#include "ui/app/app_frame.h"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cstdio>

#include "render/screenshot.h"
#include "ui/app/app_state.h"
#include "ui/app/keyboard.h"
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

void takeScreenshot(AppState& app, int fbw, int fbh) {
  app.screenshotRequested = false;
  char path[256];
  std::snprintf(path, sizeof path, "varsim_%s_step%ld.png", app.driver.loaded() ? app.driver.sceneName().c_str() : "empty",
                app.driver.step());
  std::string error;
  if (saveFramebufferPng(path, fbw, fbh, error)) app.notify(std::string("screenshot saved: ") + path);
  else app.notify("screenshot failed: " + error, true);
}

}  // namespace

int runAppFrame(AppState& app, double wallDt) {
  app.wallTime += wallDt;
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  pollDevices(app);

  handleShortcuts(app);
  app.panelBoxes.clear();
  app.menuBarHeight = 0.0f;
  int steps = 0;
  if (app.driver.loaded()) {
    handleCameraMouse(app);
    steps = app.driver.frame(wallDt);
    for (const auto& m : app.driver.takeNotices()) app.notify(m, true);
    app.rates.update(wallDt, steps, app.driver.lastStepMicros());
    buildDrawList(app);
    app.camera.update(app.drawList.camera, float(wallDt));
  }

  if (!app.hideUi) {
    drawMainMenu(app);
    if (app.settings.panels.scenes) drawScenePanel(app);
    if (app.settings.panels.simulation) drawSimulationPanel(app);
    if (app.settings.panels.parameters) drawParametersPanel(app);
    if (app.settings.panels.plots) drawPlotsPanel(app);
    if (app.settings.panels.input) drawInputPanel(app);
    drawScenePanels(app);
  }
  app.layoutView();
  if (!app.hideUi) drawSceneViewMarks(app);
  if (app.settings.panels.help) drawHelpOverlay(app);
  drawOverlays(app);
  ImGui::Render();

  int fbw = 0, fbh = 0;
  glfwGetFramebufferSize(app.window, &fbw, &fbh);
  if (fbw > 0 && fbh > 0) {  // minimized windows have a 0x0 framebuffer
    glViewport(0, 0, fbw, fbh);
    const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;  // HiDPI: framebuffer / window pixels
    const PixelRect px = toFramebufferPixels(app.view, scale.x, scale.y, fbw, fbh);
    const ViewRect view{px.x, px.y, px.width, px.height};
    if (app.hideScene) {
      // Smoke-test reference: the same frame without the scene's geometry (camera and HUD kept).
      DrawList background;
      background.camera = app.drawList.camera;
      app.renderer.render(background, app.camera, view, fbw, fbh);
    } else {
      app.renderer.render(app.drawList, app.camera, view, fbw, fbh);
    }
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (app.screenshotRequested) takeScreenshot(app, fbw, fbh);
  }
  return steps;
}

}  // namespace varsim
