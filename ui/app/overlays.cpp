// Overlays on the 3-D view, placed in its rectangle (app.view): the scene's HUD lines under an app
// line (hidden with the panels by Tab), world labels projected by the renderer, the notice area
// (a corner stack of the newest three; errors fade after 30 s, others after 8 s; always shown) and the F1 help.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "ui/app/app_state.h"
#include "ui/app/autopilot_ui.h"
#include "ui/app/panels.h"

namespace varsim {

namespace {

const ImGuiWindowFlags kOverlayFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                       ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                       ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;

constexpr float kMargin = 8.0f;  // px between the view's edge and an overlay

// Text wraps at the view's right edge, so long lines never run under the plots column.
float wrapWidth(const AppState& app) { return std::max(200.0f, app.view.w - 2.0f * kMargin); }

struct HudLine {
  ImVec4 color;
  std::string text;
};

// One app line (scene, time, speed, frame rate) over the scene's own lines (at most four by
// convention: what matters while watching; details live in the panels).
std::vector<HudLine> hudLines(const AppState& app) {
  const SimDriver& d = app.driver;
  const ImVec4 white = ImGui::GetStyleColorVec4(ImGuiCol_Text);
  std::vector<HudLine> lines;
  // The measured ratio (simulated s / wall s over the last window), not the requested speed.
  char text[200] = "measuring real time";
  if (d.paused()) std::snprintf(text, sizeof text, "[paused]");
  else if (app.realTime.measured())
    std::snprintf(text, sizeof text, "%.2fx real time (measured; speed %.0f%%)", app.realTime.ratio(), d.speed() * 100.0);
  const std::string rate = text;
  std::snprintf(text, sizeof text, "%s  t = %.3f s  %s  %.0f FPS", d.sceneName().c_str(), d.scene().time(), rate.c_str(),
                app.rates.fps());
  lines.push_back({white, text});
  if (std::string rec = videoRecordingHudLine(app); !rec.empty())  // video_recording.h
    lines.push_back({ImVec4(1, 0.3f, 0.3f, 1), std::move(rec)});
  if (app.realTime.behind()) {  // the steps cost more than real time allows (SimDriver::frame's budget)
    std::snprintf(text, sizeof text, "running slower than real time (%.0f %%)", 100.0 * app.realTime.factor());
    lines.push_back({ImVec4(1, 0.45f, 0.3f, 1), text});
  }
  // The keys that drive this scene, from the live bindings (so an edited mapping shows as it is).
  const std::string keys = keyboardLegend(app.live.controls(), app.live.bindings());
  if (!keys.empty() && !d.replaying()) lines.push_back({ImVec4(1, 0.85f, 0.4f, 1), "keys: " + keys});
  if (std::string plan = planHudLine(app); !plan.empty())  // input source: plan or live (plan_panel.h)
    lines.push_back({ImVec4(0.4f, 0.9f, 1, 1), std::move(plan)});
  if (std::string pilot = autopilotHudLine(app); !pilot.empty())  // the Autopilot's last re-plan
    lines.push_back({ImVec4(0.95f, 0.45f, 0.9f, 1), std::move(pilot)});
  for (const auto& line : app.drawList.hud) lines.push_back({white, line});
  if (const EnergyMonitor& e = d.energyMonitor(); e.flagged()) {  // energy_monitor.h; latched until reset
    std::snprintf(text, sizeof text, "ENERGY GAIN up to %+.3g J without input, since t = %.3f s", e.peakGain(),
                  e.flag().time);
    lines.push_back({ImVec4(1, 0.3f, 0.3f, 1), text});
  }
  return lines;
}

// The HUD is sized to this frame's lines before it begins: an auto-resized window takes the size of the last
// frame's contents, which cut the new scene's wider lines for one frame after a scene switch (space_robot after
// car: 2 glyphs of its keys line) and a line that grew (the rate once measured). Every line wraps at the view's
// right edge. NoInputs: the HUD never blocks orbiting or picking under it.
void drawHud(AppState& app) {
  const std::vector<HudLine> lines = hudLines(app);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float wrapAt = wrapWidth(app), textWidth = std::max(1.0f, wrapAt - style.WindowPadding.x);
  ImVec2 content(0.0f, 0.0f);
  for (size_t i = 0; i < lines.size(); ++i) {
    const ImVec2 size = ImGui::CalcTextSize(lines[i].text.c_str(), nullptr, false, textWidth);
    content.x = std::max(content.x, size.x);
    content.y += size.y + (i > 0 ? style.ItemSpacing.y : 0.0f);
  }
  ImGui::SetNextWindowPos(ImVec2(app.view.x + kMargin, app.view.y + kMargin));
  ImGui::SetNextWindowSize(ImVec2(std::ceil(content.x + 2.0f * style.WindowPadding.x),
                                  std::ceil(content.y + 2.0f * style.WindowPadding.y)));
  ImGui::SetNextWindowBgAlpha(0.45f);
  if (ImGui::Begin("##hud", nullptr, (kOverlayFlags & ~ImGuiWindowFlags_AlwaysAutoResize) | ImGuiWindowFlags_NoInputs)) {
    ImGui::PushTextWrapPos(wrapAt);
    for (const HudLine& line : lines) {
      ImGui::PushStyleColor(ImGuiCol_Text, line.color);
      ImGui::TextUnformatted(line.text.c_str());
      ImGui::PopStyleColor();
    }
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

void drawLabels(AppState& app) {
  // Behind the panels (background list), above the 3-D view (drawn before ImGui). Projected into
  // the view rectangle the renderer draws in, then offset to window pixels.
  ImDrawList* bg = ImGui::GetBackgroundDrawList();
  const ScreenRect& view = app.view;
  for (const auto& label : app.drawList.labels) {
    glm::vec2 px;
    const glm::vec3 p(label.position[0], label.position[1], label.position[2]);
    if (!app.renderer.worldToScreen(p, app.camera, int(view.w), int(view.h), px)) continue;
    px += glm::vec2(view.x, view.y);
    const ImU32 col = ImGui::ColorConvertFloat4ToU32(ImVec4(label.color.r, label.color.g, label.color.b, label.color.a));
    if (label.markerPixels > 0.0f) {
      // The sphere's radius in pixels at its depth: r (H/2) / (depth tan(fov/2)).
      const float depth = glm::dot(p - app.camera.eye(), app.camera.forward());
      const float shown = label.markerRadius * 0.5f * view.h / (std::max(depth, 1e-6f) * std::tan(0.5f * app.camera.fovY));
      if (shown >= label.markerPixels) continue;
      bg->AddCircle(ImVec2(px.x, px.y), label.markerPixels, IM_COL32(0, 0, 0, 140), 32, 3.0f);
      bg->AddCircle(ImVec2(px.x, px.y), label.markerPixels, col, 32, 1.5f);
      px += glm::vec2(0.75f * label.markerPixels, -0.75f * label.markerPixels - ImGui::GetTextLineHeight());
    }
    bg->AddText(ImVec2(px.x + 1, px.y + 1), IM_COL32(0, 0, 0, 160), label.text.c_str());
    bg->AddText(ImVec2(px.x, px.y), col, label.text.c_str());
  }
}

// Notices stack in the view's lower-left corner, newest last, at most kShownNotices and at most 520 px wide (the
// rest of the view stays clear); they fade: 8 s for information, 30 s for errors (also printed on stderr).
constexpr size_t kShownNotices = 3;

void drawNotices(AppState& app) {
  while (!app.notices.empty() && app.wallTime - app.notices.front().shownAt > (app.notices.front().error ? 30.0 : 8.0))
    app.notices.pop_front();
  const bool diverged = app.driver.loaded() && app.driver.diverged();
  if (app.notices.empty() && !diverged) return;
  // Bottom-left of the view: above a panel docked at the bottom (the SPOOK tuning window).
  ImGui::SetNextWindowPos(ImVec2(app.view.x + kMargin, app.view.y + app.view.h - kMargin), ImGuiCond_Always,
                          ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.7f);
  if (ImGui::Begin("##notices", nullptr, kOverlayFlags & ~ImGuiWindowFlags_NoNav)) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::min(520.0f, wrapWidth(app)));
    if (diverged) ImGui::TextColored(ImVec4(1, 0.35f, 0.35f, 1), "%s  (Backspace resets)", app.driver.divergedMessage().c_str());
    const size_t first = app.notices.size() > kShownNotices ? app.notices.size() - kShownNotices : 0;
    if (first > 0) ImGui::TextDisabled("(%zu older notices: see the terminal)", first);
    for (size_t i = first; i < app.notices.size(); ++i) {
      const Notice& n = app.notices[i];
      ImGui::TextColored(n.error ? ImVec4(1, 0.5f, 0.4f, 1) : ImVec4(0.85f, 0.9f, 1, 1), "%s", n.text.c_str());
    }
    ImGui::PopTextWrapPos();
    if (!app.notices.empty() && ImGui::SmallButton("dismiss")) app.notices.clear();
  }
  ImGui::End();
}

// Two columns: key (highlighted) and what it does.
template <class Rows>
void keyTable(const char* id, const Rows& rows) {
  if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) return;
  for (const auto& r : rows) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextColored(ImVec4(1, 0.85f, 0.4f, 1), "%s", r[0]);
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(r[1]);
  }
  ImGui::EndTable();
}

}  // namespace

