// The SPOOK tuning panel as data: header (warning, status lines) and the five tabs; see header.
// Actions, samples and picking are in rod_panel_actions.cpp.
#include "scenes/rods/rod_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "scenes/rods/rod_tuning.h"

namespace varsim {

namespace {

constexpr double kSpeedFullScale = 50.0;  // m/s at full red: the scale RodScene::draw colours the rods with

template <class... A>
std::string fmt(const char* f, A... a) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a...);
  return buf;
}

PanelTone healthTone(GhostHealth h) {
  return h == GhostHealth::Diverged ? PanelTone::Warn : h == GhostHealth::EnergyGrowth ? PanelTone::Drift : PanelTone::Ok;
}

std::string targetKey(const RelaxationTarget& t) {
  switch (t.kind) {
    case RelaxationTarget::Kind::Global: return "global";
    case RelaxationTarget::Kind::Group: return "g:" + t.group;
    case RelaxationTarget::Kind::Constraint: return "c:" + std::to_string(t.constraint);
  }
  return "";
}

// Global, each tunable group, and the picked constraint when the main stepper is SPOOK (a baseline
// has no per-constraint values to show).
std::vector<RelaxationTarget> targets(const RodScene& scene, int picked) {
  std::vector<RelaxationTarget> out{{RelaxationTarget::Kind::Global, "", -1}};
  for (const auto& g : tunableGroups(scene)) out.push_back({RelaxationTarget::Kind::Group, g, -1});
  if (picked >= 0 && scene.profile()) out.push_back({RelaxationTarget::Kind::Constraint, "", picked});
  return out;
}

std::vector<PanelWidget> header(const RodScene& scene, const RodDiagnostics& d) {
  std::vector<PanelWidget> w;
  const auto lines = stabilityWarningLines(scene);
  if (!lines.empty()) {
    std::string text = "WARNING: eps, tau as set are outside what was measured to work (used as set, not clamped):";
    for (const auto& l : lines) text += "\n" + l;
    w.push_back(PanelWidget::warning(text));
  }
  if (const SpookProfile* p = scene.profile())
    w.push_back(PanelWidget::text(fmt("max speed %.3g m/s | gap rms %.1e m | solve %.0f us | fill x%.2f", d.maxSpeed,
                                      d.constraintRms, p->factorUs + p->solveUs,
                                      p->matrixNnz > 0 ? double(p->factorNnz) / double(p->matrixNnz) : 0.0)));
  else
    w.push_back(PanelWidget::text(fmt("max speed %.3g m/s | gap rms %.1e m | no SPOOK solve (baseline)", d.maxSpeed,
                                      d.constraintRms)));
  const auto ghosts = scene.ghosts();
  if (ghosts.empty()) w.push_back(PanelWidget::text("ghosts off", PanelTone::Dim));
  for (size_t k = 0; k < ghosts.size(); ++k) {
    const GhostHealth h = ghostHealth(ghosts[k]);
    const char* what = h == GhostHealth::Diverged ? ": DIVERGED " : h == GhostHealth::EnergyGrowth ? ": gained energy " : ": ok ";
    w.push_back(PanelWidget::text("ghost " + ghosts[k].stepper + what, healthTone(h), k > 0));
  }
  return w;
}

