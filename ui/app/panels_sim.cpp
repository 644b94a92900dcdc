// Simulation controls: run/pause/step/back/reset, h (the scene's `dt` parameter), speed (log-spaced,
// as % real time), achieved rates, the history slider, input recording and replay, divergence.
#include <imgui.h>

#include <cmath>

#include "engine/sim/errors.h"
#include "ui/app/app_state.h"
#include "ui/app/panels.h"
#include "ui/core/speed_ladder.h"

namespace varsim {

namespace {

void drawRecordReplay(AppState& app) {
  SimDriver& d = app.driver;
  char path[512];
  if (d.recording()) {
    ImGui::TextColored(ImVec4(1, 0.35f, 0.35f, 1), "recording inputs and edits (%zu events)",
                       d.recordedEvents().size());
    std::snprintf(path, sizeof path, "%s", app.recordPath.c_str());
    if (ImGui::InputText("file##rec", path, sizeof path)) app.recordPath = path;
    if (ImGui::Button("Stop and save")) {
      d.stopRecording();
      try {
        d.saveRecording(app.recordPath);
        app.notify("inputs and edits saved to " + app.recordPath + " (replay: varsim --replay " + app.recordPath + ")");
      } catch (const BadInput& e) {
        app.notify(e.what(), true);
      }
    }
  } else {
    if (ImGui::Button("Record from reset")) {
      app.resetScene();
      d.startRecording();
    }
    std::snprintf(path, sizeof path, "%s", app.recordPath.c_str());
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::InputText("##record", path, sizeof path)) app.recordPath = path;
  }
  if (d.replaying()) {
    const bool done = d.replay()->finished(d.trackStep());
    ImGui::TextColored(ImVec4(0.4f, 0.8f, 1, 1), done ? "replay done (holding last row)" : "replaying (%zu events)",
                       d.replay()->track().events().size());
    if (ImGui::Button("Stop replay (live input)")) d.stopReplay();
  } else {
    std::snprintf(path, sizeof path, "%s", app.replayPath.c_str());
    if (ImGui::Button("Replay file")) {
      try {
        d.startReplay(InputTrack::load(app.replayPath, d.controls(), d.h()));
        app.notify("replaying " + app.replayPath + " from step 0");
      } catch (const BadInput& e) {
        app.notify(e.what(), true);
      }
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::InputText("##replay", path, sizeof path)) app.replayPath = path;
  }
}

}  // namespace

void drawSimulationPanel(AppState& app) {
  SimDriver& d = app.driver;
  if (!d.loaded()) return;
  if (!beginPanel(app, "Simulation", "Simulation", &app.settings.panels.simulation)) return;
  if (ImGui::Button(d.paused() ? "Run (Space)" : "Pause (Space)", ImVec2(110, 0))) d.setPaused(!d.paused());
  ImGui::SameLine();
  if (ImGui::Button("<- Back")) d.stepBack();
  ImGui::SameLine();
  if (ImGui::Button("Step ->")) { d.setPaused(true); d.stepOnce(); }
  ImGui::SameLine();
  if (ImGui::Button("Reset")) app.resetScene();

  ImGui::Text("t = %.4f s   step %ld", d.scene().time(), d.step());
  ImGui::PushItemWidth(-110.0f);
  if (const ParamSpec* dt = d.params().spec("dt")) drawParamWidget(app, *dt);

  // Speed: a log slider over x0.1 … x4, shown as % of real time; +/- step through the presets.
  double speed = d.speed();
  const double lo = kSpeedLadder.front(), hi = kSpeedLadder.back();
  char fmt[48];
  std::snprintf(fmt, sizeof fmt, "%.0f%%%% real time", speed * 100.0);
  if (ImGui::SliderScalar("speed", ImGuiDataType_Double, &speed, &lo, &hi, fmt, ImGuiSliderFlags_Logarithmic))
    d.setSpeed(speed);
  ImGui::PopItemWidth();
  ImGui::SameLine();
  if (ImGui::SmallButton("-")) d.setSpeed(slowerSpeed(d.speed()));
  ImGui::SameLine();
  if (ImGui::SmallButton("+")) d.setSpeed(fasterSpeed(d.speed()));

  const double h = d.h();
  ImGui::Text("physics %.1f Hz (target %.1f)  FPS %.0f", app.rates.physicsHz(), d.paused() ? 0.0 : d.speed() / h,
              app.rates.fps());
  ImGui::Text("step cost %.1f us   missed ticks %ld", app.rates.stepMicros(), d.missedTicks());
  if (app.realTime.behind())
    ImGui::TextColored(ImVec4(1, 0.45f, 0.3f, 1), "running slower than real time (%.0f %%)", 100.0 * app.realTime.factor());

  // History: the slider scrubs the stored past; resuming continues from the shown state.
  const HistoryRing& hist = d.history();
  if (hist.size() > 1) {
    int cursor = int(d.historyCursor());
    char label[64];
    std::snprintf(label, sizeof label, "step %ld", hist.at(size_t(cursor)).step);
    ImGui::SetNextItemWidth(-110.0f);
    if (ImGui::SliderInt("history", &cursor, 0, int(hist.size()) - 1, label)) d.scrubTo(size_t(cursor));
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%zu stored states (up to %zu): drag to scrub, Run resumes from here", hist.size(),
                        hist.effectiveCapacity(hist.stateSize()));
  }
  if (!d.atPresent()) ImGui::TextColored(ImVec4(0.6f, 0.8f, 1, 1), "viewing the past: Run or Step rewrites the future");

  ImGui::Separator();
  drawRecordReplay(app);
  if (d.diverged()) {
    ImGui::Separator();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", d.divergedMessage().c_str());
    ImGui::PopTextWrapPos();
    if (ImGui::Button("Reset (Backspace)")) app.resetScene();
    ImGui::SameLine();
    ImGui::TextDisabled("or step back with , (comma)");
  }
  ImGui::End();
}

}  // namespace varsim
