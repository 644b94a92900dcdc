// SPOOK tuning panel, shown only for rod scenes (ladder, chain, sleigh): the window with the stability
// warning, a status line and tabs (eps/tau and conventions in panels_rods_tuning.cpp; the picked joint
// with its gap and force plots, the whiplash profile, solver cost and ghost status here), picking a
// joint by clicking it in the 3-D view, and the per-step sampling hook. The per-constraint overrides
// belong to the scene object, so a reset clears them (and says so).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/app/panels.h"
#include "ui/app/panels_rods.h"
#include "ui/app/rod_speed_bars.h"

namespace varsim {

RodPanelState& rodPanelState() {
  static RodPanelState state;
  return state;
}

std::string shortName(const std::string& name) { return name.substr(0, name.find(':')); }

void showRodPanelError(const std::string& row) {
  const auto& errors = rodPanelState().errors;
  if (auto it = errors.find(row); it != errors.end()) ImGui::TextColored(kWarnColor, "rejected: %s", it->second.c_str());
}

namespace {

constexpr double kPickPixels = 12.0;  // click tolerance around a joint, screen pixels

// Runs after every physics step (also with the panels hidden): the picked constraint's trace and the
// whiplash peak are sampled per step, not per frame, so slow frames lose nothing.
void onStep(const Scene& scene) {
  RodPanelState& st = rodPanelState();
  if (&scene != st.scene) return;
  const auto& rod = static_cast<const RodScene&>(scene);
  st.trace.sample(rod);
  st.envelope.update(rod.time(), speedProfile(rod).speeds);
  // Latch the first energy growth of each ghost (it may swing back below E(0) before freezing);
  // a rewind before that moment forgets it.
  for (const auto& g : rod.ghosts()) {
    auto it = st.ghostGrowthAt.find(g.stepper);
    if (it != st.ghostGrowthAt.end() && rod.time() < it->second) st.ghostGrowthAt.erase(it);
    if (ghostHealth(g, st.initialEnergy) == GhostHealth::EnergyGrowth) st.ghostGrowthAt.emplace(g.stepper, rod.time());
  }
}

// Diverged, else gained energy at some step so far, else running.
GhostHealth latchedHealth(const RodScene::GhostStatus& g) {
  const RodPanelState& st = rodPanelState();
  const GhostHealth now = ghostHealth(g, st.initialEnergy);
  return now == GhostHealth::Running && st.ghostGrowthAt.count(g.stepper) ? GhostHealth::EnergyGrowth : now;
}

// Follows scene changes: another scene drops the pick; a reset of the same scene keeps the picked
// index but the scene object is new, so its overrides are gone (say so) and the traces restart.
RodScene* syncScene(AppState& app) {
  RodPanelState& st = rodPanelState();
  if (!st.hookInstalled) {
    app.driver.afterStep = [previous = app.driver.afterStep](long step, const Scene& s) {
      if (previous) previous(step, s);
      onStep(s);
    };
    st.hookInstalled = true;
  }
  auto* rod = app.driver.loaded() ? dynamic_cast<RodScene*>(&app.driver.scene()) : nullptr;
  if (rod == st.scene) return rod;
  if (!st.overrides.empty() && rod && st.sceneName == app.driver.sceneName())
    app.notify("reset cleared the per-constraint eps/tau overrides (" + std::to_string(st.overrides.size()) + ")");
  const bool same = rod && st.sceneName == app.driver.sceneName() && st.picked < rod->constraintCount();
  st.scene = rod;
  st.sceneName = rod ? app.driver.sceneName() : "";
  if (!same) st.picked = -1;
  st.overrides.clear();
  st.errors.clear();
  st.envelope = SpeedEnvelope{};
  st.conventionTarget = 0;
  st.pressedInView = false;
  st.trace.reset(st.picked);
  st.initialEnergy = rod ? rodDiagnostics(rod->system(), rod->state()).energy : 0.0;
  st.ghostGrowthAt.clear();
  if (rod) {
    st.trace.sample(*rod);
    st.envelope.update(rod->time(), speedProfile(*rod).speeds);
  }
  return rod;
}

// Picking: a click (press and release without dragging) in the 3-D view picks the joint or pin
// nearest the mouse ray within kPickPixels; hovering rings the candidate. Pixels are taken relative
// to the view rectangle, whose size and aspect the camera renders with.
void handlePicking(AppState& app, RodScene& rod) {
  RodPanelState& st = rodPanelState();
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
  const int candidate = pickJointOnRay(rod, {o.x, o.y, o.z}, {d.x, d.y, d.z}, kPickPixels * pixelAngle);
  glm::vec2 px;
  if (candidate >= 0 && candidate != st.picked && !io.WantCaptureMouse) {
    const Eigen::Vector3d p = rod.jointPosition(candidate);
    if (app.camera.project({float(p.x()), float(p.y()), float(p.z())}, w, h, px))
      ImGui::GetBackgroundDrawList()->AddCircle(ImVec2(view.x + px.x, view.y + px.y), 9.0f, IM_COL32(255, 255, 255, 150), 20, 1.5f);
  }
  if (released && st.pressedInView && io.MouseDragMaxDistanceSqr[0] < 16.0f && candidate >= 0 && candidate != st.picked) {
    st.picked = candidate;
    st.trace.reset(candidate);
    st.trace.sample(rod);
  }
}

// Ring and label on the picked joint, over the 3-D scene and under the panels.
void drawPickMarker(AppState& app, const RodScene& rod) {
  const RodPanelState& st = rodPanelState();
  if (st.picked < 0) return;
  const ScreenRect& view = app.view;
  const Eigen::Vector3d p = rod.jointPosition(st.picked);
  glm::vec2 px;
  if (!app.camera.project({float(p.x()), float(p.y()), float(p.z())}, int(view.w), int(view.h), px)) return;
  px += glm::vec2(view.x, view.y);
  const RodScene::ConstraintStatus s = rod.constraintStatus(st.picked);
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const ImU32 col = ImGui::ColorConvertFloat4ToU32(kPickColor);
  dl->AddCircle(ImVec2(px.x, px.y), 11.0f, IM_COL32(0, 0, 0, 160), 24, 4.0f);
  dl->AddCircle(ImVec2(px.x, px.y), 11.0f, col, 24, 2.0f);
  char label[160];
  std::snprintf(label, sizeof label, "%s  gap %.2e m  F %.4g N", shortName(s.name).c_str(), s.violation, s.force);
  // Right of the ring; when that would run out of the view (under the plots column), to the left and
  // raised clear of the ring, so it sits neither on a horizontal rail nor on a hanging ladder.
  const float textW = ImGui::CalcTextSize(label).x;
  const bool flip = px.x + 14.0f + textW > view.x + view.w;
  const float x = flip ? px.x - 12.0f - textW : px.x + 14.0f, y = flip ? px.y - 26.0f : px.y - 8.0f;
  dl->AddText(ImVec2(x + 1, y + 1), IM_COL32(0, 0, 0, 200), label);
  dl->AddText(ImVec2(x, y), col, label);
}

void drawPickedSection(AppState& app, RodScene& rod) {
  RodPanelState& st = rodPanelState();
  const auto joints = rod.system().jointConstraintIndices();
  if (joints.empty()) {
    ImGui::TextDisabled("this scene has no joints or pins to pick");
    return;
  }
  const std::string current = st.picked >= 0 ? rod.constraintStatus(st.picked).name : "click a joint in the 3-D view";
  ImGui::SetNextItemWidth(220);
  if (ImGui::BeginCombo("picked", current.c_str())) {
    ImGuiListClipper clipper;
    clipper.Begin(int(joints.size()));
    while (clipper.Step())
      for (int k = clipper.DisplayStart; k < clipper.DisplayEnd; ++k) {
        const int i = joints[size_t(k)];
        if (ImGui::Selectable((rod.constraintStatus(i).name + "##" + std::to_string(i)).c_str(), i == st.picked)) {
          st.picked = i;
          st.trace.reset(i);
          st.trace.sample(rod);
        }
      }
    ImGui::EndCombo();
  }
  if (st.picked < 0) return;
  ImGui::SameLine();
  if (ImGui::SmallButton("unpick")) {
    st.picked = -1;
    st.trace.reset(-1);
    return;
  }
  const RodScene::ConstraintStatus s = rod.constraintStatus(st.picked);
  ImGui::Text("group %s   gap %.3e m   force %.5g N%s", rod.system().groupNames().at(size_t(s.group)).c_str(), s.violation,
              s.force, s.overridden ? "   (own ε, τ)" : "");
  const double tEnd = app.freezePlots ? app.frozenTime : st.trace.data().newestTime();
  const TimeWindow window = timeWindow(tEnd, app.settings.plotWindow);
  const double marker = app.driver.atPresent() ? -1.0 : rod.time();
  // Side by side; each plot puts a toolbar and a legend line above its canvas.
  const float canvas = std::max(70.0f, ImGui::GetContentRegionAvail().y - 2.3f * ImGui::GetFrameHeightWithSpacing());
  if (!ImGui::BeginTable("pickedplots", 2, ImGuiTableFlags_SizingStretchSame)) return;
  ImGui::TableNextColumn();
  drawPlot(PlotSpec{"picked gap (m)", {"gap (m)"}, true}, st.trace.data(), window, st.violationView, marker, canvas);
  ImGui::TableNextColumn();
  drawPlot(PlotSpec{"picked force (N)", {"force (N)"}, false}, st.trace.data(), window, st.forceView, marker, canvas);
  ImGui::EndTable();
}

void drawSolverAndGhosts(const RodScene& rod) {
  const RodDiagnostics d = rodDiagnostics(rod.system(), rod.state());
  ImGui::Text("joint gap rms %.2e m, max %.2e m; unit rms %.2e", d.constraintRms, d.constraintMax, d.unitRms);
  if (const SpookProfile* p = rod.profile()) {
    ImGui::Text("solve %.0f us (factor %.0f + solve %.0f); assembly %.0f us; step %.0f us", p->factorUs + p->solveUs,
                p->factorUs, p->solveUs, p->assemblyUs, p->stepUs);
    ImGui::Text("factor nnz %ld / matrix nnz %ld = fill x%.2f; analyses %ld", p->factorNnz, p->matrixNnz,
                p->matrixNnz > 0 ? double(p->factorNnz) / double(p->matrixNnz) : 0.0, p->analyses);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("symbolic analyses: one per sparsity pattern (reused every step)");
  }
  const auto ghosts = rod.ghosts();
  if (ghosts.empty()) {
    ImGui::TextDisabled("ghosts off (parameter 'ghosts', applies on reset)");
    return;
  }
  const double e0 = rodPanelState().initialEnergy;
  if (!ImGui::BeginTable("ghosts", 5, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) return;
  for (const char* h : {"ghost", "status", "E-E(0) J", "E-E_main J", "gap rms m"}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (const auto& g : ghosts) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(g.stepper.c_str());
    ImGui::TableNextColumn();
    // Divergence indicator: red once frozen, amber while gaining energy (see ghostHealth).
    switch (latchedHealth(g)) {
      case GhostHealth::Diverged: ImGui::TextColored(kWarnColor, "DIVERGED %.3g s", g.divergedAt); break;
      case GhostHealth::EnergyGrowth:
        ImGui::TextColored(kDriftColor, "E > E(0) %.3g s", rodPanelState().ghostGrowthAt.count(g.stepper)
                                                               ? rodPanelState().ghostGrowthAt.at(g.stepper) : rod.time());
        break;
      case GhostHealth::Running: ImGui::TextColored(kOkColor, "running"); break;
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", g.message.empty() ? "amber: its energy rose above E(0) + 0.1% at the time shown (neither baseline "
                                                  "may gain energy); red: frozen at a divergence"
                                                : g.message.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%+.4g", g.energy - e0);
    ImGui::TableNextColumn();
    ImGui::Text("%+.4g", g.energy - d.energy);
    ImGui::TableNextColumn();
    ImGui::Text("%.1e", g.constraintRms);
  }
  ImGui::EndTable();
}

// Shown above the tabs whenever a group or override is outside the measured stable region.
// Identical texts are merged ("joints, unit, pins: ..."); the box grows with the text up to 6 lines.
void drawStabilityWarning(AppState& app, const RodScene& rod) {
  const auto lines = stabilityWarningLines(rod, app.driver.params(), rodPanelState().overrides);
  if (lines.empty()) return;
  std::string text = "OUTSIDE THE MEASURED STABLE REGION (used as set, not clamped):";
  for (const auto& l : lines) text += "\n" + l;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float wrap = ImGui::GetContentRegionAvail().x - 2.0f * style.WindowPadding.x - style.ScrollbarSize;
  const float textH = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y;
  const float height = std::min(textH, 6.0f * ImGui::GetTextLineHeight()) + 2.0f * style.WindowPadding.y;
  ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(120, 28, 18, 255));
  ImGui::BeginChild("warning", ImVec2(0, height), true);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextColored(ImVec4(1, 0.9f, 0.5f, 1), "%s", text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
  ImGui::PopStyleColor();
}

// Two lines that stay visible whatever tab is open (what reacts to the tuning at once): the main
// stepper's figures, then the ghosts. A fixed layout keeps the tabs from jumping as texts change.
void drawStatusLines(const RodScene& rod) {
  auto piece = [](bool first, const ImVec4& color, const std::string& text) {
    if (!first) {
      ImGui::SameLine();
      if (ImGui::CalcTextSize(text.c_str()).x > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
    }
    ImGui::TextColored(color, "%s", text.c_str());
  };
  const RodDiagnostics d = rodDiagnostics(rod.system(), rod.state());
  const SpookProfile* p = rod.profile();
  if (p)
    ImGui::Text("max speed %.3g m/s | gap rms %.1e m | solve %.0f us | fill x%.2f", d.maxSpeed, d.constraintRms,
                p->factorUs + p->solveUs, p->matrixNnz > 0 ? double(p->factorNnz) / double(p->matrixNnz) : 0.0);
  else
    ImGui::Text("max speed %.3g m/s | gap rms %.1e m | no SPOOK solve (baseline)", d.maxSpeed, d.constraintRms);
  const auto ghosts = rod.ghosts();
  if (ghosts.empty()) {
    ImGui::TextDisabled("ghosts off");
    return;
  }
  bool first = true;
  for (const auto& g : ghosts) {
    const GhostHealth health = latchedHealth(g);
    piece(first, health == GhostHealth::Diverged ? kWarnColor : health == GhostHealth::EnergyGrowth ? kDriftColor : kOkColor,
          "ghost " + g.stepper + (health == GhostHealth::Diverged       ? ": DIVERGED "
                                  : health == GhostHealth::EnergyGrowth ? ": gained energy "
                                                                        : ": ok "));
    first = false;
  }
}

}  // namespace

void drawRodPanel(AppState& app) {
  RodScene* rod = syncScene(app);
  if (!rod) return;
  RodPanelState& st = rodPanelState();
  const ImGuiIO& io = ImGui::GetIO();
  // Default place: along the bottom between the left column and the plots (panelRect), so the 3-D
  // view above it stays clear; the notices then sit at the bottom of the view, above this window.
  const PanelRect r = panelRect("SPOOK tuning", io.DisplaySize.x, io.DisplaySize.y);
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_FirstUseEver);
  const bool expanded = ImGui::Begin("SPOOK tuning");
  notePanelBox(app);
  if (!expanded) {
    ImGui::End();
    return;
  }
  drawStabilityWarning(app, *rod);
  drawStatusLines(*rod);
  if (ImGui::BeginTabBar("rodtabs")) {
    if (ImGui::BeginTabItem("ε, τ")) {
      drawRelaxationTab(app, *rod);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Conventions")) {
      drawConventionsTab(app, *rod);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Picked joint")) {
      drawPickedSection(app, *rod);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Whiplash")) {
      drawSpeedBars(speedProfile(*rod), st.envelope, std::max(90.0f, ImGui::GetContentRegionAvail().y - 40.0f));
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Solver, ghosts")) {
      drawSolverAndGhosts(*rod);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::End();
}

void drawRodViewMarks(AppState& app) {
  RodScene* rod = app.driver.loaded() ? dynamic_cast<RodScene*>(&app.driver.scene()) : nullptr;
  if (!rod || rod != rodPanelState().scene) return;  // drawRodPanel syncs the panel state first
  drawPickMarker(app, *rod);
  handlePicking(app, *rod);
}

}  // namespace varsim