PanelTab relaxationTab(const RodScene& scene, int picked) {
  PanelTab tab{"ε, τ", {}};
  const double h = scene.dt();
  const ParamSet& params = scene.params();
  PanelWidget table;
  table.kind = PanelWidget::Kind::Table;
  table.columnWidths = {96, 0, 0, 64};  // target, eps, tau, note (no header row)
  for (const RelaxationTarget& t : targets(scene, picked)) {
    const bool isConstraint = t.kind == RelaxationTarget::Kind::Constraint;
    const std::string row = t.kind == RelaxationTarget::Kind::Global ? "global"
                            : isConstraint ? shortName(scene.constraintStatus(t.constraint).name)
                                           : t.group;
    const SpookParameters p = targetRelaxation(scene, t);
    std::vector<PanelWidget> cells;
    cells.push_back(PanelWidget::text(row, isConstraint ? PanelTone::Pick : PanelTone::Normal));
    if (isConstraint) cells.back().tip(scene.constraintStatus(t.constraint).name + " (picked)");
    cells.push_back(
        PanelWidget::slider("eps:" + targetKey(t), p.epsilon, 1e-12, 1.0, "ε %.3g", true)
            .tip("the joint compliance eps (m/N): a joint under force f stands open by gap ~ eps |f|. Whiplash "
                 "forces reach 1e5-1e6 N, so the paper's 1e-8 opens ladder joints by 2-5 cm at N = 1000-5000; "
                 "the ladder and chain default 1e-10 keeps that part under 1.5 mm up to N = 5000. Ctrl+click to type "
                 "a value (0 = rigid: no redundant rows)")
            .row(row));
    cells.push_back(PanelWidget::slider("tauh:" + targetKey(t), p.tau / h, 0.0, 20.0, "τ %.3g h")
                        .tip("stabilisation time tau in steps h (paper default 2)")
                        .row(row));
    if (t.kind == RelaxationTarget::Kind::Group)
      cells.push_back(PanelWidget::text(fmt("x%.3g x%.3g", params.real("eps_" + t.group), params.real("tau_" + t.group)),
                                        PanelTone::Dim)
                          .tip("multipliers eps_" + t.group + ", tau_" + t.group + " of the global values"));
    else if (isConstraint && scene.constraintStatus(t.constraint).overridden)
      cells.push_back(PanelWidget::button("clear", "clear:" + std::to_string(t.constraint)).tip("back to the group value").row(row));
    else if (isConstraint)
      cells.push_back(PanelWidget::text("group", PanelTone::Dim));
    table.rows.push_back(std::move(cells));
  }
  tab.widgets.push_back(std::move(table));
  if (picked < 0 && !scene.joints().empty())
    tab.widgets.push_back(PanelWidget::text("click a joint in the 3-D view to give it its own ε, τ", PanelTone::Dim));
  if (const ParamSpec* gamma = params.spec("gamma"))
    tab.widgets.push_back(PanelWidget::slider("param:gamma", params.real("gamma"), 1e-12, gamma->maxValue, "γ %.3g s/kg", true)
                              .tip(gamma->help + "; Ctrl+click to type a value"));
  if (!scene.profile())
    tab.widgets.push_back(PanelWidget::text("main stepper is " + params.choice("stepper") +
                                                ": eps, tau act on the SPOOK ghost only",
                                            PanelTone::Dim));
  return tab;
}

PanelTab conventionsTab(const RodScene& scene, const PanelContext& ctx, int picked) {
  PanelTab tab{"Conventions", {}};
  const double h = scene.dt();
  const auto ts = targets(scene, picked);
  std::vector<std::string> names;
  for (const auto& t : ts)
    names.push_back(t.kind == RelaxationTarget::Kind::Global ? "global"
                    : t.kind == RelaxationTarget::Kind::Group ? "group " + t.group
                                                              : "picked " + shortName(scene.constraintStatus(t.constraint).name));
  const int chosen = std::clamp(int(parseNumber(ctx.get("conv.target", "0")).value), 0, int(ts.size()) - 1);
  const double mass = parseNumber(ctx.get("conv.mass", "1")).value;
  tab.widgets.push_back(PanelWidget::choice("conv.target", names, chosen, "(eps, tau) of"));
  tab.widgets.push_back(PanelWidget::number("conv.mass", mass, "m [kg] %.4g")
                            .tip("effective mass for k/m, c/m, MuJoCo and Box2D (1 kg = per unit mass)"));
  tab.widgets.back().sameLine = true;
  const SpookParameters p = targetRelaxation(scene, ts[size_t(chosen)]);
  tab.widgets.push_back(PanelWidget::text(fmt("ε %.3g, τ %.3g h = %.4g s; type a value + Enter to set", p.epsilon, p.tau / h, p.tau),
                                          PanelTone::Dim)
                            .tip(fmt("h = %.6g s. Each row is the same (eps, tau) in another convention; editing one value "
                                     "keeps the\nother of its row and sets eps, tau of the chosen target (rejected values "
                                     "are named, never clamped).",
                                     h)));
  PanelWidget table;
  table.kind = PanelWidget::Kind::Table;
  table.columnWidths = {96, 0, 0};
  for (Convention c : kConventions) {
    const ConventionInfo info = conventionInfo(c);
    std::array<double, 2> ab{NAN, NAN};
    std::string note;
    try {
      ab = toConvention(c, p, h, mass);
    } catch (const BadInput& e) {
      note = e.what();
    }
    if (note.empty() && c == Convention::OdeErpCfm)
      note = "CFM = 4 eps/(h + 4 tau), ERP = 4h/(h + 4 tau); ERP <= 1 needs tau >= 3h/4.\n"
             "ODE has no Upsilon G v_k term, so the same ERP/CFM is not the same stepper.";
    std::vector<PanelWidget> cells{PanelWidget::text(info.name)};
    for (int k = 0; k < 2; ++k)
      cells.push_back(PanelWidget::number(std::string("conv:") + info.key + (k ? ":b" : ":a"), ab[size_t(k)],
                                          std::string(k ? info.labelB : info.labelA) + " %.5g")
                          .tip(note)
                          .row(info.name));
    table.rows.push_back(std::move(cells));
  }
  tab.widgets.push_back(std::move(table));
  return tab;
}

