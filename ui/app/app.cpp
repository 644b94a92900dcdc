// runApp: command line → mode (interactive, smoke test, frame benchmark), display check, window,
// settings, scene, then the main loop. Exit codes: 0 ok, 1 no display/window/GL, 2 bad input.
#include "ui/app/app.h"

#include <imgui.h>

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <filesystem>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>

#include "engine/sim/errors.h"
#include "render/screenshot.h"
#include "scenes/scene_file.h"
#include "ui/app/app_frame.h"
#include "ui/app/clipped_text.h"
#include "ui/app/app_state.h"
#include "ui/app/autopilot_ui.h"
#include "ui/app/app_window.h"
#include "ui/app/panels.h"
#include "ui/core/app_options.h"
#include "ui/core/speed_ladder.h"

namespace varsim {

namespace {

using Clock = std::chrono::steady_clock;

// SIGINT/SIGTERM close the window like its close button, so settings and a recording are saved.
std::atomic<bool> quitRequested{false};
extern "C" void requestQuit(int) { quitRequested = true; }

bool haveDisplay() {
  const char* x = std::getenv("DISPLAY");
  const char* w = std::getenv("WAYLAND_DISPLAY");
  return (x && *x) || (w && *w);
}

// The scene to start with: `--scene NAME` (its defaults), `--scene FILE.json` (a scene file as `varsim run`
// takes it: scene and parameters, e.g. assets/scenes/ladder_whiplash_1000.json), else the last scene used,
// the tumbling body, the first registered one.
bool isSceneFile(const std::string& scene) {
  const std::string suffix = ".json";
  return scene.size() > suffix.size() && scene.compare(scene.size() - suffix.size(), suffix.size(), suffix) == 0;
}

SceneConfig initialScene(const AppOptions& o, const Settings& s) {
  if (isSceneFile(o.scene)) return loadSceneFile(o.scene);  // throws BadInput naming the file, key, value and range
  std::string name = o.scene;
  if (name.empty() && SceneRegistry::find(s.lastScene)) name = s.lastScene;
  if (name.empty() && SceneRegistry::find("tumbling_body")) name = "tumbling_body";
  if (name.empty() && !SceneRegistry::all().empty()) name = SceneRegistry::all().front().name;
  if (name.empty()) return {};
  return {name, SceneRegistry::defaults(name)};
}

// Loads the scene with --set overrides, then --replay / --record. Throws BadInput.
void startScene(AppState& app, const AppOptions& o) {
  SceneConfig config = initialScene(o, app.settings);
  if (config.scene.empty()) return;  // empty registry: the app still opens and says so in the scene panel
  for (const auto& [key, value] : o.sets) config.params.setFromString(key, value, "--set");
  app.driver.load(config.scene, config.params);  // throws BadInput naming the scene/parameter
  app.onSceneLoaded();
  if (isSceneFile(o.scene)) {
    app.presetName = std::filesystem::path(o.scene).stem().string();
    app.updateTitle();
  }
  if (!o.replayFile.empty()) {
    app.driver.startReplay(InputTrack::load(o.replayFile, app.driver.controls(), app.driver.h()));
    app.replayPath = o.replayFile;
    app.notify("replaying " + o.replayFile + " from step 0");
  }
  if (!o.recordFile.empty()) {
    app.recordPath = o.recordFile;
    app.driver.startRecording();
  }
}

void saveRecording(AppState& app) {
  if (!app.driver.recording()) return;
  try {
    app.driver.saveRecording(app.recordPath);
    std::fprintf(stderr, "varsim: inputs and edits of %ld steps saved to %s\n", app.driver.trackStep(),
                 app.recordPath.c_str());
  } catch (const BadInput& e) {
    std::fprintf(stderr, "varsim: error: %s\n", e.what());
  }
}

int runInteractive(AppState& app) {
  auto last = Clock::now();
  std::signal(SIGINT, requestQuit);
  std::signal(SIGTERM, requestQuit);
  while (!glfwWindowShouldClose(app.window) && !quitRequested) {
    glfwPollEvents();
    const auto now = Clock::now();
    const double wallDt = std::chrono::duration<double>(now - last).count();
    last = now;
    runAppFrame(app, wallDt);
    glfwSwapBuffers(app.window);
  }
  finishPhysics(app);
  saveRecording(app);
  int x = 0, y = 0;
  glfwGetWindowPos(app.window, &x, &y);
  glfwGetWindowSize(app.window, &app.settings.windowWidth, &app.settings.windowHeight);
  app.settings.windowX = x;
  app.settings.windowY = y;
  app.saveSettings();
  return 0;
}

// N frames at exactly 1/60 s of simulated wall time each (independent of how long they take), then
// a PNG of the last frame. The image is what the Xvfb smoke tests inspect.
int runSmokeTest(AppState& app, const AppOptions& o) {
  if (!o.switchFrom.empty()) {
    // What a user sees after picking the scene in the Scenes panel: another scene first, then the switch.
    const std::string target = app.driver.sceneName();
    const ParamSet params = app.driver.params();
    if (!app.loadScene(o.switchFrom, SceneRegistry::defaults(o.switchFrom))) return 2;
    for (int f = 0; f < 30; ++f) {
      glfwPollEvents();
      runAppFrame(app, 1.0 / 60.0);
      glfwSwapBuffers(app.window);
    }
    if (!app.loadScene(target, params)) return 2;
  }
  // The Autopilot waits for each re-plan here (synchronous): the run is the closed loop of `varsim mpc`.
  if (o.autopilot && !engageAutopilot(app, o.autopilotX, o.autopilotY, true)) return 2;
  for (int f = 0; f < o.frames; ++f) {
    glfwPollEvents();
    runAppFrame(app, 1.0 / 60.0);
    if (f + 1 == o.frames) {
      // Labels cut at a panel's edge at this window size (clipped_text.h); app_smoke_check fails on any.
      if (const ImDrawData* ui = ImGui::GetDrawData(); ui && !app.hideUi) {
        const ClippedText cut = findClippedText(*ui);
        std::fprintf(stderr, "varsim: clipped text: %ld glyphs%s%s\n", cut.glyphs, cut.windows.empty() ? "" : " in ",
                     cut.windows.c_str());
      }
      std::string error;
      int fbw = 0, fbh = 0;
      glfwGetFramebufferSize(app.window, &fbw, &fbh);
      if (!saveFramebufferPng(o.screenshot, fbw, fbh, error)) {
        std::fprintf(stderr, "varsim: screenshot failed: %s\n", error.c_str());
        return 1;
      }
    }
    glfwSwapBuffers(app.window);
  }
  saveRecording(app);
  if (o.autopilot) std::fprintf(stderr, "varsim: %s\n", autopilotReport(app).c_str());
  std::fprintf(stderr, "varsim: smoke test %s: %d frames, %ld steps, t=%.4g s, screenshot %s%s\n",
               app.driver.sceneName().c_str(), o.frames, app.driver.step(), app.driver.scene().time(),
               o.screenshot.c_str(), app.driver.diverged() ? (" (" + app.driver.divergedMessage() + ")").c_str() : "");
  return 0;
}

// Frames paced to 60 FPS for `seconds` of wall time with real wall-clock physics; reports frame
// intervals and per-frame work (physics + UI + render, to glFinish) and missed physics ticks.
int runBench(AppState& app, const AppOptions& o) {
  FrameTimeLog log;
  FramePhaseLog phases;
  app.finishPhases = true;
  const double period = 1.0 / 60.0;
  const auto start = Clock::now();
  auto frameStart = start, deadline = start;
  const long steps0 = app.driver.totalSteps();
  double renderMs = 0.0;
  while (std::chrono::duration<double>(Clock::now() - start).count() < o.benchSeconds &&
         !glfwWindowShouldClose(app.window)) {
    const auto now = Clock::now();
    const double wallDt = std::chrono::duration<double>(now - frameStart).count();
    frameStart = now;
    const double cpu0 = processCpuSeconds();
    glfwPollEvents();
    runAppFrame(app, wallDt);
    renderMs += app.renderer.stats().cpuMs;
    PhaseClock present;
    glfwSwapBuffers(app.window);
    glFinish();
    app.frameCosts.add(FramePhase::Present, present.lap());
    app.frameCosts.processCpuMs = 1e3 * (processCpuSeconds() - cpu0);
    const double work = std::chrono::duration<double, std::milli>(Clock::now() - frameStart).count();
    if (log.count() > 0 || wallDt > 0) {
      log.add(wallDt * 1000.0, work);
      phases.add(app.frameCosts);
    }
    deadline += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(period));
    if (deadline < Clock::now()) deadline = Clock::now();  // late: do not try to catch up with bursts
    std::this_thread::sleep_until(deadline);
  }
  finishPhysics(app);
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  const long steps = app.driver.totalSteps() - steps0;
  int fbw = 0, fbh = 0;
  glfwGetFramebufferSize(app.window, &fbw, &fbh);
  std::printf("varsim --bench-frames: scene %s, framebuffer %dx%d, h = %.6g s, renderer: %s\n",
              app.driver.sceneName().c_str(), fbw, fbh, app.driver.h(),
              reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  const ImDrawData* ui = ImGui::GetDrawData();
  std::printf("renderer CPU time per frame (mean): %.2f ms, last frame %d draw calls, %d triangles, MSAA %dx, UI %s "
              "(ImGui: %d triangles)\n",
              log.count() ? renderMs / double(log.count()) : 0.0, app.renderer.stats().drawCalls,
              app.renderer.stats().triangles, app.renderer.stats().msaaSamples, app.hideUi ? "hidden" : "shown",
              ui ? ui->TotalIdxCount / 3 : 0);
  std::printf("%s", log.report(steps, app.driver.missedTicks(), wall, app.driver.h()).c_str());
  std::printf("physics: %s, step budget %.1f ms per frame; simulated %.3f s in %.3f s wall: %.1f %% of real time\n",
              app.physicsThread ? "worker thread (overlaps render and present)" : "UI thread",
              1e3 * app.physicsBudget(),
              double(steps) * app.driver.h(), wall, 100.0 * double(steps) * app.driver.h() / wall);
  std::printf("%s", phases.report().c_str());
  if (app.useUiLayer)
    std::printf("panels around the view: redrawn in %ld of %ld frames, one of %d sets in %ld more (each set at most "
                "%.0f Hz, all on input); frames skipped (nothing changed): %ld\n",
                app.uiLayer.redraws(), app.uiLayer.frames(), UiLayer::kSets, app.uiLayer.partialRedraws(),
                app.panelRefreshHz, app.skippedFrames);
  if (app.checkPartialRedraws)
    std::printf("partial panel redraws checked against full redraws: %ld frames, %ld pixels differed; frames keeping "
                "the panels checked: %ld, kept pixels changed: %ld\n",
                app.partialChecks, app.partialPixelsDiffering, app.keptChecks, app.keptPixelsChanged);
  if (app.staleFrames > 0)
    std::printf("frames drawn from the last state while a step ran (camera moving): %ld\n", app.staleFrames);
  // A diverged run stops stepping: its step count says nothing about speed (the director ladder
  // N = 1000 diverges at t = 7.6 s, which made 456 steps in 15 s look like half speed).
  if (app.driver.diverged()) std::printf("SIMULATION STOPPED: %s\n", app.driver.divergedMessage().c_str());
  return 0;
}

}  // namespace

int runApp(const std::vector<std::string>& args) {
  AppOptions options;
  try {
    options = parseAppOptions(args);
  } catch (const BadInput& e) {
    std::fprintf(stderr, "varsim: error: %s\n%s", e.what(), appUsage());
    return 2;
  }
  if (options.mode == AppOptions::Mode::Help) {
    std::printf("%s", appUsage());
    return 0;
  }
  if (!haveDisplay()) {
    std::fprintf(stderr, "varsim: no display (DISPLAY is not set): run headless with 'varsim run SCENE ...' "
                         "or under a virtual display: xvfb-run -a varsim %s\n",
                 args.empty() ? "" : args[0].c_str());
    return 1;
  }
  const bool interactive = options.mode == AppOptions::Mode::Interactive;
  auto app = std::make_unique<AppState>();
  // Smoke tests and benchmarks neither read nor write the user's settings or panel layout.
  app->settingsPath = defaultSettingsPath();
  if (interactive) {
    std::vector<std::string> warnings;
    app->settings = loadSettings(app->settingsPath, warnings);
    for (const auto& w : warnings) app->notify(w, true);
  }
  const std::string savedLastScene = app->settings.lastScene;  // before the start overwrites it
  app->hideScene = options.hideScene;
  app->hideUi = options.hideUi;
  if (options.mode == AppOptions::Mode::Bench && options.scene.empty() && SceneRegistry::find("tumbling_body"))
    options.scene = "tumbling_body";

  if (!glfwInit()) {
    std::fprintf(stderr, "varsim: cannot initialise GLFW (%s); run headless with 'varsim run SCENE ...' or "
                         "under xvfb-run\n", lastGlfwError().c_str());
    return 1;
  }
  AppWindowConfig wc;
  if (interactive) {
    wc.width = app->settings.windowWidth;
    wc.height = app->settings.windowHeight;
    wc.x = app->settings.windowX;
    wc.y = app->settings.windowY;
  }
  wc.vsync = options.mode == AppOptions::Mode::Interactive;
  std::string error;
  app->window = openAppWindow(wc, error);
  if (!app->window) {
    std::fprintf(stderr, "varsim: %s\n", error.c_str());
    glfwTerminate();
    return 1;
  }
  if (interactive) app->usePanelLayoutFile();
  int code = 0;
  if (!app->renderer.init(error)) {
    std::fprintf(stderr, "varsim: renderer: %s\n", error.c_str());
    code = 1;
  } else {
    // Around the view lie the docked panels, drawn without their own background (panels_scene.cpp).
    const ImVec4 panelColor = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    app->renderer.style.outsideColor = {panelColor.x, panelColor.y, panelColor.z};
    // CPU rasterizers keep the panels between redraws, 20 a second (10 behind real time) and on input
    // (ui_layer.h); smoke tests redraw every frame. VARSIM_PANEL_HZ overrides the rate (0: every frame;
    // negative: ImGui drawn directly every frame, the path GPUs take, for comparison).
    app->useUiLayer = app->renderer.softwareRasterizer() && backBufferSurvivesSwap(app->window);
    app->panelRefreshHz = options.mode == AppOptions::Mode::SmokeTest ? 0.0 : 20.0;
    if (const char* hz = std::getenv("VARSIM_PANEL_HZ"); hz && *hz) {
      app->panelRefreshHz = std::atof(hz);
      if (app->panelRefreshHz < 0.0) app->useUiLayer = false;
    }
    if (const char* check = std::getenv("VARSIM_PANEL_CHECK"); check && std::string(check) == "1")
      app->checkPartialRedraws = true;
    // Default: 4x on GPUs, off on CPU rasterizers (renderer.init); the user's choice in the View
    // menu (settings file, interactive runs) replaces it; VARSIM_MSAA overrides all of them.
    if (interactive && app->settings.msaaSamples != Settings::kMsaaAutomatic)
      app->renderer.style.msaaSamples = app->settings.msaaSamples;
    if (const char* msaa = std::getenv("VARSIM_MSAA"); msaa && *msaa) app->renderer.style.msaaSamples = std::atoi(msaa);
    app->gamepad.init();
    const std::string mappings = options.gamepadMappings.empty() ? app->settings.gamepadMappingsFile : options.gamepadMappings;
    if (!mappings.empty()) {
      std::string message;
      const bool ok = app->gamepad.loadMappings(mappings, message);
      app->notify(message, !ok);
      if (ok && !options.gamepadMappings.empty()) app->settings.gamepadMappingsFile = options.gamepadMappings;
    }
    app->driver.setSpeed(interactive ? clampSpeed(app->settings.speed) : 1.0);
    // Smoke tests run every granted step on the UI thread (their images depend on nothing else).
    if (options.mode != AppOptions::Mode::SmokeTest) app->setPhysicsThread(!options.syncPhysics);
    // Scene panels sample their traces after every physics step (also with the panels hidden).
    app->driver.afterStep = [state = app.get()](long, const Scene& scene) {
      followScenePanels(*state);
      state->scenePanels.afterStep(scene);
      planAfterStep(*state);
      state->videoRecording.afterStep(state->driver);
    };
    try {
      startScene(*app, options);
      if (std::string error; !options.videoFile.empty() && !app->videoRecording.start(options.videoFile, app->driver, error))
        throw BadInput(error);  // "video 'PATH': why"
      // What the settings file changed is said once (interactive starts; tests never read the file).
      if (interactive) {
        Settings restored = app->settings;
        restored.speed = app->driver.speed();
        restored.lastScene = savedLastScene;
        const std::string note = restoredSettingsNote(restored, options.scene.empty() && app->driver.loaded() &&
                                                                    app->driver.sceneName() == savedLastScene);
        if (!note.empty()) app->notify(note);
      }
      if (options.mode == AppOptions::Mode::SmokeTest) code = runSmokeTest(*app, options);
      else if (options.mode == AppOptions::Mode::Bench) code = runBench(*app, options);
      else code = runInteractive(*app);
    } catch (const BadInput& e) {
      std::fprintf(stderr, "varsim: error: %s\n", e.what());
      code = 2;
    }
    // The recording's last frames and GL objects, while the window's context is still current.
    finishPhysics(*app);
    if (std::string summary; !endVideoRecording(*app, summary)) {
      std::fprintf(stderr, "varsim: error: %s\n", summary.c_str());
      code = 2;
    } else if (!summary.empty()) {
      std::fprintf(stderr, "varsim: %s\n", summary.c_str());
    }
    app->renderer.shutdown();
  }
  closeAppWindow(app->window);
  app.reset();
  glfwTerminate();
  return code;
}

}  // namespace varsim
