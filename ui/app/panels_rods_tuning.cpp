// The eps/tau and conventions tabs of the SPOOK tuning panel: ε on a log slider and τ in units of h
// for the global values, each constraint group and the picked constraint; the conventions readout of
// a chosen target, editable both ways. Global and group values go through SimDriver::setParam (the
// ParamSet stays the one source), the picked constraint through the scene's override.
#include <cmath>

#include "engine/sim/errors.h"
#include "ui/app/panels.h"
#include "ui/app/panels_rods.h"

namespace varsim {

namespace {

// ε on a log slider (1e-12 … 1; Ctrl+click types any value, 0 included) and τ in units of h (0 … 20).
bool relaxationSliders(double& epsilon, double& tauOverH) {
  static const double epsLo = 1e-12, epsHi = 1.0, ratioLo = 0.0, ratioHi = 20.0;
  ImGui::TableNextColumn();
  ImGui::SetNextItemWidth(-1);
  bool changed = ImGui::SliderScalar("##eps", ImGuiDataType_Double, &epsilon, &epsLo, &epsHi, "ε %.3g",
                                     ImGuiSliderFlags_Logarithmic);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("compliance eps (m/N for joints); Ctrl+click to type a value (0 = rigid: no redundant rows)");
  ImGui::TableNextColumn();
  ImGui::SetNextItemWidth(-1);
  changed |= ImGui::SliderScalar("##tau", ImGuiDataType_Double, &tauOverH, &ratioLo, &ratioHi, "τ %.3g h");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("stabilisation time tau in steps h (paper default 2)");
  return changed;
}

}  // namespace

void drawRelaxationTab(AppState& app, RodScene& rod) {
  RodPanelState& st = rodPanelState();
  const double h = app.driver.h();
  const ParamSet& params = app.driver.params();
  std::vector<RelaxationTarget> targets{{RelaxationTarget::Kind::Global, "", -1}};
  for (const auto& g : tunableGroups(rod, params)) targets.push_back({RelaxationTarget::Kind::Group, g, -1});
  // Per-constraint values are the SPOOK stepper's; a baseline main stepper has none to show.
  if (st.picked >= 0 && rod.profile()) targets.push_back({RelaxationTarget::Kind::Constraint, "", st.picked});
  if (!ImGui::BeginTable("relax", 4, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) return;
  ImGui::TableSetupColumn("target", ImGuiTableColumnFlags_WidthFixed, 96.0f);
  ImGui::TableSetupColumn("eps", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("tau", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("note", ImGuiTableColumnFlags_WidthFixed, 64.0f);
  for (const RelaxationTarget& t : targets) {
    const std::string row = t.kind == RelaxationTarget::Kind::Global ? "global"
                            : t.kind == RelaxationTarget::Kind::Group ? t.group
                                                                      : shortName(rod.constraintStatus(t.constraint).name);
    ImGui::PushID(row.c_str());
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (t.kind == RelaxationTarget::Kind::Constraint) {
      ImGui::TextColored(kPickColor, "%s", row.c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (picked)", rod.constraintStatus(t.constraint).name.c_str());
    } else {
      ImGui::TextUnformatted(row.c_str());
    }
    SpookParameters p = targetRelaxation(rod, params, t);
    double ratio = p.tau / h;
    if (relaxationSliders(p.epsilon, ratio))
      tryRodPanelEdit(row, [&] {
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
      showRodPanelError(row);
    }
    ImGui::PopID();
  }
  ImGui::EndTable();
  if (st.picked < 0 && !rod.system().jointConstraintIndices().empty())
    ImGui::TextDisabled("click a joint in the 3-D view to give it its own ε, τ");
  if (const ParamSpec* gamma = params.spec("gamma")) {
    ImGui::SetNextItemWidth(-90);
    drawParamWidget(app, *gamma);
  }
  if (!rod.profile())
    ImGui::TextDisabled("main stepper is %s: eps, tau act on the SPOOK ghost only", params.choice("stepper").c_str());
}

void drawConventionsTab(AppState& app, RodScene& rod) {
  RodPanelState& st = rodPanelState();
  const double h = app.driver.h();
  const ParamSet& params = app.driver.params();
  std::vector<RelaxationTarget> targets{{RelaxationTarget::Kind::Global, "", -1}};
  std::vector<std::string> names{"global"};
  for (const auto& g : tunableGroups(rod, params)) {
    targets.push_back({RelaxationTarget::Kind::Group, g, -1});
    names.push_back("group " + g);
  }
  if (st.picked >= 0 && rod.profile()) {
    targets.push_back({RelaxationTarget::Kind::Constraint, "", st.picked});
    names.push_back("picked " + shortName(rod.constraintStatus(st.picked).name));
  }
  if (st.conventionTarget >= int(targets.size())) st.conventionTarget = 0;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("(eps, tau) of");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(150);
  if (ImGui::BeginCombo("##target", names[size_t(st.conventionTarget)].c_str())) {
    for (size_t i = 0; i < names.size(); ++i)
      if (ImGui::Selectable(names[i].c_str(), int(i) == st.conventionTarget)) st.conventionTarget = int(i);
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  double mass = st.effectiveMass;
  if (ImGui::InputDouble("m [kg]", &mass, 0, 0, "%.4g", ImGuiInputTextFlags_EnterReturnsTrue))
    tryRodPanelEdit("mass", [&] {
      toConvention(Convention::SpringDamperPerMass, {1, 1}, h, mass);  // validates m
      st.effectiveMass = mass;
    });
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("effective mass for k/m, c/m, MuJoCo and Box2D (1 kg = per unit mass)");
  showRodPanelError("mass");
  const RelaxationTarget& target = targets[size_t(st.conventionTarget)];
  const SpookParameters p = targetRelaxation(rod, params, target);
  ImGui::TextDisabled("ε %.3g, τ %.3g h = %.4g s; type a value + Enter to set", p.epsilon, p.tau / h, p.tau);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("h = %.6g s. Each row is the same (eps, tau) in another convention; editing one value keeps the\n"
                      "other of its row and sets eps, tau of the chosen target (rejected values are named, never clamped).",
                      h);
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
        tryRodPanelEdit(info.name, [&] {
          applyTargetRelaxation(app.driver, rod, target, fromConvention(c, edited, h, st.effectiveMass));
          if (target.kind == RelaxationTarget::Kind::Constraint) st.overrides.insert(target.constraint);
        });
      }
      if (ImGui::IsItemHovered() && !unavailable.empty()) ImGui::SetTooltip("%s", unavailable.c_str());
      else if (ImGui::IsItemHovered() && c == Convention::OdeErpCfm)
        ImGui::SetTooltip("CFM = 4 eps/(h + 4 tau), ERP = 4h/(h + 4 tau); ERP <= 1 needs tau >= 3h/4.\n"
                          "ODE has no Upsilon G v_k term, so the same ERP/CFM is not the same stepper.");
    }
    if (rodPanelState().errors.count(info.name)) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(1);
      showRodPanelError(info.name);
    }
    ImGui::PopID();
  }
  ImGui::EndTable();
}

}  // namespace varsim