PanelTab pickedTab(const RodScene& scene, int picked) {
  PanelTab tab{"Picked joint", {}};
  const std::vector<int>& joints = scene.joints();
  if (joints.empty()) {
    tab.widgets.push_back(PanelWidget::text("this scene has no joints or pins to pick", PanelTone::Dim));
    return tab;
  }
  const auto it = std::find(joints.begin(), joints.end(), picked);
  const int selected = it == joints.end() ? -1 : int(it - joints.begin());
  PanelWidget combo = PanelWidget::choice("pick", scene.jointNames(), selected, "picked");  // shared, not copied
  combo.actionValue = "click a joint in the 3-D view";  // shown while nothing is picked
  tab.widgets.push_back(std::move(combo));
  if (picked < 0) return tab;
  PanelWidget unpick = PanelWidget::button("unpick", "pick", "");
  unpick.sameLine = true;
  tab.widgets.push_back(std::move(unpick));
  const RodScene::ConstraintStatus s = scene.constraintStatus(picked);
  tab.widgets.push_back(PanelWidget::text(fmt("group %s   gap %.3e m   force %.5g N%s",
                                              scene.system().groupNames().at(size_t(s.group)).c_str(), s.violation, s.force,
                                              s.overridden ? "   (own ε, τ)" : "")));
  PanelWidget plots;
  plots.kind = PanelWidget::Kind::Table;
  std::vector<PanelWidget> cells;
  for (const char* series : {"gap (m)", "force (N)"}) {
    PanelWidget plot;
    plot.kind = PanelWidget::Kind::Plot;
    plot.label = std::string("picked ") + series;
    plot.trace = "joint " + std::to_string(picked);
    plot.series = {series};
    plot.logScale = series[0] == 'g';
    cells.push_back(std::move(plot));
  }
  plots.rows.push_back(std::move(cells));
  tab.widgets.push_back(std::move(plots));
  return tab;
}

PanelTab whiplashTab(const RodScene& scene) {
  PanelTab tab{"Whiplash", {}};
  const RodScene::SpeedProfile profile = scene.speedProfile();
  const std::vector<double>& v = profile.speeds;
  if (v.empty()) {
    tab.widgets.push_back(PanelWidget::text("no bodies", PanelTone::Dim));
    return tab;
  }
  const size_t tip = size_t(std::max_element(v.begin(), v.end()) - v.begin());
  tab.widgets.push_back(PanelWidget::text(fmt("speed vs %s index: now max %.3g m/s at %s %zu, free end %.3g m/s", profile.axis,
                                              v[tip], profile.axis, tip + 1, v.back())));
  tab.widgets.push_back(PanelWidget::text("bars: now (rod colours)   line: peak since release", PanelTone::Dim));
  PanelWidget bars;
  bars.kind = PanelWidget::Kind::Bars;
  bars.numbers = v;
  for (double s : v) bars.colors.push_back(speedColor(s, kSpeedFullScale));
  bars.trace = "speed profile";
  bars.axis = profile.axis;
  bars.format = "%.4g m/s";
  tab.widgets.push_back(std::move(bars));
  return tab;
}

