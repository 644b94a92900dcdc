// Live plots: the driver's plot groups (scene plots() or defaults from the standard columns), one
// shared time window (5 s … 10 min) that follows the newest sample while running and freezes on
// pause (or on request), and export of each plot's visible data. A scene with a plan problem shows its Plan panel
// as the column's second tab.
#include <imgui.h>

#include <cstdio>

#include "ui/app/app_state.h"
#include "ui/app/label_fit.h"
#include "ui/app/panels.h"
#include "ui/app/plan_panel.h"
#include "ui/plot/plot_export.h"

namespace varsim {

namespace {

void drawPlots(AppState& app) {
  SimDriver& d = app.driver;
  // Window selection.
  char current[32];
  auto windowLabel = [](double s, char* buf, size_t n) {
    if (s < 60) std::snprintf(buf, n, "%.0f s", s);
    else std::snprintf(buf, n, "%.0f min", s / 60);
  };
  windowLabel(app.settings.plotWindow, current, sizeof current);
  ImGui::SetNextItemWidth(90);
  if (ImGui::BeginCombo("window", current)) {
    for (double w : kPlotWindows) {
      char label[32];
      windowLabel(w, label, sizeof label);
      if (ImGui::Selectable(label, w == app.settings.plotWindow)) app.settings.plotWindow = w;
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (ImGui::Checkbox("freeze", &app.freezePlots) && app.freezePlots) app.frozenTime = d.plotData().newestTime();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("keep the view still while the simulation runs (pausing also freezes)");

  const PlotHistory& data = d.plotData();
  // While paused the data does not change, so following the newest sample is already frozen.
  const double tEnd = app.freezePlots ? app.frozenTime : data.newestTime();
  const TimeWindow window = timeWindow(tEnd, app.settings.plotWindow);
  const double marker = d.atPresent() ? -1.0 : d.scene().time();
  for (const auto& group : d.plotGroups()) {
    // A title wider than the column is shortened with "..." (the whole title in the tooltip); the ID stays the title.
    const float room = ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() - 2.0f * ImGui::GetStyle().FramePadding.x;
    const std::string shown = elideText(group.title, room);
    const bool open = ImGui::CollapsingHeader((shown + "###" + group.title).c_str(), ImGuiTreeNodeFlags_DefaultOpen);
    if (shown != group.title && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", group.title.c_str());
    if (!open) continue;
    PlotView& view = app.plotViews[d.sceneName() + "/" + group.title];
    const PlotResult res = drawPlot(group, data, window, view, marker, 130.0f);
    if (res.exportRequested) {
      const std::string path = exportFileName(group.title, window.tMin, window.tMax);
      std::string error;
      if (exportVisibleCsv(path, data, res.visibleSeries, window.tMin, window.tMax, error)) {
        const auto [first, last] = data.range(window.tMin, window.tMax);
        app.notify("exported " + std::to_string(last - first) + " rows to " + path);
      } else {
        app.notify(error, true);
      }
    }
  }
}

}  // namespace

void drawPlotsPanel(AppState& app) {
  if (!app.driver.loaded()) return;
  const bool plan = planTabShown(app);  // before Begin: it follows the scene
  if (!beginPanel(app, "Plots", "Plots", &app.settings.panels.plots)) return;
  // A scene with a plan problem gets its Plan panel as a second tab of this column (not over the plots or the view).
  if (plan && ImGui::BeginTabBar("##plots_plan")) {
    if (ImGui::BeginTabItem("Plots")) {
      drawPlots(app);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Plan", &app.plan.open)) {
      drawPlanContents(app);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  } else {
    drawPlots(app);
  }
  ImGui::End();
}

}  // namespace varsim
