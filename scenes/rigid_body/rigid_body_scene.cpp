// scenes/rigid_body/rigid_body_scene.cpp — scene `rigid_body` (issue 2): one free rigid body on the Lie group
// variational integrator of seed 000 eqs. (9)-(10) (group, tau, C selectable) or on a baseline (RK2, RK2i, RK4, Newmark),
// optionally under uniform gravity. Reports the discrete momentum map, energy, Newton iterations and
// step time; draws the box with the body's inertia, its axes, L and omega, and a corner trail.
#include <cmath>
#include <cstdio>

#include "engine/models/rigid_body.h"
#include "engine/sim/errors.h"
#include "scenes/rigid_body/baseline_step_rules.h"
#include "scenes/rigid_body/free_body_sim.h"
#include "scenes/rigid_body/rigid_body_drawing.h"
#include "scenes/scene.h"
#include "scenes/rigid_body/step_bound_panel.h"

namespace varsim {
namespace {

std::vector<ParamSpec> rigidBodyParams() {
  std::vector<ParamSpec> specs = bodyParamSpecs(
      2.0, {2.0, 4.0, 5.0}, {0.3, 1.5, -0.2},
      "principal moments J1,J2,J3 about the centre of mass (must satisfy J1+J2>=J3 etc.)",
      "initial body angular velocity (near the intermediate axis by default: Dzhanibekov flips)");
  const std::vector<ParamSpec> more = {
      ParamSpec::vector("velocity", {0.5, 0.0, 0.2}, -1e4, 1e4, "m/s", "initial body linear velocity"),
      ParamSpec::vector("gravity", {0.0, 0.0, 0.0}, -1e3, 1e3, "m/s^2", "uniform gravity, world frame (z up)"),
      ParamSpec::choice("integrator", "lgvi", {"lgvi", "rk2", "rk2i", "rk4", "newmark", "newmark_so3xr3"},
                        "lgvi = Lie group variational integrator (seed 000 eqs. 9-10); baselines on (x, q, w, v) "
                        "(seed 000 Sec. 3.3): rk2 = explicit midpoint, rk2i = implicit midpoint on (w, v) with explicit "
                        "quaternion reconstruction, rk4 = classical RK4, newmark = Lie-Newmark (Krysl & Endres 2005) on SE(3), "
                        "newmark_so3xr3 = the same on SO(3)xR3; rk4 is refused beyond h |omega| = 2.828 (its stability bound on a "
                        "rotation) and rk2 where its energy growth (1 + (h |omega|)^4/4) per step exceeds 5 % in 20 s"),
      ParamSpec::real("dt", 1.0 / 60.0, 0.0, 10.0, "s",
                      "time step; with lgvi a step whose Newton fails is redone in 2 to 1024 substeps (omega and gravity "
                      "1000 per axis stopped at 2.2 s before), and a start whose first step no split solves is refused "
                      "naming the dt that solves it",
                      true)
          .setLive()
          .setLog(),
  };
  specs.insert(specs.end(), more.begin(), more.end());
  for (auto& s : lgviParamSpecs()) specs.push_back(std::move(s));
  return specs;
}

void validateRigidBody(const ParamSet& p) {
  validateBodyParams(p);
  checkRigidBaselineSpin(p);
  if (p.choice("integrator") == "lgvi") checkFirstLgviStepSolves(p, ", or group so3xr3 or integrator rk4");
}

class RigidBodyScene : public Scene {
 public:
  explicit RigidBodyScene(ParamSet params)
      : Scene(std::move(params)),
        sim_(params_.choice("integrator"), inertiaFromParams(params_), lgviOptionsFrom(params_), se3::Pose{},
             (Vector6d() << params_.vec3("omega"), params_.vec3("velocity")).finished(), params_.vec3("gravity"),
             params_.real("dt")),
        boxSize_(equivalentBoxSize(params_.real("mass"), params_.vec3("inertia"))) {
    energy0_ = sim_.energy();
    momentum0_ = sim_.spatialMomentum();
    // Arrow scales: the initial |L| (about the c.o.m.) and |omega| are drawn 1.5 and 1.2 box sizes long.
    const double boxMax = boxSize_.maxCoeff();
    const double L0 = sim_.nodeMomentumBody().head<3>().norm(), w0 = params_.vec3("omega").norm();
    scaleL_ = L0 > 0.0 ? 1.5 * boxMax / L0 : 0.0;
    scaleOmega_ = w0 > 0.0 ? 1.2 * boxMax / w0 : 0.0;
    trail_.add(corner());
  }

  void step(double h, const InputVector&) override {
    sim_.step(h);
    trail_.add(corner());
  }
  double time() const override { return sim_.time(); }
  double energyScale() const override { return sim_.energyScale(dt(), boxSize_.maxCoeff()); }
  std::vector<StateBlock> stateBlocks() const override { return sim_.stateBlocks(); }

  std::vector<std::string> columns() const override {
    return {"t",   "energy", "L_x",     "L_y",       "L_z",            "p_x",                 "p_y",
            "p_z", "x",      "y",       "z",         "qw",             "qx",                  "qy",
            "qz",  "newton_iters", "step_us", "kinetic", "potential", "energy_rel_err", "momentum_rel_change",
            "omega_x", "omega_y", "omega_z", "v_x", "v_y", "v_z"};
  }

