// Draws whatever panels the current scene declares (Scene::panels, scenes/scene_panel.h) with ImGui:
// texts, warnings, sliders, number fields, choices, buttons, tables, time plots of the per-step
// traces and bar profiles; the scene's marks over the 3-D view and picking by click. Every widget
// change goes to Scene::panelAction, whose edits are applied through the driver (recorded, all or
// nothing). Knows no scene type: a new scene's panel needs no change here.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "ui/app/app_state.h"
#include "ui/app/panel_bars.h"
#include "ui/app/label_fit.h"
#include "ui/app/panels.h"

namespace varsim {

namespace {

constexpr double kPickPixels = 12.0;  // click tolerance around a pickable point, screen pixels

ImVec4 toneColor(PanelTone tone) {
  switch (tone) {
    case PanelTone::Warn: return {1.0f, 0.45f, 0.3f, 1.0f};   // rejections, divergence
    case PanelTone::Pick: return {1.0f, 0.85f, 0.25f, 1.0f};  // the picked item (row, marker)
    case PanelTone::Ok: return {0.45f, 0.85f, 0.45f, 1.0f};
    case PanelTone::Drift: return {1.0f, 0.8f, 0.3f, 1.0f};
    case PanelTone::Dim: return ImGui::GetStyle().Colors[ImGuiCol_TextDisabled];
    case PanelTone::Normal: break;
  }
  return ImGui::GetStyle().Colors[ImGuiCol_Text];
}

const std::string& errorRow(const PanelWidget& w) { return w.errorRow.empty() ? w.action : w.errorRow; }

void act(AppState& app, const PanelWidget& w, const std::string& value) {
  app.scenePanels.act(app.driver, w.action, value, errorRow(w));
}

void showError(const AppState& app, const std::string& row) {
  const auto& errors = app.scenePanels.errors;
  if (auto it = errors.find(row); !row.empty() && it != errors.end())
    ImGui::TextColored(toneColor(PanelTone::Warn), "rejected: %s", it->second.c_str());
}

void tooltip(const PanelWidget& w) {
  if (!w.tooltip.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", w.tooltip.c_str());
}

// Red box, growing with the text up to 6 lines.
void drawWarning(const PanelWidget& w) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float wrap = ImGui::GetContentRegionAvail().x - 2.0f * style.WindowPadding.x - style.ScrollbarSize;
  const float textH = ImGui::CalcTextSize(w.label.c_str(), nullptr, false, wrap).y;
  const float height = std::min(textH, 6.0f * ImGui::GetTextLineHeight()) + 2.0f * style.WindowPadding.y;
  ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(120, 28, 18, 255));
  ImGui::BeginChild("warning", ImVec2(0, height), true);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextColored(ImVec4(1, 0.9f, 0.5f, 1), "%s", w.label.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
  ImGui::PopStyleColor();
}

void drawChoice(AppState& app, const PanelWidget& w, bool inTable) {
  if (!w.label.empty() && !inTable) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(w.label.c_str());
    ImGui::SameLine();
  }
  static const std::vector<std::string> kNone;
  const std::vector<std::string>& options = w.options ? *w.options : kNone;
  const int selected = int(w.value);
  const bool valid = selected >= 0 && selected < int(options.size());
  ImGui::SetNextItemWidth(inTable ? -FLT_MIN : 220.0f);
  if (!ImGui::BeginCombo("##choice", valid ? options[size_t(selected)].c_str() : w.actionValue.c_str())) return;
  ImGuiListClipper clipper;
  clipper.Begin(int(options.size()));
  while (clipper.Step())
    for (int k = clipper.DisplayStart; k < clipper.DisplayEnd; ++k)
      if (ImGui::Selectable((options[size_t(k)] + "##" + std::to_string(k)).c_str(), k == selected))
        act(app, w, std::to_string(k));
  ImGui::EndCombo();
}

void drawWidget(AppState& app, const PanelWidget& w, bool inTable);

void drawTable(AppState& app, const PanelWidget& w) {
  size_t columns = std::max(w.columns.size(), w.columnWidths.size());
  for (const auto& row : w.rows) columns = std::max(columns, row.size());
  if (columns == 0 || !ImGui::BeginTable("table", int(columns), ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg))
    return;
  for (size_t c = 0; c < columns; ++c) {
    const float width = c < w.columnWidths.size() ? w.columnWidths[c] : 0.0f;
    ImGui::TableSetupColumn(c < w.columns.size() ? w.columns[c].c_str() : "",
                            width > 0 ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch,
                            width > 0 ? width : 1.0f);
  }
  if (!w.columns.empty()) ImGui::TableHeadersRow();
  for (size_t r = 0; r < w.rows.size(); ++r) {
    ImGui::PushID(int(r));
    ImGui::TableNextRow();
    std::vector<std::string> rejected;
    for (size_t c = 0; c < w.rows[r].size(); ++c) {
      ImGui::TableNextColumn();
      ImGui::PushID(int(c));
      drawWidget(app, w.rows[r][c], true);
      ImGui::PopID();
      const std::string& row = errorRow(w.rows[r][c]);
      if (app.scenePanels.errors.count(row) && std::find(rejected.begin(), rejected.end(), row) == rejected.end())
        rejected.push_back(row);
    }
    for (const auto& row : rejected) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(std::min(1, int(columns) - 1));
      showError(app, row);
    }
    ImGui::PopID();
  }
  ImGui::EndTable();
}

