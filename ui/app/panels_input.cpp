// Input mapping panel for the current scene: per control, which gamepad axis/buttons and keys drive
// it, dead-zone/expo/invert, a calibration sweep and re-centre, and live raw → shaped → value bars.
#include <imgui.h>

#include <cstdio>

#include "ui/app/app_state.h"
#include "ui/app/panels.h"
#include "ui/input/key_names.h"

namespace varsim {

namespace {

void bar(const char* label, double v, double lo, double hi) {
  const float frac = hi > lo ? float((v - lo) / (hi - lo)) : 0.0f;
  char text[48];
  std::snprintf(text, sizeof text, "%s %+.3f", label, v);
  ImGui::ProgressBar(std::clamp(frac, 0.0f, 1.0f), ImVec2(150, 0), text);
}

bool keyField(const char* label, int& code) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%s", keyName(code).c_str());
  ImGui::SetNextItemWidth(60);
  if (!ImGui::InputText(label, buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue)) return false;
  code = keyFromName(buf);
  return true;
}

}  // namespace

void drawInputPanel(AppState& app) {
  if (!beginPanel(app, "Input", "Input mapping", &app.settings.panels.input)) return;
  LiveInput& live = app.live;
  const GamepadSnapshot& pad = live.gamepad();
  if (pad.connected) ImGui::Text("gamepad: %s", pad.name.c_str());
  else ImGui::TextDisabled("no gamepad connected: keyboard fallback (mappings file: --gamepad-mappings FILE)");
  if (app.driver.replaying()) ImGui::TextColored(ImVec4(0.4f, 0.8f, 1, 1), "replaying a file: live input is ignored");
  const auto& controls = live.controls();
  if (controls.empty()) ImGui::TextDisabled("this scene has no controls");
  for (size_t i = 0; i < controls.size(); ++i) {
    const ControlSpec& c = controls[i];
    ControlBinding b = live.bindings()[i];
    const LiveInput::Channel& ch = live.channels()[i];
    ImGui::PushID(int(i));
    ImGui::Separator();
    ImGui::Text("%s  [%g, %g], neutral %g", c.name.c_str(), c.min, c.max, c.neutral);
    if (!c.help.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", c.help.c_str());
    bool changed = false;
    ImGui::SetNextItemWidth(120);
    if (ImGui::BeginCombo("axis", gamepadAxisName(b.axis))) {
      for (int a = -1; a < kGamepadAxisCount; ++a)
        if (ImGui::Selectable(gamepadAxisName(a), a == b.axis)) { b.axis = a; changed = true; }
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    changed |= ImGui::Checkbox("invert", &b.shaping.invert);
    ImGui::SameLine();
    changed |= keyField("key +", b.keyPos);
    ImGui::SameLine();
    changed |= keyField("key -", b.keyNeg);
    if (!b.moreKeysPos.empty() || !b.moreKeysNeg.empty()) {  // the game-convention extras (arrows)
      std::string more = "also: key + " + keysLabel(-1, b.moreKeysPos);
      if (!b.moreKeysNeg.empty()) more += ", key - " + keysLabel(-1, b.moreKeysNeg);
      ImGui::TextDisabled("%s", more.c_str());
      ImGui::SameLine();
      if (ImGui::SmallButton("drop")) {
        b.moreKeysPos.clear();
        b.moreKeysNeg.clear();
        changed = true;
      }
    }
    float dz = float(b.shaping.deadZone), expo = float(b.shaping.expo);
    ImGui::SetNextItemWidth(120);
    if (ImGui::SliderFloat("dead-zone", &dz, 0.0f, 0.5f, "%.2f")) { b.shaping.deadZone = dz; changed = true; }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(120);
    if (ImGui::SliderFloat("expo", &expo, 0.0f, 1.0f, "%.2f")) { b.shaping.expo = expo; changed = true; }
    // Calibration: sweep the axis through its travel, or take the current position as rest.
    const bool unipolar = b.shaping.cal.center <= b.shaping.cal.min;
    if (app.calibratingControl == int(i)) {
      app.calibrator.observe(ch.raw);
      ImGui::Text("sweep: move the axis to both ends  [%.3f, %.3f]", app.calibrator.observedMin(),
                  app.calibrator.observedMax());
      ImGui::SameLine();
      if (ImGui::Button("Done")) {
        if (app.calibrator.finish(b.shaping.cal, unipolar)) changed = true;
        else app.notify("calibration of '" + c.name + "': travel too small (< 0.2), kept the old calibration", true);
        app.calibratingControl = -1;
      }
    } else if (b.axis >= 0 && pad.connected) {
      if (ImGui::Button("Calibrate")) {
        app.calibratingControl = int(i);
        app.calibrator.begin(ch.raw);
      }
      ImGui::SameLine();
      if (ImGui::Button("Re-centre")) {
        AxisCalibrator::recentre(b.shaping.cal, ch.raw);
        changed = true;
      }
      ImGui::SameLine();
    }
    ImGui::TextDisabled("cal [%.2f, %.2f, %.2f]", b.shaping.cal.min, b.shaping.cal.center, b.shaping.cal.max);
    bar("raw", ch.raw, -1.0, 1.0);
    ImGui::SameLine();
    bar("shaped", ch.deflection, -1.0, 1.0);
    ImGui::SameLine();
    bar("value", ch.value, c.min, c.max);
    if (!ch.rawValid) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "axis value invalid: held neutral");
    if (changed) live.setBinding(i, b);
    ImGui::PopID();
  }
  ImGui::End();
}

}  // namespace varsim
