// Parameter panel generated from the scene's ParamSpec list (the same list `varsim describe` prints):
// sliders for bounded reals/integers (log sliders where the spec says so), checkboxes, combos, vector
// inputs. Live parameters apply at once; the others are marked and wait for Reset. A rejected value
// shows its message under the widget and the last good value stays.
#include <imgui.h>
#include <imgui_internal.h>  // TempInputIsActive: a slider's typing mode

#include <cmath>
#include <cstdio>
#include <map>

#include "engine/sim/errors.h"
#include "ui/app/app_state.h"
#include "ui/app/label_fit.h"
#include "ui/app/panels.h"

namespace varsim {

namespace {

bool boundedRange(const ParamSpec& s) { return s.minValue > -1e6 && s.maxValue < 1e6 && s.maxValue > s.minValue; }

bool editReal(const char* label, const ParamSpec& s, double& x) {
  if (!boundedRange(s)) return ImGui::InputDouble(label, &x, 0.0, 0.0, "%.6g", ImGuiInputTextFlags_EnterReturnsTrue);
  double lo = s.minValue, hi = s.maxValue;
  ImGuiSliderFlags flags = 0;
  if (s.logScale) {
    if (lo <= 0.0) lo = hi * 1e-6;  // a log slider needs a positive lower end
    flags |= ImGuiSliderFlags_Logarithmic;
  }
  return ImGui::SliderScalar(label, ImGuiDataType_Double, &x, &lo, &hi, "%.6g", flags);
}

bool editInteger(const char* label, const ParamSpec& s, double& x) {
  long long v = std::llround(x);
  bool changed;
  if (boundedRange(s) && s.maxValue - s.minValue <= 10000) {
    long long lo = std::llround(s.minValue), hi = std::llround(s.maxValue);
    changed = ImGui::SliderScalar(label, ImGuiDataType_S64, &v, &lo, &hi, "%lld",
                                  s.logScale && lo > 0 ? ImGuiSliderFlags_Logarithmic : 0);
  } else {
    long long step = 1;
    changed = ImGui::InputScalar(label, ImGuiDataType_S64, &v, &step, nullptr, "%lld");
  }
  if (changed) x = double(v);
  return changed;
}

// A slider in its typing mode (Ctrl+click or double-click) parses every keystroke into its value, so
// typing "1e-8" into epsilon would run steps at 1 and 1e and record them as live edits. Typed values
// are held here until the field is left (Enter or click away); dragging still applies at once.
std::map<std::string, ParamValue>& typedValues() {
  static std::map<std::string, ParamValue> held;
  return held;
}

bool holdWhileTyping(const ParamSpec& spec, ParamValue& v, bool changed) {
  if (spec.type != ParamType::Real && spec.type != ParamType::Integer) return changed;
  auto& held = typedValues();
  if (changed && ImGui::TempInputIsActive(ImGui::GetItemID())) {
    held[spec.key] = v;
    return false;
  }
  if (ImGui::IsItemDeactivated()) {
    if (auto it = held.find(spec.key); it != held.end()) {
      v = it->second;
      held.erase(it);
      return true;
    }
  }
  return changed;
}

// Paths and lists of any length are edited as their text (the `--set` syntax), applied on Enter.
bool editText(const char* label, const ParamSet& params, const ParamSpec& spec, ParamValue& v,
              std::map<std::string, std::string>& errors) {
  char buf[4096];
  std::snprintf(buf, sizeof buf, "%s", params.valueText(spec.key).c_str());
  if (!ImGui::InputText(label, buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue)) return false;
  try {
    ParamSet parsed = params;
    parsed.setFromString(spec.key, buf, "panel");
    v = parsed.value(spec.key);
    return true;
  } catch (const BadInput& e) {
    errors[spec.key] = e.what();
    return false;
  }
}

}  // namespace

void drawParamWidget(AppState& app, const ParamSpec& spec) {
  SimDriver& d = app.driver;
  ParamValue v = d.params().value(spec.key);
  // "*": applies on Reset (said above the list and in the tooltip); fitted to the panel, elided if need be.
  const std::string label = fitLabel(spec.key + (spec.unit.empty() ? "" : " [" + spec.unit + "]") + (spec.live ? "" : " *"));
  ImGui::PushID(spec.key.c_str());
  bool changed = false;
  switch (spec.type) {
    case ParamType::Real: changed = editReal(label.c_str(), spec, v.numbers[0]); break;
    case ParamType::Integer: changed = editInteger(label.c_str(), spec, v.numbers[0]); break;
    case ParamType::Bool: {
      bool b = v.numbers[0] != 0.0;
      changed = ImGui::Checkbox(label.c_str(), &b);
      v.numbers[0] = b ? 1.0 : 0.0;
      break;
    }
    case ParamType::Choice:
      if (ImGui::BeginCombo(label.c_str(), v.choice.c_str())) {
        for (const auto& c : spec.choices)
          if (ImGui::Selectable(c.c_str(), c == v.choice)) {
            v.choice = c;
            changed = true;
          }
        ImGui::EndCombo();
      }
      break;
    case ParamType::Path: changed = editText(label.c_str(), d.params(), spec, v, app.paramErrors); break;
    case ParamType::Vector:
      if (spec.size == 0) {
        changed = editText(label.c_str(), d.params(), spec, v, app.paramErrors);
      } else if (v.numbers.size() <= 4) {
        changed = ImGui::InputScalarN(label.c_str(), ImGuiDataType_Double, v.numbers.data(), int(v.numbers.size()),
                                      nullptr, nullptr, "%.6g", ImGuiInputTextFlags_EnterReturnsTrue);
      } else if (v.numbers.size() % 3 == 0) {
        // Rows of three (x, y, z of one body each, e.g. the floating chain's nine sizes), each row labelled
        // "sizes 1", "sizes 2", ... (the tooltip's help says which body is which).
        ImGui::TextUnformatted(label.c_str());
        for (size_t r = 0; r < v.numbers.size() / 3; ++r) {
          ImGui::PushID(int(r));
          const std::string row = fitLabel(spec.key + " " + std::to_string(r + 1));
          changed |= ImGui::InputScalarN(row.c_str(), ImGuiDataType_Double, v.numbers.data() + 3 * r, 3, nullptr,
                                         nullptr, "%.6g", ImGuiInputTextFlags_EnterReturnsTrue);
          if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", spec.help.c_str());
          ImGui::PopID();
        }
      } else {
        ImGui::TextUnformatted(label.c_str());
        for (size_t i = 0; i < v.numbers.size(); ++i) {
          ImGui::PushID(int(i));
          changed |= ImGui::InputDouble("##c", &v.numbers[i], 0, 0, "%.6g", ImGuiInputTextFlags_EnterReturnsTrue);
          ImGui::PopID();
        }
      }
      break;
  }
  changed = holdWhileTyping(spec, v, changed);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s\nrange: %s\n%s", spec.help.c_str(), spec.rangeText().c_str(),
                      spec.live ? "applies live" : "applies on reset (Backspace)");
  if (changed) {
    try {
      d.setParam(spec.key, v);
      app.paramErrors.erase(spec.key);
    } catch (const BadInput& e) {
      app.paramErrors[spec.key] = e.what();
    }
  }
  const auto& pending = d.pendingKeys();
  const bool isPending = std::find(pending.begin(), pending.end(), spec.key) != pending.end();
  if (isPending) ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "  changed: applies on reset");
  if (auto it = app.paramErrors.find(spec.key); it != app.paramErrors.end())
    ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "  rejected: %s", it->second.c_str());
  ImGui::PopID();
}

void drawParametersPanel(AppState& app) {
  if (!app.driver.loaded()) return;
  if (!beginPanel(app, "Parameters", "Parameters", &app.settings.panels.parameters)) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrapped("* applies on Reset (Backspace); the others at once");
  ImGui::PopStyleColor();
  for (const auto& spec : app.driver.params().specs())
    if (spec.key != "dt") drawParamWidget(app, spec);  // h lives in the simulation panel
  if (!app.driver.pendingKeys().empty()) {
    ImGui::Separator();
    if (ImGui::Button("Reset to apply (Backspace)")) app.resetScene();
  }
  ImGui::End();
}

}  // namespace varsim