void drawOverlays(AppState& app) {
  if (!app.driver.loaded()) return;
  if (!app.hideUi) drawHud(app);
  drawLabels(app);
  drawNotices(app);
}

void drawHelpOverlay(AppState& app) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.92f);
  if (!ImGui::Begin("Help (F1)", &app.settings.panels.help,
                    ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::End();
    return;
  }
  static const char* kShortcuts[][2] = {
      {"Space", "pause / run"},
      {". (period)", "single physics step (pauses; hold to repeat)"},
      {", (comma)", "step back through the history ring (~2000 states)"},
      {"Backspace", "reset: rebuild the scene, applying pending parameters"},
      {"+ / -", "speed up / slow down (x0.1 ... x4, log-spaced)"},
      {"Tab", "hide / show all panels"},
      {"F1", "this help"},
      {"F4", "integrator study: RK2/RK4/Newmark against the variational integrators"},
      {"F12 or P", "save a PNG screenshot in the working directory"},
      {"F9", "record the 3-D view to MP4 at the simulation's rate (1280x720, 60 fps); F9 again stops"},
      {"Ctrl+Q", "quit (saves settings and a --record file; so do the close button and Ctrl+C)"},
      {"Home", "reset view: frame the whole scene again (the scene's default camera)"},
      {"C", "follow the subject on / off: behind a vehicle or sleigh, centred on the orbiting body"},
      {"M", "Autopilot (MPC) on / off: car, helicopter, boat, snakeboard go to a goal; a control takes them back"},
      {"T/G, F/H", "with the autopilot on: move its goal along world x, y (or Ctrl + drag on the ground)"},
      {"left drag", "orbit the camera"},
      {"right / middle drag", "pan"},
      {"wheel", "zoom"},
  };
  keyTable("shortcuts", kShortcuts);
  ImGui::Separator();
  ImGui::TextUnformatted("Driving without a gamepad (game conventions; remap in Input mapping):");
  keyTable("driving", kKeyConventions);
  if (app.driver.loaded()) {
    const std::string keys = keyboardLegend(app.live.controls(), app.live.bindings());
    ImGui::Text("This scene: %s", keys.empty() ? "no keyboard controls" : keys.c_str());
  }
  ImGui::TextDisabled("Every scene's keys: Help > Keys of every scene.  Documentation: Help menu.");
  ImGui::Separator();
  ImGui::TextDisabled("Command line: varsim --help.  Headless: varsim list | describe SCENE | run SCENE ...");
  ImGui::TextDisabled("Gamepad: standard mapping; add SDL_GameControllerDB lines with --gamepad-mappings FILE.");
  ImGui::End();
}

}  // namespace varsim
