// Scene-declared panels as plain data (ARCHITECTURE.md: scene-specific UI is declared by the scene,
// drawn by ui/). A scene lists windows of widgets (texts, warnings, sliders, number fields, choices,
// buttons, tables, time plots, bar profiles) and view marks; ui/app/scene_panels.cpp draws any of
// them and sends every change back as an action, which the scene turns into live edits.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "render/draw_list.h"

namespace varsim {

// What the UI keeps for a scene's panels between frames, per scene object: values set by Local
// edits (a picked joint, a chosen target, an entry field) as text key → value. Scenes read it back
// when they build their panels; a reset (new scene object) starts from empty.
struct PanelContext {
  std::vector<std::pair<std::string, std::string>> values;
  std::string get(const std::string& key, const std::string& fallback = "") const {
    for (const auto& [k, v] : values)
      if (k == key) return v;
    return fallback;
  }
  void set(const std::string& key, const std::string& value) {
    for (auto& [k, v] : values)
      if (k == key) return void(v = value);
    values.emplace_back(key, value);
  }
};

enum class PanelTone { Normal, Dim, Ok, Drift, Warn, Pick };

struct PanelWidget {
  enum class Kind {
    Text,     // text in tone; `sameLine` flows it after the previous widget (wrapping if it does not fit)
    Warning,  // text in a red box above everything else
    Slider,   // number in [lo, hi] (log scale if `logScale`), shown with `format` (printf, one %g-like)
    Number,   // number typed + Enter
    Choice,   // one of `options` (index `value`)
    Button,   // sends `action` with `actionValue`
    Table,    // `columns` headers (may be empty) and `rows` of cells (each cell a widget, "" = empty)
    Plot,     // time plot of the per-step samples `series` of trace `trace` (PanelSample), log y if `logScale`
    Bars,     // bar per index of `numbers` coloured `colors`, running peak of trace `trace` as a line
  };
  Kind kind = Kind::Text;
  std::string label;    // Text/Warning: the text; others: caption or button text
  std::string tooltip;  // shown on hover ("" = none)
  PanelTone tone = PanelTone::Normal;
  bool sameLine = false;
  // Inputs: every change calls Scene::panelAction(action, new value as text); its rejection is shown
  // under the widget. `errorRow` groups widgets sharing one message line (default: `action`).
  std::string action, actionValue, errorRow;
  double value = 0, lo = 0, hi = 1;
  bool logScale = false;
  std::string format = "%.4g";
  // Choice: shared, so a scene hands the list it keeps (a 10 000-link ladder's 20 001 joint names) to every frame's
  // panel without copying it; choice() never leaves it null.
  std::shared_ptr<const std::vector<std::string>> options;
  // Table.
  std::vector<std::string> columns;
  std::vector<float> columnWidths;  // fixed pixel widths, 0 = stretch; empty = all stretch
  std::vector<std::vector<PanelWidget>> rows;
  // Plot / Bars.
  std::string trace;
  std::vector<std::string> series;
  std::vector<double> numbers;
  std::vector<Rgba> colors;
  std::string axis = "index";  // Bars: what one bar is ("link", "body")

  static PanelWidget text(std::string s, PanelTone tone = PanelTone::Normal, bool sameLine = false);
  static PanelWidget warning(std::string s);
  static PanelWidget slider(std::string action, double value, double lo, double hi, std::string format,
                            bool logScale = false);
  static PanelWidget number(std::string action, double value, std::string format);
  static PanelWidget choice(std::string action, std::vector<std::string> options, int selected, std::string label = "");
  static PanelWidget choice(std::string action, std::shared_ptr<const std::vector<std::string>> options, int selected,
                            std::string label = "");
  static PanelWidget button(std::string label, std::string action, std::string actionValue = "");
  PanelWidget& tip(std::string t) { tooltip = std::move(t); return *this; }
  PanelWidget& row(std::string r) { errorRow = std::move(r); return *this; }
};

struct PanelTab {
  std::string title;
  std::vector<PanelWidget> widgets;
};

// A point drawn over the 3-D view (a ring and a label), e.g. the picked joint.
struct PanelMark {
  std::array<double, 3> position{0, 0, 0};  // world, m
  std::string label;
  PanelTone tone = PanelTone::Pick;
};

struct ScenePanel {
  std::string title;                 // window title; unique per scene
  std::vector<PanelWidget> header;   // above the tabs (warnings, status lines)
  std::vector<PanelTab> tabs;        // may be empty
  std::vector<PanelMark> marks;
};

// One per-step sample of a trace: a time series (`values`, one per name in `series`) or, when
// `profile`, a vector whose running peak since the last time it went back the UI keeps.
struct PanelSample {
  std::string trace;
  std::vector<std::string> series;
  std::vector<double> values;
  bool profile = false;
};

// The result of a panel action: edits the UI applies through the driver in order (parameters and
// scene edits are recorded and undoable like any other; Local ones only change the PanelContext).
// If one is refused, those already applied are put back, so an action changes all or nothing.
struct PanelEdit {
  enum class Kind { Param, SceneEdit, Local };
  Kind kind = Kind::Param;
  std::string key;
  std::string text;   // SceneEdit / Local value
  double number = 0;  // Param value (scalar parameters)
};

// What a click in the 3-D view hits: the Local edit that selects it and where it is.
struct PanelPick {
  std::string key, value;
  std::array<double, 3> position{0, 0, 0};
};

}  // namespace varsim