  void diagnostics(std::vector<double>& row) const override {
    const se3::Pose& g = sim_.pose();
    const Vector6d M = sim_.spatialMomentum(), xi = sim_.velocity();
    const Vector4d q = g.quaternion();  // w >= 0
    const double kinetic = sim_.kineticEnergy(), potential = sim_.potentialEnergy();
    const double m0 = momentum0_.norm();
    row = {sim_.time(), kinetic + potential, M[0], M[1], M[2], M[3], M[4], M[5], g.x[0], g.x[1], g.x[2],
           q[0], q[1], q[2], q[3], double(sim_.newtonIterations()), sim_.stepMicros(), kinetic, potential,
           relativeChange(kinetic + potential, energy0_), m0 > 0.0 ? (M - momentum0_).norm() / m0 : M.norm(),
           xi[0], xi[1], xi[2], xi[3], xi[4], xi[5]};
  }

  std::vector<double> saveState() const override { return sim_.saveState(); }
  void loadState(const std::vector<double>& state) override {
    sim_.loadState(state);
    trail_.clear();
    trail_.add(corner());
  }

  std::vector<PlotSpec> plots() const override {
    return {{"Energy (J)", {"energy", "kinetic", "potential"}},
            {"Relative energy error", {"energy_rel_err"}},
            {"Angular momentum about the origin (kg m^2/s)", {"L_x", "L_y", "L_z"}},
            {"Linear momentum (kg m/s)", {"p_x", "p_y", "p_z"}},
            {"Momentum change |M - M0| / |M0|", {"momentum_rel_change"}},
            {"Newton iterations per step", {"newton_iters"}},
            {"Step time (us)", {"step_us"}}};
  }

  // Seed 002's a-priori step bounds beside h (issue 12 item 4).
  std::vector<ScenePanel> panels(const PanelContext&) const override {
    return {stepBoundPanel(sim_.inertia().J, sim_.velocity().head<3>(), dt(), sim_.newtonIterations(),
                           lgviOptionsFrom(params_).tangent, sim_.integratorName())};
  }

  void applyLive(const ParamSet& params) override {
    params_ = params;
    sim_.setOptions(lgviOptionsFrom(params_));  // dt takes effect at the next step (LGVI re-initialises mu^-)
  }

  void draw(DrawList& out) const override {
    const se3::Pose& g = sim_.pose();
    const bool lgvi = sim_.isLgvi();
    const Rgba bodyColor = lgvi ? Rgba{0.95f, 0.55f, 0.15f, 1.0f} : Rgba{0.3f, 0.55f, 0.95f, 1.0f};
    drawRigidBox(out, g, boxSize_, bodyColor);
    const float radius = float(0.035 * boxSize_.maxCoeff());
    // Angular momentum about the centre of mass (world): R pi; angular velocity (world): R omega.
    const Vector3d L = g.R * sim_.nodeMomentumBody().head<3>(), w = g.R * sim_.velocity().head<3>();
    drawArrow(out, g.x, scaleL_ * L, radius, {0.95f, 0.85f, 0.2f, 1.0f});
    drawArrow(out, g.x, scaleOmega_ * w, 0.7f * radius, {0.85f, 0.3f, 0.9f, 1.0f});
    out.labels.push_back({toVec3f(g.x + 1.05 * scaleL_ * L), "L", {0.95f, 0.85f, 0.2f, 1.0f}});
    out.labels.push_back({toVec3f(g.x + 1.05 * scaleOmega_ * w), "omega", {0.85f, 0.3f, 0.9f, 1.0f}});
    trail_.draw(out, {0.9f, 0.9f, 0.95f, 0.8f});
    std::vector<double> row;
    diagnostics(row);
    char line[160];
    std::snprintf(line, sizeof line, "E = %.6g J   dE/E = %+.2e", row[1], row[19]);
    out.hud.push_back(line);
    std::snprintf(line, sizeof line, "|M - M0|/|M0| = %.2e   Newton %d   step %.1f us", row[20],
                  sim_.newtonIterations(), sim_.stepMicros());
    out.hud.push_back(line);
    out.hud.push_back(lgvi ? "LGVI: " + lgviOptionsText(lgviOptionsFrom(params_)) : sim_.integratorName() + " (baseline)");
    out.camera.follow = true;
    out.camera.target = toVec3f(g.x);
    out.camera.distance = float(3.0 * boxSize_.maxCoeff() + 2.0);
    out.camera.showGround = params_.vec3("gravity").norm() == 0.0;
    out.camera.groundHeight = float(-1.5 * boxSize_.maxCoeff());
  }

 private:
  Vector3d corner() const { return sim_.pose().act(0.5 * boxSize_); }

  FreeBodySim sim_;
  Vector3d boxSize_;
  double energy0_ = 0.0;
  Vector6d momentum0_ = Vector6d::Zero();
  double scaleL_ = 0.0, scaleOmega_ = 0.0;
  PointTrail trail_;  // drawing only, not part of the state
};

}  // namespace

VARSIM_REGISTER_SCENE(SceneInfo{
    "rigid_body", "Free rigid body (Lie group variational integrator)",
    "A free rigid body (a box with the given mass and principal moments) on the Lie group variational "
    "integrator of seed 000 eqs. (9)-(10) with the ERRATA fixes (correct SE(3) Cayley translation block, "
    "discrete-Legendre start), group SE(3) or SO(3)xR3, tau and C selectable; or on a baseline of Sec. 3.3 (rk2, "
    "rk2i, rk4, newmark; momentum and energy then of II xi). "
    "Columns L_*, p_* are the discrete momentum map Ad*_{g^-1}(mu^-_k + (h/2) f_k) (with gravity 0 this "
    "is the left momentum mu^-_k, conserved to round-off for (cay,cay) and (exp,exp)); energy is its "
    "kinetic energy plus -m g.x. Initial pose: identity at the origin.",
    rigidBodyParams,
    validateRigidBody,
    [](const ParamSet& p) -> std::unique_ptr<Scene> { return std::make_unique<RigidBodyScene>(p); }});

}  // namespace varsim
