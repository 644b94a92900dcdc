// scenes/rigid_body/tumbling_body_scene.cpp — scene `tumbling_body` (issue 3 item 7): the Dzhanibekov effect. A
// T-handle-like body spun near its intermediate principal axis flips every ~1.5 s. The same body is
// integrated side by side, at the same large step, by the LGVI (left, solid) and by RK4 (right, ghost):
// the LGVI keeps |L| to round-off and its energy error bounded (it oscillates back at every flip), while
// RK4 loses energy and angular momentum monotonically (seed 000 Fig. 3-4; measured in
// tests/test_lgvi_se3.cpp: after 300 s at h = 0.1, RK4 -17 % energy, -9 % |L|).
#include <cmath>
#include <cstdio>

#include "engine/lie/quaternion.h"
#include "engine/models/rigid_body.h"
#include "engine/sim/errors.h"
#include "scenes/rigid_body/free_body_sim.h"
#include "scenes/rigid_body/rigid_body_drawing.h"
#include "scenes/scene.h"
#include "scenes/rigid_body/step_bound_panel.h"

namespace varsim {
namespace {

std::vector<ParamSpec> tumblingParams() {
  std::vector<ParamSpec> specs = bodyParamSpecs(
      1.0, {0.1, 0.4, 0.45}, {0.1, 10.0, 0.1},
      "principal moments J1,J2,J3 (T-handle-like: J1 << J2 < J3; J2 is the unstable axis)",
      "initial body angular velocity: a spin about axis 2 with a small perturbation");
  specs.push_back(ParamSpec::real("dt", 0.1, 0.0, 1.0, "s", "time step of BOTH integrators (large on purpose); an LGVI step whose Newton fails is redone in "
                                    "2 to 1024 substeps; a start whose first step no split solves is refused naming "
                                    "the dt that solves it",
                                    true)
                      .setLive()
                      .setLog());
  specs.push_back(ParamSpec::choice("ghost", "rk4", {"rk4", "rk2", "rk2i", "newmark", "newmark_so3xr3"},
                                    "baseline integrating the ghost body (seed 000 Sec. 3.3): rk4, rk2 = explicit midpoint, "
                                    "rk2i = implicit midpoint on (w, v), newmark = Lie-Newmark on SE(3), newmark_so3xr3 on SO(3)xR3; its columns "
                                    "keep the _rk4 suffix"));
  for (auto& s : lgviParamSpecs()) specs.push_back(std::move(s));
  return specs;
}

// "RK4", "RK2", "RK2i", "Newmark", "NewmarkP": the ghost's name in labels (P: the direct product SO(3)xR3).
std::string ghostLabel(const std::string& name) {
  if (name == "newmark_so3xr3") return "NewmarkP";
  return name == "rk2i" ? "RK2i" : name == "newmark" ? "Newmark" : name == "rk2" ? "RK2" : "RK4";
}

std::string formatFixed(const char* format, double v) {
  char buf[80];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

class TumblingBodyScene : public Scene {
 public:
  explicit TumblingBodyScene(ParamSet params)
      : Scene(std::move(params)),
        boxSize_(equivalentBoxSize(params_.real("mass"), params_.vec3("inertia"))),
        ghost_(ghostLabel(params_.choice("ghost"))),
        lgvi_("lgvi", inertiaFromParams(params_), lgviOptionsFrom(params_), startPose(-1.0), initialXi(), Vector3d::Zero(),
              params_.real("dt")),
        rk4_(params_.choice("ghost"), inertiaFromParams(params_), {}, startPose(+1.0), initialXi(), Vector3d::Zero(), params_.real("dt")) {
    energy0_ = lgvi_.energy();
    L0_ = lgvi_.spatialMomentum().head<3>().norm();  // no linear momentum: L about the origin = R pi
    const double w0 = params_.vec3("omega").norm();
    scaleL_ = L0_ > 0.0 ? 1.2 * boxSize_.maxCoeff() / L0_ : 0.0;
    scaleOmega_ = w0 > 0.0 ? 1.0 * boxSize_.maxCoeff() / w0 : 0.0;
  }

  void step(double h, const InputVector&) override {
    // The ghost is only a comparison: when it blows up (RK4 far past its stability limit, e.g. h |omega| ~ 17 rad)
    // it stays where it diverged and is shown as diverged, and the LGVI body, the scene's trajectory, runs on. If the
    // LGVI diverges the scene state stays as before the step.
    const auto saved = rk4_.saveState();
    const double divergedBefore = ghostDivergedAt_;
    if (ghostDivergedAt_ < 0) {
      try {
        rk4_.step(h);
      } catch (const SimulationDiverged&) {
        rk4_.loadState(saved);
        ghostDivergedAt_ = time();
      }
    }
    try {
      lgvi_.step(h);
    } catch (...) {
      rk4_.loadState(saved);
      ghostDivergedAt_ = divergedBefore;
      throw;
    }
    trailLgvi_.add(lgvi_.pose().act(0.5 * boxSize_));
    trailRk4_.add(rk4_.pose().act(0.5 * boxSize_));
  }
  double time() const override { return lgvi_.time(); }
  // The monitored `energy` is the LGVI body's; RK4's loss is the comparison the scene shows.
  double energyScale() const override { return lgvi_.energyScale(dt(), boxSize_.maxCoeff()); }
  std::vector<StateBlock> stateBlocks() const override { return lgvi_.stateBlocks(); }  // the LGVI body, not the ghost

  std::vector<std::string> columns() const override {
    return {"t",          "energy",         "L_x",           "L_y",       "L_z",      "p_x",      "p_y",
            "p_z",        "x",              "y",             "z",         "qw",       "qx",       "qy",
            "qz",         "newton_iters",   "step_us",       "energy_lgvi", "energy_rk4", "energy_rel_err_lgvi",
            "energy_rel_err_rk4", "L_rel_err_lgvi", "L_rel_err_rk4", "L_x_rk4", "L_y_rk4", "L_z_rk4",
            "qw_rk4", "qx_rk4", "qy_rk4", "qz_rk4", "step_us_rk4", "attitude_diff"};
  }

  void diagnostics(std::vector<double>& row) const override {
    const se3::Pose &g = lgvi_.pose(), &gr = rk4_.pose();
    const Vector6d M = lgvi_.spatialMomentum(), Mr = rk4_.spatialMomentum();
    const Vector4d q = g.quaternion(), qr = gr.quaternion();
    const double E = lgvi_.energy(), Er = rk4_.energy();
    row = {lgvi_.time(), E, M[0], M[1], M[2], M[3], M[4], M[5], g.x[0], g.x[1], g.x[2], q[0], q[1], q[2], q[3],
           double(lgvi_.newtonIterations()), lgvi_.stepMicros(), E, Er, relativeChange(E, energy0_), relativeChange(Er, energy0_),
           relativeChange(M.head<3>().norm(), L0_), relativeChange(Mr.head<3>().norm(), L0_), Mr[0], Mr[1], Mr[2], qr[0], qr[1],
           qr[2], qr[3], rk4_.stepMicros(), quat::angleBetween(q, qr)};
  }

  std::vector<double> saveState() const override {
    std::vector<double> s = lgvi_.saveState();
    const auto r = rk4_.saveState();
    s.insert(s.end(), r.begin(), r.end());
    return s;
  }
  void loadState(const std::vector<double>& state) override {
    const size_t n = lgvi_.saveState().size();
    if (state.size() != n + rk4_.saveState().size())
      throw BadInput("tumbling_body state: expected " + std::to_string(n + rk4_.saveState().size()) + " numbers, got " +
                     std::to_string(state.size()));
    const auto backup = saveState();
    try {
      lgvi_.loadState({state.begin(), state.begin() + long(n)});
      rk4_.loadState({state.begin() + long(n), state.end()});
    } catch (...) {
      lgvi_.loadState({backup.begin(), backup.begin() + long(n)});
      throw;
    }
    trailLgvi_.clear();
    trailRk4_.clear();
    ghostDivergedAt_ = -1.0;  // the loaded ghost state is finite; it diverges again if it must
  }

  std::vector<PlotSpec> plots() const override {
    return {{"Relative energy error: LGVI vs ghost", {"energy_rel_err_lgvi", "energy_rel_err_rk4"}},
            {"Relative |L| error: LGVI vs ghost", {"L_rel_err_lgvi", "L_rel_err_rk4"}},
            {"Angular momentum L (LGVI solid, ghost)", {"L_x", "L_y", "L_z", "L_x_rk4", "L_y_rk4", "L_z_rk4"}},
            {"Attitude difference LGVI - ghost (rad)", {"attitude_diff"}},
            {"Newton iterations per step (LGVI)", {"newton_iters"}},
            {"Step time (us)", {"step_us", "step_us_rk4"}}};
  }

  void applyLive(const ParamSet& params) override {
    params_ = params;
    lgvi_.setOptions(lgviOptionsFrom(params_));
  }

  // A small readout panel (scene_panel.h): the two integrators' drifts side by side and their
  // energy errors over time, from per-step samples.
  std::vector<ScenePanel> panels(const PanelContext&) const override {
    std::vector<double> row;
    diagnostics(row);
    auto cell = [](double v) { return PanelWidget::text(formatFixed("%+.3e", v)); };
    PanelWidget table;
    table.kind = PanelWidget::Kind::Table;
    table.columns = {"", "LGVI", ghost_};
    table.rows = {{PanelWidget::text("dE/E"), cell(row[19]), cell(row[20])},
                  {PanelWidget::text("d|L|/|L|"), cell(row[21]), cell(row[22])}};
    PanelWidget plot;
    plot.kind = PanelWidget::Kind::Plot;
    plot.label = "relative energy error";
    plot.trace = "energy error";
    plot.series = {"LGVI", ghost_};
    // Seed 002's a-priori step bounds for the LGVI beside h (issue 12 item 4), then the comparison.
    std::vector<PanelWidget> header = stepBoundWidgets(lgvi_.inertia().J, lgvi_.velocity().head<3>(), dt(),
                                                       lgvi_.newtonIterations(), lgviOptionsFrom(params_).tangent, "lgvi");
    header.push_back(PanelWidget::text(formatFixed("attitude difference %.3g rad", row.back())));
    header.push_back(std::move(table));
    header.push_back(std::move(plot));
    return {{"LGVI vs " + ghost_, std::move(header), {}, {}}};
  }
  void panelSamples(const PanelContext&, std::vector<PanelSample>& out) const override {
    out.push_back({"energy error", {"LGVI", ghost_},
                   {relativeChange(lgvi_.energy(), energy0_), relativeChange(rk4_.energy(), energy0_)}, false});
  }

  void draw(DrawList& out) const override {
    drawBody(out, lgvi_, {0.95f, 0.55f, 0.15f, 1.0f}, false);
    drawBody(out, rk4_, {0.3f, 0.55f, 0.95f, 0.6f}, true);
    trailLgvi_.draw(out, {0.95f, 0.7f, 0.4f, 0.8f});
    trailRk4_.draw(out, {0.5f, 0.7f, 1.0f, 0.8f});
    const float lift = float(0.9 * boxSize_.maxCoeff());
    out.labels.push_back({toVec3f(lgvi_.pose().x + Vector3d(0, 0, lift)), "LGVI", {1, 0.8f, 0.5f, 1}});
    out.labels.push_back({toVec3f(rk4_.pose().x + Vector3d(0, 0, lift)), ghost_, {0.6f, 0.8f, 1, 1}});
    std::vector<double> row;
    diagnostics(row);
    char line[200];
    std::snprintf(line, sizeof line, "dE/E: LGVI %+.2e  %s %+.2e", row[19], ghost_.c_str(), row[20]);
    out.hud.push_back(line);
    std::snprintf(line, sizeof line, "d|L|/|L|: LGVI %+.2e  %s %+.2e  Newton %d", row[21], ghost_.c_str(), row[22],
                  lgvi_.newtonIterations());
    out.hud.push_back(line);
    out.hud.push_back("LGVI (" + lgviOptionsText(lgviOptionsFrom(params_)) + "), " + ghost_ + " ghost");
    if (ghostDivergedAt_ >= 0) {
      std::snprintf(line, sizeof line, "%s ghost diverged at t = %.4g s (stopped there)", ghost_.c_str(),
                    ghostDivergedAt_);
      out.hud.push_back(line);
    }
    out.camera.follow = false;
    out.camera.target = {0.0f, 0.0f, 0.0f};
    out.camera.distance = float(4.0 * boxSize_.maxCoeff() + 2.0);
    out.camera.showGround = true;
    out.camera.groundHeight = float(-1.2 * boxSize_.maxCoeff());
  }

 private:
  se3::Pose startPose(double side) const {
    se3::Pose g;
    g.x = Vector3d(side * 0.9 * boxSize_.maxCoeff(), 0.0, 0.0);
    return g;
  }
  Vector6d initialXi() const { return (Vector6d() << params_.vec3("omega"), Vector3d::Zero()).finished(); }
  void drawBody(DrawList& out, const FreeBodySim& body, Rgba color, bool ghost) const {
    const se3::Pose& g = body.pose();
    drawRigidBox(out, g, boxSize_, color, ghost);
    const float radius = float(0.03 * boxSize_.maxCoeff());
    drawArrow(out, g.x, scaleL_ * (g.R * body.nodeMomentumBody().head<3>()), radius, {0.95f, 0.85f, 0.2f, 1.0f});
    drawArrow(out, g.x, scaleOmega_ * (g.R * body.velocity().head<3>()), 0.7f * radius, {0.85f, 0.3f, 0.9f, 1.0f});
  }

  Vector3d boxSize_;
  std::string ghost_;       // label of the ghost's baseline
  FreeBodySim lgvi_, rk4_;  // rk4_: the ghost, on the `ghost` baseline (RK4 by default)
  double energy0_ = 0.0, L0_ = 0.0, scaleL_ = 0.0, scaleOmega_ = 0.0;
  PointTrail trailLgvi_, trailRk4_;  // drawing only
  double ghostDivergedAt_ = -1.0;     // time the ghost's step failed (it stops there), -1 while it runs
};

}  // namespace

VARSIM_REGISTER_SCENE(SceneInfo{
    "tumbling_body", "Tumbling T-handle: LGVI vs RK4 (Dzhanibekov effect)",
    "A T-handle-like body spun near its unstable intermediate axis flips periodically (Dzhanibekov effect). "
    "The LGVI (left) and RK4 (right, ghost) integrate it side by side at the same large step: the LGVI "
    "keeps |L| to round-off and a bounded energy error, RK4 loses energy and angular momentum steadily. "
    "Standard columns (energy, L_*, p_*, pose, newton_iters, step_us) are the LGVI body's; *_rk4 the ghost's "
    "(the `ghost` baseline: rk4 by default, or rk2, rk2i, newmark).",
    tumblingParams,
    [](const ParamSet& p) {
      validateBodyParams(p);
      checkFirstLgviStepSolves(p, ", or group so3xr3");
    },
    [](const ParamSet& p) -> std::unique_ptr<Scene> { return std::make_unique<TumblingBodyScene>(p); }});

}  // namespace varsim