void drawTrace(AppState& app, const PanelWidget& w) {
  const PlotHistory* data = app.scenePanels.traces.series(w.trace);
  if (!data || data->size() == 0) {
    ImGui::TextDisabled("%s: no samples yet", w.label.c_str());
    return;
  }
  const double tEnd = app.freezePlots ? app.frozenTime : data->newestTime();
  const double marker = app.driver.atPresent() ? -1.0 : app.driver.scene().time();
  // Each plot puts a toolbar and a legend line above its canvas.
  const float canvas = std::max(70.0f, ImGui::GetContentRegionAvail().y - 2.3f * ImGui::GetFrameHeightWithSpacing());
  drawPlot(PlotSpec{w.label, w.series, w.logScale}, *data, timeWindow(tEnd, app.settings.plotWindow),
           app.plotViews["panel: " + w.label], marker, canvas);
}

void drawWidget(AppState& app, const PanelWidget& w, bool inTable) {
  using K = PanelWidget::Kind;
  ImGui::PushID(w.action.empty() ? w.label.c_str() : w.action.c_str());
  if (w.sameLine && !inTable) {
    ImGui::SameLine();
    if (w.kind == K::Text && ImGui::CalcTextSize(w.label.c_str()).x > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
  }
  double v = w.value;
  switch (w.kind) {
    case K::Text: ImGui::TextColored(toneColor(w.tone), "%s", w.label.c_str()); break;
    case K::Warning: drawWarning(w); break;
    case K::Slider:
      ImGui::SetNextItemWidth(inTable ? -FLT_MIN : -90.0f);
      if (ImGui::SliderScalar(w.label.empty() ? "##v" : w.label.c_str(), ImGuiDataType_Double, &v, &w.lo, &w.hi,
                              w.format.c_str(), w.logScale ? ImGuiSliderFlags_Logarithmic : 0))
        act(app, w, formatNumber(v));
      break;
    case K::Number:
      ImGui::SetNextItemWidth(inTable ? -FLT_MIN : 150.0f);
      if (ImGui::InputDouble(w.label.empty() ? "##v" : w.label.c_str(), &v, 0, 0, w.format.c_str(),
                             ImGuiInputTextFlags_EnterReturnsTrue))
        act(app, w, formatNumber(v));
      break;
    case K::Choice: drawChoice(app, w, inTable); break;
    case K::Button:
      if (ImGui::SmallButton(w.label.c_str())) act(app, w, w.actionValue);
      break;
    case K::Table: drawTable(app, w); break;
    case K::Plot: drawTrace(app, w); break;
    case K::Bars:
      drawBars(w.numbers, w.colors, app.scenePanels.traces.profile(w.trace), w.axis, w.format,
               std::max(90.0f, ImGui::GetContentRegionAvail().y - 4.0f));
      break;
  }
  if (w.kind != K::Table && w.kind != K::Plot) tooltip(w);
  if (!inTable && !w.action.empty()) showError(app, errorRow(w));
  ImGui::PopID();
}

void drawPanel(AppState& app, const ScenePanel& panel, size_t index) {
  const ImGuiIO& io = ImGui::GetIO();
  // Default place: along the bottom between the left column and the plots, so the 3-D view above it
  // stays clear; further panels of the same scene are offset.
  const PanelRect r = panelRect("Scene panel", io.DisplaySize.x, io.DisplaySize.y);
  ImGui::SetNextWindowPos(ImVec2(r.x + 30.0f * float(index), r.y - 30.0f * float(index)), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_FirstUseEver);
  // Plain name shown ("Step bound"), the declared title ("Step bound (seed 002)") kept as the window's ID.
  const std::string title = plainTitle(panel.title) + "###" + panel.title;
  if (beginPanelWindow(app, title.c_str())) {
    for (const PanelWidget& w : panel.header) drawWidget(app, w, false);
    if (!panel.tabs.empty() && ImGui::BeginTabBar("tabs")) {
      for (const PanelTab& tab : panel.tabs)
        if (ImGui::BeginTabItem(tab.title.c_str())) {
          for (const PanelWidget& w : tab.widgets) drawWidget(app, w, false);
          ImGui::EndTabItem();
        }
      ImGui::EndTabBar();
    }
  }
  ImGui::End();
}

bool project(AppState& app, const std::array<double, 3>& p, ImVec2& out) {
  glm::vec2 px;
  if (!app.camera.project({float(p[0]), float(p[1]), float(p[2])}, int(app.view.w), int(app.view.h), px)) return false;
  out = ImVec2(app.view.x + px.x, app.view.y + px.y);
  return true;
}

// A click (press and release without dragging) in the 3-D view selects what Scene::pick finds along
// the mouse ray within kPickPixels; hovering rings the candidate. Pixels are relative to the view
// rectangle, whose size and aspect the camera renders with.
void handlePicking(AppState& app) {
  ScenePanelState& st = app.scenePanels;
  const ImGuiIO& io = ImGui::GetIO();
  const ScreenRect& view = app.view;
  const bool overView = view.contains(io.MousePos.x, io.MousePos.y) && !io.WantCaptureMouse;
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) st.pressedInView = overView;
  const bool released = ImGui::IsMouseReleased(ImGuiMouseButton_Left);
  if (!view.contains(io.MousePos.x, io.MousePos.y) || (io.WantCaptureMouse && !released)) return;
  const int w = int(view.w), h = int(view.h);
  if (w <= 0 || h <= 0) return;
  glm::vec3 o, d;
  app.camera.pixelRay(io.MousePos.x - view.x, io.MousePos.y - view.y, w, h, o, d);
  const double pixelAngle = std::atan(2.0 * std::tan(0.5 * app.camera.fovY) / h);
  const PanelPick hit = app.driver.scene().pick(st.context, {o.x, o.y, o.z}, {d.x, d.y, d.z}, kPickPixels * pixelAngle);
  if (hit.key.empty() || hit.value == st.context.get(hit.key)) return;
  ImVec2 px;
  if (!io.WantCaptureMouse && project(app, hit.position, px))
    ImGui::GetBackgroundDrawList()->AddCircle(px, 9.0f, IM_COL32(255, 255, 255, 150), 20, 1.5f);
  if (released && st.pressedInView && io.MouseDragMaxDistanceSqr[0] < 16.0f) st.context.set(hit.key, hit.value);
}

