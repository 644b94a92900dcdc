// The integrator-study window's result views: Figs. 4-5 as log-log error vs steps and vs CPU time per run (one curve
// per method, a gap where it blew up), the table `varsim study` prints, and Fig. 3's orbit components over time for
// one run (one trace per method and the truth).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/app/study_panel.h"
#include "ui/app/xy_plot.h"

namespace varsim {

using namespace varsim::study;

namespace {

// Cell -> plotted error of the chosen kind; the point's state says whether the
// method blew up there.
CurvePoint cellPoint(const StudyCell& c, double x, int kind) {
  CurvePoint p;
  p.x = x;
  if (c.ok == 0) {
    p.state = c.blowups > 0 ? PointState::BlownUp : PointState::Missing;
    return p;
  }
  const double values[] = {c.pose, c.pos, c.rot, c.energy, c.momentum};
  p.y = values[kind];
  p.state = c.blowups > 0 ? PointState::Partial : PointState::Ok;
  return p;
}

// One series per method of `methods` (colours by the index in the figure's
// list, so a method keeps its colour when others are left out).
std::vector<XySeries> curveSeries(const std::vector<StudyCell>& cells, const std::vector<std::string>& figureMethods,
                                  const std::vector<std::string>& methods, int kind, bool cpu) {
  std::vector<XySeries> series;
  for (const std::string& m : methods) {
    XySeries s;
    s.name = m;
    const size_t index = size_t(std::find(figureMethods.begin(), figureMethods.end(), m) - figureMethods.begin());
    s.color = seriesColor(index);
    for (const StudyCell& c : cells)
      if (c.method == m) s.points.push_back(cellPoint(c, cpu ? c.cpuMs : double(c.steps), kind));
    series.push_back(std::move(s));
  }
  return series;
}

}  // namespace

void StudyPanel::drawCurves() {
  if (!curves_) {
    ImGui::TextWrapped(
        "Press Run study: every chosen method integrates `runs` "
        "random cases (seeded) at every step in the range "
        "and is compared with an RK4 truth at a tiny step. The "
        "plots show the geometric mean error over the runs "
        "against the number of steps and against the CPU time "
        "per run (log-log), one curve per method; a gap and "
        "a cross on the bottom edge where every run blew up, a "
        "hollow circle where some did.");
    return;
  }
  const Curves& c = *curves_;
  const bool car = c.problem.system != "rigid_body";  // planar vehicles: heading, no momentum
  const char* kinds[] = {
      "pose error (pos + rot)", "position error (m)", car ? "heading error (rad)" : "rotation error (rad)",
      c.problem.system == "snakeboard" ? "energy error |E - E_truth| / mean E" : "energy drift |dE/E|",
      "momentum drift |dL/L|"};
  ImGui::TextDisabled("%s", c.command.c_str());
  ImGui::SetNextItemWidth(220);
  ImGui::Combo("plotted error", &errorKind_, kinds, car ? 4 : 5);
  ImGui::SameLine();
  ImGui::TextDisabled("%s, %d runs x %g s%s", c.problem.system.c_str(), c.problem.runs, c.problem.duration,
                      c.outcome.cancelled ? " (cancelled: partial)" : "");
  const std::vector<std::string> figureMethods = problemFor(c.problem.figure).methods;
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float width = 0.5f * (ImGui::GetContentRegionAvail().x - gap);
  const float height = std::max(220.0f, ImGui::GetContentRegionAvail().y - 6.0f);
  XyAxes steps{"error vs number of steps (Fig. 4/5 left)", "steps per run", kinds[errorKind_]};
  drawXyPlot(steps, curveSeries(c.cells, figureMethods, c.problem.methods, errorKind_, false), width, height);
  ImGui::SameLine();
  XyAxes cpu{"error vs CPU time (Fig. 4/5 right)", "CPU ms per run", kinds[errorKind_]};
  drawXyPlot(cpu, curveSeries(c.cells, figureMethods, c.problem.methods, errorKind_, true), width, height);
}

void StudyPanel::drawTable() {
  if (!curves_) {
    ImGui::TextUnformatted("No results yet: press Run study.");
    return;
  }
  ImGui::TextDisabled("%s", curves_->command.c_str());
  ImGui::BeginChild("summary", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::TextUnformatted(curves_->summary.c_str());
  ImGui::EndChild();
}

void StudyPanel::drawOrbits() {
  ImGui::BeginDisabled(running());
  ImGui::SetNextItemWidth(110);
  ImGui::InputInt("case (run index)", &form.orbitRun);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(160);
  char label[48];
  std::snprintf(label, sizeof label, "h = %g s", std::ldexp(1.0, -form.orbitExponent));
  ImGui::SliderInt("step", &form.orbitExponent, 0, 7, label, ImGuiSliderFlags_AlwaysClamp);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(110);
  ImGui::InputInt("duration (s)##orbit", &form.orbitDuration);
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::TextDisabled("rigid body; the seed and the methods of the form above");
  if (!orbits_) {
    ImGui::TextWrapped(
        "Press Run orbits: one random rigid-body case (the same "
        "case as run N of the error curves with this seed) "
        "integrated by each method at one large step, beside "
        "the RK4 truth (Fig. 3: RK4 and RK2 lose the orbit or "
        "blow up at large steps, the LGVI keeps it). Choose the "
        "components to plot below.");
    return;
  }
  ImGui::TextDisabled("%s%s", orbits_->command.c_str(), orbits_->cancelled ? "  (cancelled: nothing computed)" : "");
  const std::vector<std::string>& columns = orbitColumns();
  const std::vector<std::string> figureMethods = problemFor("fig3").methods;
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float width = 0.5f * (ImGui::GetContentRegionAvail().x - gap);
  for (int plot = 0; plot < 2; ++plot) {
    if (plot == 1) ImGui::SameLine(0.0f, gap + width - 290.0f);
    ImGui::PushID(plot);
    ImGui::SetNextItemWidth(140);
    if (ImGui::BeginCombo("component", columns[size_t(orbitComponent_[plot])].c_str())) {
      for (size_t i = 0; i < columns.size(); ++i)
        if (ImGui::Selectable(columns[i].c_str(), int(i) == orbitComponent_[plot])) orbitComponent_[plot] = int(i);
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::Checkbox("log y", &orbitLogY_[plot]);  // a blown-up method's growth
                                                  // would flatten the others
    ImGui::PopID();
  }
  const float height = std::max(220.0f, ImGui::GetContentRegionAvail().y - 10.0f);
  for (int plot = 0; plot < 2; ++plot) {
    if (plot == 1) ImGui::SameLine();
    const size_t k = size_t(orbitComponent_[plot]);
    std::vector<XySeries> series;
    for (const Orbit& o : orbits_->orbits) {
      XySeries s;
      s.name = o.method + (o.blowup ? " (blew up)" : "");
      const size_t index =
          size_t(std::find(figureMethods.begin(), figureMethods.end(), o.method) - figureMethods.begin());
      s.color = o.method == "truth" ? IM_COL32(255, 255, 255, 255) : seriesColor(index);
      s.markers = o.t.size() <= 80;
      for (size_t i = 0; i < o.t.size(); ++i) s.points.push_back({o.t[i], o.values[i][k], PointState::Ok});
      series.push_back(std::move(s));
    }
    XyAxes axes{columns[k] + " over time", "t (s)", columns[k] + (orbitLogY_[plot] ? " (log, > 0 only)" : ""), false,
                orbitLogY_[plot]};
    drawXyPlot(axes, series, width, height);
  }
}

}  // namespace varsim