PanelTab solverTab(const RodScene& scene, const RodDiagnostics& d) {
  PanelTab tab{"Solver, ghosts", {}};
  tab.widgets.push_back(PanelWidget::text(
      fmt("joint gap rms %.2e m, max %.2e m; unit rms %.2e", d.constraintRms, d.constraintMax, d.unitRms)));
  if (const SpookProfile* p = scene.profile()) {
    tab.widgets.push_back(PanelWidget::text(fmt("%s solve %.0f us (factor %.0f + solve %.0f); assembly %.0f us; step %.0f us",
                                                scene.params().choice("solver").c_str(), p->factorUs + p->solveUs, p->factorUs,
                                                p->solveUs, p->assemblyUs, p->stepUs))
                              .tip("parameter solver (live): block (default for ladder and chain) is the block-tridiagonal "
                                   "Cholesky of J M^-1 J^T + D, ~1.6x faster than ldlt at N = 1000 with the same result to "
                                   "round-off; ldlt and umfpack (the paper's LU) stay selectable"));
    tab.widgets.push_back(PanelWidget::text(fmt("factor nnz %ld / matrix nnz %ld = fill x%.2f; analyses %ld", p->factorNnz,
                                                p->matrixNnz, p->matrixNnz > 0 ? double(p->factorNnz) / double(p->matrixNnz) : 0.0,
                                                p->analyses))
                              .tip("symbolic analyses: one per sparsity pattern (reused every step)"));
  }
  if (const std::string model = scene.rodModelSummary(); !model.empty())
    tab.widgets.push_back(PanelWidget::text(model).tip(
        "parameter rod_model (reset). Default rigid: rods cannot change length; joints are curved in the rotation, so "
        "a step whose joint linearisation missed a rod end by more than max_chord is first solved again about the pose "
        "it reached (up to max_relinearise times: Newton on the joint rows at the end pose, planar whips converge in "
        "2-3), then, if still missing, redone in more sub-steps. At dt = 1/60 and the default epsilon 1e-10 it "
        "completes 60 s for ladders N <= 10000 and chains <= 20000 rods with joint gaps <= 1e-3 m (RMS <= 4e-4 m) and "
        "energy never above E(0). director: the paper's stepper (reference runs, at the paper's epsilon 1e-8: stiffer "
        "joints make its |u| drift faster), joints linear but |u| drifts when rods spin fast: ladders N >= 150 and "
        "chains >= 50 rods diverge in whiplash."));
  const auto ghosts = scene.ghosts();
  if (ghosts.empty()) {
    tab.widgets.push_back(PanelWidget::text("ghosts off (parameter 'ghosts', applies on reset)", PanelTone::Dim));
    return tab;
  }
  PanelWidget table;
  table.kind = PanelWidget::Kind::Table;
  table.columns = {"ghost", "status", "E-E(0) J", "E-E_main J", "gap rms m"};
  const double e0 = scene.initialEnergy();
  for (const auto& g : ghosts) {
    const GhostHealth h = ghostHealth(g);
    const std::string status = h == GhostHealth::Diverged       ? fmt("DIVERGED %.3g s", g.divergedAt)
                               : h == GhostHealth::EnergyGrowth ? fmt("E > E(0) %.3g s", g.energyGrowthAt)
                                                                : std::string("running");
    table.rows.push_back({PanelWidget::text(g.stepper),
                          PanelWidget::text(status, healthTone(h))
                              .tip(g.message.empty() ? "amber: its energy rose above E(0) + 0.1% at the time shown "
                                                       "(neither baseline may gain energy); red: frozen at a divergence"
                                                     : g.message),
                          PanelWidget::text(fmt("%+.4g", g.energy - e0)), PanelWidget::text(fmt("%+.4g", g.energy - d.energy)),
                          PanelWidget::text(fmt("%.1e", g.constraintRms))});
  }
  tab.widgets.push_back(std::move(table));
  return tab;
}

}  // namespace

std::vector<ScenePanel> spookPanels(const RodScene& scene, const PanelContext& ctx) {
  const int picked = pickedConstraint(scene, ctx);
  ScenePanel panel;
  panel.title = "SPOOK tuning";
  const RodDiagnostics& d = scene.mainDiagnostics();  // O(N) once per state, shared with the row and the HUD
  panel.header = header(scene, d);
  // Moved in one by one (an initializer list would copy every tab, the joint list of the pick combo included).
  panel.tabs.reserve(5);
  panel.tabs.push_back(relaxationTab(scene, picked));
  panel.tabs.push_back(conventionsTab(scene, ctx, picked));
  panel.tabs.push_back(pickedTab(scene, picked));
  // A speed profile needs a chain of bodies: the sleigh's single blade would show one bar and no whiplash.
  if (scene.system().bodies().size() > 1) panel.tabs.push_back(whiplashTab(scene));
  panel.tabs.push_back(solverTab(scene, d));
  if (picked >= 0) {
    const RodScene::ConstraintStatus s = scene.constraintStatus(picked);
    const Eigen::Vector3d p = scene.jointPosition(picked);
    panel.marks.push_back({{p.x(), p.y(), p.z()}, fmt("%s  gap %.2e m  F %.4g N", shortName(s.name).c_str(), s.violation, s.force)});
  }
  std::vector<ScenePanel> out;  // not {std::move(panel)}: that copies through the initializer list
  out.push_back(std::move(panel));
  return out;
}

}  // namespace varsim
