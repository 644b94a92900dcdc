// SPOOK tuning panel, shown only for rod scenes (ladder, chain, sleigh): live ε (log slider) and τ (in
// units of h) globally, per constraint group and per picked constraint; the stability warning; the
// conventions readout and entry both ways; the picked joint (click it in the 3-D view) with its own
// violation and force plots; the whiplash profile; solver cost and the ghost steppers' status.
// Global and group values go through SimDriver::setParam like the parameter panel (the ParamSet stays
// the one source); the per-constraint overrides are the scene's and a reset clears them.
#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "engine/sim/errors.h"
#include "ui/app/app_state.h"
#include "ui/app/panels.h"
#include "ui/app/rod_speed_bars.h"
#include "ui/core/rod_panel_data.h"

namespace varsim {

namespace {

const ImVec4 kWarnColor(1.0f, 0.45f, 0.3f, 1.0f), kPickColor(1.0f, 0.85f, 0.25f, 1.0f), kOkColor(0.45f, 0.85f, 0.45f, 1.0f);
constexpr double kPickPixels = 12.0;  // click tolerance around a joint, screen pixels

struct RodPanelState {
  const Scene* scene = nullptr;  // the scene object everything below belongs to
  std::string sceneName;
  int picked = -1;
  std::set<int> overrides;  // constraints given their own ε, τ in this scene object
  ConstraintTrace trace;
  SpeedEnvelope envelope;
  std::map<std::string, std::string> errors;  // widget row → last rejection message
  int conventionTarget = 0;
  double effectiveMass = 1.0;  // kg: 1 = per unit mass
  bool pressedInView = false;
  bool hookInstalled = false;
  PlotView violationView, forceView;
};

RodPanelState& panelState() {
  static RodPanelState state;
  return state;
}

// Runs after every physics step (also with the panels hidden): the picked constraint's trace and the
// whiplash peak are sampled per step, not per frame, so slow frames lose nothing.
void onStep(const Scene& scene) {
  RodPanelState& st = panelState();
  if (&scene != st.scene) return;
  const auto& rod = static_cast<const RodScene&>(scene);
  st.trace.sample(rod);
  st.envelope.update(rod.time(), speedProfile(rod).speeds);
}

// Follows scene changes: another scene drops the pick; a reset of the same scene keeps the picked
// index but the scene object is new, so its overrides are gone (say so) and the traces restart.
RodScene* syncScene(AppState& app) {
  RodPanelState& st = panelState();
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
  if (rod) {
    st.trace.sample(*rod);
    st.envelope.update(rod->time(), speedProfile(*rod).speeds);
  }
  return rod;
}

void showError(const std::string& row) {
  const auto& errors = panelState().errors;
  if (auto it = errors.find(row); it != errors.end()) ImGui::TextColored(kWarnColor, "rejected: %s", it->second.c_str());
}

// Applies an edit, recording (or clearing) the rejection shown under the row.
template <class F>
void tryEdit(const std::string& row, F&& edit) {
  try {
    edit();
    panelState().errors.erase(row);
  } catch (const std::exception& e) {
    panelState().errors[row] = e.what();
  }
}

// ε on a log slider (1e-12 … 1; Ctrl+click types any value, 0 included) and τ in units of h (0 … 20).
bool relaxationSliders(double& epsilon, double& tauOverH) {
  static const double epsLo = 1e-12, epsHi = 1.0, ratioLo = 0.0, ratioHi = 20.0;
  ImGui::TableNextColumn();
  ImGui::SetNextItemWidth(-1);
  bool changed = ImGui::SliderScalar("##eps", ImGuiDataType_Double, &epsilon, &epsLo, &epsHi, "eps %.3g",
                                     ImGuiSliderFlags_Logarithmic);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("compliance eps (m/N for joints); Ctrl+click to type a value (0 = rigid: no redundant rows)");
  ImGui::TableNextColumn();
  ImGui::SetNextItemWidth(-1);
  changed |= ImGui::SliderScalar("##tau", ImGuiDataType_Double, &tauOverH, &ratioLo, &ratioHi, "tau %.3g h");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("stabilisation time tau in steps h (paper default 2)");
  return changed;
}

void drawRelaxationTable(AppState& app, RodScene& rod) {
  RodPanelState& st = panelState();
  const double h = app.driver.h();
  const ParamSet& params = app.driver.params();
  std::vector<RelaxationTarget> targets{{RelaxationTarget::Kind::Global, "", -1}};
  for (const auto& g : tunableGroups(rod, params)) targets.push_back({RelaxationTarget::Kind::Group, g, -1});
  if (st.picked >= 0) targets.push_back({RelaxationTarget::Kind::Constraint, "", st.picked});
  if (!ImGui::BeginTable("relax", 4, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) return;
  ImGui::TableSetupColumn("target", ImGuiTableColumnFlags_WidthFixed, 96.0f);
  ImGui::TableSetupColumn("eps", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("tau", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("note", ImGuiTableColumnFlags_WidthFixed, 64.0f);
  for (const RelaxationTarget& t : targets) {
    const std::string row = t.kind == RelaxationTarget::Kind::Global ? "global"
                            : t.kind == RelaxationTarget::Kind::Group ? t.group
                                                                      : rod.constraintStatus(t.constraint).name;
    ImGui::PushID(row.c_str());
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (t.kind == RelaxationTarget::Kind::Constraint) ImGui::TextColored(kPickColor, "%s", row.c_str());
    else ImGui::TextUnformatted(row.c_str());
    SpookParameters p = targetRelaxation(rod, params, t);
    double ratio = p.tau / h;
    if (relaxationSliders(p.epsilon, ratio))
      tryEdit(row, [&] {
        applyTargetRelaxation(app.driver, rod, t, {p.epsilon, ratio * h});
        if (t.kind == RelaxationTarget::Kind::Constraint) st.overrides.insert(t.constraint);
      });
    ImGui::TableNextColumn();
    if (t.kind == RelaxationTarget::Kind::Group) {
      ImGui::TextDisabled("x%.3g x%.3g", params.real("eps_" + t.group), params.real("tau_" + t.group));
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("multipliers eps_%s, tau_%s of the global values", t.group.c_str(), t.group.c_str());
    } else if (t.kind == RelaxationTarget::Kind::Constraint && rod.constraintStatus(t.constraint).overridden) {
      if (ImGui::SmallButton("clear")) {
        rod.clearConstraintRelaxation(t.constraint);
        st.overrides.erase(t.constraint);
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("back to the group value");
    } else if (t.kind == RelaxationTarget::Kind::Constraint) {
      ImGui::TextDisabled("group");
    }
    if (st.errors.count(row)) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(1);
      showError(row);
    }
    ImGui::PopID();
  }
  ImGui::EndTable();
  if (const ParamSpec* gamma = params.spec("gamma")) {
    ImGui::SetNextItemWidth(-90);
    drawParamWidget(app, *gamma);
  }
  if (!rod.profile())
    ImGui::TextDisabled("main stepper is %s: eps, tau act on the SPOOK ghost only", params.choice("stepper").c_str());
}

void drawConventions(AppState& app, RodScene& rod) {
  RodPanelState& st = panelState();
  const double h = app.driver.h();
  const ParamSet& params = app.driver.params();
  std::vector<RelaxationTarget> targets{{RelaxationTarget::Kind::Global, "", -1}};
  std::vector<std::string> names{"global"};
  for (const auto& g : tunableGroups(rod, params)) {
    targets.push_back({RelaxationTarget::Kind::Group, g, -1});
    names.push_back("group " + g);
  }
  if (st.picked >= 0) {
    targets.push_back({RelaxationTarget::Kind::Constraint, "", st.picked});
    names.push_back("picked " + rod.constraintStatus(st.picked).name);
  }
  if (st.conventionTarget >= int(targets.size())) st.conventionTarget = 0;
  ImGui::SetNextItemWidth(150);
  if (ImGui::BeginCombo("of", names[size_t(st.conventionTarget)].c_str())) {
    for (size_t i = 0; i < names.size(); ++i)
      if (ImGui::Selectable(names[i].c_str(), int(i) == st.conventionTarget)) st.conventionTarget = int(i);
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  double mass = st.effectiveMass;
  if (ImGui::InputDouble("m [kg]", &mass, 0, 0, "%.4g", ImGuiInputTextFlags_EnterReturnsTrue))
    tryEdit("mass", [&] {
      toConvention(Convention::SpringDamperPerMass, {1, 1}, h, mass);  // validates m
      st.effectiveMass = mass;
    });
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("effective mass for k/m, c/m, MuJoCo and Box2D (1 kg = per unit mass)");
  showError("mass");
  const RelaxationTarget& target = targets[size_t(st.conventionTarget)];
  const SpookParameters p = targetRelaxation(rod, params, target);
  ImGui::TextDisabled("eps = %.3g, tau = %.4g s = %.3g h, h = %.4g s; edit a value + Enter to set eps, tau", p.epsilon,
                      p.tau, p.tau / h, h);
  if (!ImGui::BeginTable("conv", 3, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) return;
  ImGui::TableSetupColumn("convention", ImGuiTableColumnFlags_WidthFixed, 96.0f);
  for (Convention c : kConventions) {
    const ConventionInfo info = conventionInfo(c);
    ImGui::PushID(info.name);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(info.name);
    std::array<double, 2> ab{NAN, NAN};
    std::string unavailable;
    try {
      ab = toConvention(c, p, h, st.effectiveMass);
    } catch (const BadInput& e) {
      unavailable = e.what();
    }
    for (int k = 0; k < 2; ++k) {
      ImGui::TableNextColumn();
      ImGui::SetNextItemWidth(-1);
      const std::string format = std::string(k ? info.labelB : info.labelA) + " %.5g";
      double v = ab[size_t(k)];
      if (ImGui::InputDouble(k ? "##b" : "##a", &v, 0, 0, format.c_str(), ImGuiInputTextFlags_EnterReturnsTrue)) {
        std::array<double, 2> edited = ab;
        edited[size_t(k)] = v;
        tryEdit(info.name, [&] {
          applyTargetRelaxation(app.driver, rod, target, fromConvention(c, edited, h, st.effectiveMass));
          if (target.kind == RelaxationTarget::Kind::Constraint) st.overrides.insert(target.constraint);
        });
      }
      if (ImGui::IsItemHovered() && !unavailable.empty()) ImGui::SetTooltip("%s", unavailable.c_str());
      else if (ImGui::IsItemHovered() && c == Convention::OdeErpCfm)
        ImGui::SetTooltip("CFM = 4 eps/(h + 4 tau), ERP = 4h/(h + 4 tau); ERP <= 1 needs tau >= 3h/4.\n"
                          "ODE has no Upsilon G v_k term, so the same ERP/CFM is not the same stepper.");
    }
    if (panelState().errors.count(info.name)) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(1);
      showError(info.name);
    }
    ImGui::PopID();
  }
  ImGui::EndTable();
}

// Picking: a click (press and release without dragging) in the 3-D view picks the joint or pin
// nearest the mouse ray within kPickPixels; hovering rings the candidate.
void handlePicking(AppState& app, RodScene& rod) {
  RodPanelState& st = panelState();
  const ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) st.pressedInView = !io.WantCaptureMouse;
  if (io.WantCaptureMouse && !ImGui::IsMouseReleased(ImGuiMouseButton_Left)) return;
  const int w = int(io.DisplaySize.x), h = int(io.DisplaySize.y);
  if (w <= 0 || h <= 0) return;
  glm::vec3 o, d;
  app.camera.pixelRay(io.MousePos.x, io.MousePos.y, w, h, o, d);
  const double pixelAngle = std::atan(2.0 * std::tan(0.5 * app.camera.fovY) / h);
  const int candidate = pickJointOnRay(rod, {o.x, o.y, o.z}, {d.x, d.y, d.z}, kPickPixels * pixelAngle);
  glm::vec2 px;
  if (candidate >= 0 && candidate != st.picked && !io.WantCaptureMouse) {
    const Eigen::Vector3d p = rod.jointPosition(candidate);
    if (app.camera.project({float(p.x()), float(p.y()), float(p.z())}, w, h, px))
      ImGui::GetBackgroundDrawList()->AddCircle(ImVec2(px.x, px.y), 9.0f, IM_COL32(255, 255, 255, 150), 20, 1.5f);
  }
  if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) && st.pressedInView && io.MouseDragMaxDistanceSqr[0] < 16.0f &&
      candidate >= 0 && candidate != st.picked) {
    st.picked = candidate;
    st.trace.reset(candidate);
    st.trace.sample(rod);
  }
}

// Ring and label on the picked joint, over the 3-D scene and under the panels.
void drawPickMarker(AppState& app, const RodScene& rod) {
  const RodPanelState& st = panelState();
  if (st.picked < 0) return;
  const ImGuiIO& io = ImGui::GetIO();
  const Eigen::Vector3d p = rod.jointPosition(st.picked);
  glm::vec2 px;
  if (!app.camera.project({float(p.x()), float(p.y()), float(p.z())}, int(io.DisplaySize.x), int(io.DisplaySize.y), px))
    return;
  const RodScene::ConstraintStatus s = rod.constraintStatus(st.picked);
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const ImU32 col = ImGui::ColorConvertFloat4ToU32(kPickColor);
  dl->AddCircle(ImVec2(px.x, px.y), 11.0f, IM_COL32(0, 0, 0, 160), 24, 4.0f);
  dl->AddCircle(ImVec2(px.x, px.y), 11.0f, col, 24, 2.0f);
  char label[160];
  std::snprintf(label, sizeof label, "%s  gap %.2e m  F %.4g N", s.name.c_str(), s.violation, s.force);
  dl->AddText(ImVec2(px.x + 15, px.y - 7), IM_COL32(0, 0, 0, 200), label);
  dl->AddText(ImVec2(px.x + 14, px.y - 8), col, label);
}

void drawPickedSection(AppState& app, RodScene& rod) {
  RodPanelState& st = panelState();
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
              s.force, s.overridden ? "   (own eps, tau)" : "");
  const double tEnd = app.freezePlots ? app.frozenTime : st.trace.data().newestTime();
  const TimeWindow window = timeWindow(tEnd, app.settings.plotWindow);
  const double marker = app.driver.atPresent() ? -1.0 : rod.time();
  drawPlot(PlotSpec{"picked gap (m)", {"violation"}, true}, st.trace.data(), window, st.violationView, marker, 110.0f);
  drawPlot(PlotSpec{"picked force (N)", {"force"}, false}, st.trace.data(), window, st.forceView, marker, 110.0f);
}

void drawSolverAndGhosts(const RodScene& rod) {
  const RodDiagnostics d = rodDiagnostics(rod.system(), rod.state());
  ImGui::Text("max rod speed %.3g m/s   joint gap rms %.2e m, max %.2e m", d.maxSpeed, d.constraintRms, d.constraintMax);
  if (const SpookProfile* p = rod.profile()) {
    ImGui::Text("linear solve %.0f us (factor %.0f + solve %.0f), step %.0f us", p->factorUs + p->solveUs, p->factorUs,
                p->solveUs, p->stepUs);
    ImGui::Text("factor nnz %ld, matrix nnz %ld, fill x%.2f, symbolic analyses %ld", p->factorNnz, p->matrixNnz,
                p->matrixNnz > 0 ? double(p->factorNnz) / double(p->matrixNnz) : 0.0, p->analyses);
  }
  const auto ghosts = rod.ghosts();
  if (ghosts.empty()) {
    ImGui::TextDisabled("ghosts off (parameter 'ghosts', applies on reset)");
    return;
  }
  if (!ImGui::BeginTable("ghosts", 4, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) return;
  for (const char* h : {"ghost", "status", "E - E_main (J)", "joint rms (m)"}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (const auto& g : ghosts) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(g.stepper.c_str());
    ImGui::TableNextColumn();
    // Divergence indicator: red once frozen, amber while the ghost's joints are visibly apart.
    if (g.diverged) ImGui::TextColored(kWarnColor, "DIVERGED t=%.3g s", g.divergedAt);
    else if (g.constraintRms > 1e-2) ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "drifting");
    else ImGui::TextColored(kOkColor, "running");
    if (ImGui::IsItemHovered() && !g.message.empty()) ImGui::SetTooltip("%s", g.message.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%+.4g", g.energy - d.energy);
    ImGui::TableNextColumn();
    ImGui::Text("%.2e", g.constraintRms);
  }
  ImGui::EndTable();
}

}  // namespace

void drawRodPanel(AppState& app) {
  RodScene* rod = syncScene(app);
  if (!rod) return;
  drawPickMarker(app, *rod);
  handlePicking(app, *rod);
  RodPanelState& st = panelState();
  const ImGuiIO& io = ImGui::GetIO();
  const float left = 340.0f, right = std::min(460.0f, 0.36f * io.DisplaySize.x) + 10.0f;
  ImGui::SetNextWindowPos(ImVec2(left, 0.5f * io.DisplaySize.y), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(std::max(380.0f, io.DisplaySize.x - left - right), 0.5f * io.DisplaySize.y - 10.0f),
                           ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("SPOOK tuning")) {
    ImGui::End();
    return;
  }
  if (const std::string w = rod->stabilityWarning(); !w.empty()) {
    ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(110, 25, 15, 255));
    ImGui::BeginChild("warning", ImVec2(0, 3.2f * ImGui::GetTextLineHeightWithSpacing()), true);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1, 0.9f, 0.5f, 1), "OUTSIDE THE MEASURED STABLE REGION (values used as set, not clamped): %s",
                       w.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
    ImGui::PopStyleColor();
  }
  if (ImGui::CollapsingHeader("Relaxation: eps, tau", ImGuiTreeNodeFlags_DefaultOpen)) drawRelaxationTable(app, *rod);
  if (ImGui::CollapsingHeader("Conventions (both ways)", ImGuiTreeNodeFlags_DefaultOpen)) drawConventions(app, *rod);
  if (ImGui::CollapsingHeader("Picked joint", ImGuiTreeNodeFlags_DefaultOpen)) drawPickedSection(app, *rod);
  if (ImGui::CollapsingHeader("Whiplash profile", ImGuiTreeNodeFlags_DefaultOpen))
    drawSpeedBars(speedProfile(*rod), st.envelope, 120.0f);
  if (ImGui::CollapsingHeader("Solver and ghosts", ImGuiTreeNodeFlags_DefaultOpen)) drawSolverAndGhosts(*rod);
  ImGui::End();
}

}  // namespace varsim