// Ring and label, over the 3-D scene and under the panels; the label goes left and up when it would
// run out of the view.
void drawMark(AppState& app, const PanelMark& mark) {
  ImVec2 px;
  if (!project(app, mark.position, px)) return;
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const ImU32 col = ImGui::ColorConvertFloat4ToU32(toneColor(mark.tone));
  dl->AddCircle(px, 11.0f, IM_COL32(0, 0, 0, 160), 24, 4.0f);
  dl->AddCircle(px, 11.0f, col, 24, 2.0f);
  const float textW = ImGui::CalcTextSize(mark.label.c_str()).x;
  const bool flip = px.x + 14.0f + textW > app.view.x + app.view.w;
  const float x = flip ? px.x - 12.0f - textW : px.x + 14.0f, y = flip ? px.y - 26.0f : px.y - 8.0f;
  dl->AddText(ImVec2(x + 1, y + 1), IM_COL32(0, 0, 0, 200), mark.label.c_str());
  dl->AddText(ImVec2(x, y), col, mark.label.c_str());
}

}  // namespace

// Runs on the physics worker too (a replayed reset builds a new scene mid-job): the notice waits in
// st.notice, since the notice list and the wall clock belong to the UI thread.
void followScenePanels(AppState& app) {
  app.scenePanels.follow(app.driver.loaded() ? &app.driver.scene() : nullptr, app.driver.sceneName());
}

void showScenePanelNotice(AppState& app) {
  if (app.scenePanels.notice.empty()) return;
  app.notify(app.scenePanels.notice);
  app.scenePanels.notice.clear();
}

void drawScenePanels(AppState& app) {
  followScenePanels(app);
  app.scenePanels.marks.clear();
  if (!app.driver.loaded()) return;
  const std::vector<ScenePanel> panels = app.driver.scene().panels(app.scenePanels.context);
  for (size_t i = 0; i < panels.size(); ++i) {
    ImGui::PushID(int(i));
    drawPanel(app, panels[i], i);
    ImGui::PopID();
    for (const PanelMark& m : panels[i].marks) app.scenePanels.marks.push_back(m);
  }
}

void drawSceneViewMarks(AppState& app) {
  if (!app.driver.loaded() || &app.driver.scene() != app.scenePanels.scene) return;  // drawScenePanels follows first
  for (const PanelMark& m : app.scenePanels.marks) drawMark(app, m);
  handlePicking(app);
}

}  // namespace varsim
