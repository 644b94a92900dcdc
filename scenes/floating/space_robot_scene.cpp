// scenes/floating/space_robot_scene.cpp — scene `space_robot` (issue 12): a satellite with a three-link arm in zero gravity
// on the SE(3) x R^3 variational integrator, starting at rest with zero momentum. Sticks/keys set joint-rate
// targets that a servo turns into INTERNAL joint torques, so the momentum map (65) stays zero to round-off while
// the base turns (the falling-cat effect); "Reorient" runs closed joint loops picked by simulation until the base
// has turned by theta about a base axis. Physics and control: engine/floating (shape_control.h).
#include <cmath>
#include <cstdio>

#include "engine/floating/chain_builders.h"
#include "engine/floating/shape_control.h"
#include "engine/lie/so3.h"
#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "scenes/floating/floating_columns.h"
#include "scenes/floating/floating_drawing.h"
#include "scenes/rigid_body/rigid_body_drawing.h"
#include "scenes/scene.h"

namespace varsim {
namespace {

using floating::FloatingChain;
using floating::FloatingForces;
using floating::FloatingStepper;
using floating::ShapeLoop;

constexpr double kSettle = 1.5;  // s: ease to the rest shape before the loops
constexpr double kHold = 0.5;    // s: hold the rest shape after each loop (the arm comes to rest)
constexpr double kLimit = 2.8;   // rad: joint reference limit of the manual mode

// Lower bounds of the body keys: the floating chain's measured floors (1e-6 kg, 1e-3 m). Here every decade of a
// mass down to 1e-300 kg and of a length down to 1e-100 m ran 10 s; 5e-324 kg and 1e-300 m gave singular inertias.
std::string massHelp(const std::string& what) {
  return what + "; from 1e-6 kg (ran 10 s down to 1e-300; 5e-324 gave a singular inertia)";
}
std::string sizeHelp(const std::string& what) {
  return what + "; from 1e-3 m (ran 10 s down to 1e-100; 1e-300 gave a singular inertia)";
}

std::vector<ParamSpec> robotParams() {
  return {
      ParamSpec::real("base_mass", 20.0, 1e-6, 1e4, "kg", massHelp("satellite body mass")),
      ParamSpec::vector("base_size", {1.0, 1.0, 1.0}, 1e-3, 100.0, "m", sizeHelp("satellite box edges")),
      ParamSpec::vector("link_masses", {3.0, 3.0, 2.0}, 1e-6, 1e4, "kg",
                        massHelp("arm link masses (shoulder, upper, fore)")),
      ParamSpec::vector("link_lengths", {0.6, 0.8, 0.8}, 1e-3, 100.0, "m", sizeHelp("arm link lengths")),
      ParamSpec::vector("rest_angles", {0.0, -0.5, 1.0}, -kLimit, kLimit, "rad",
                        "rest shape r0: joints about base z, y, y (the loops start and end here)"),
      ParamSpec::real("max_rate", 1.0, 0.0, 5.0, "rad/s", "joint rate at full stick").setLive(),
      ParamSpec::real("servo_frequency", 4.0, 0.1, 20.0, "rad/s",
                      "joint servo natural frequency wn (critically damped)")
          .setLive(),
      ParamSpec::real("loop_period", 3.0, 0.5, 20.0, "s", "duration of one closed joint loop of the reorientation"),
      ParamSpec::real("loop_amplitude", 0.8, 0.05, 1.5, "rad",
                      "largest loop amplitude (the planner also tries 1/2 ... 1/16 of it)"),
      ParamSpec::real("dt", 1.0 / 60.0, 0.0, 0.05, "s", "time step", true).setLive().setLog(),
  };
}

FloatingChain buildRobot(const ParamSet& p) {
  const std::vector<double>& m = p.vector("link_masses");
  const std::vector<double>& L = p.vector("link_lengths");
  std::vector<floating::ArmLink> links;
  const Vector3d axes[3] = {Vector3d::UnitZ(), Vector3d::UnitY(), Vector3d::UnitY()};
  for (int i = 0; i < 3; ++i) links.push_back({m[i], Vector3d(L[i], 0.15 * L[i], 0.15 * L[i]), axes[i]});
  return floating::serialArm(p.real("base_mass"), p.vec3("base_size"), links);
}

class SpaceRobotScene : public Scene {
 public:
  explicit SpaceRobotScene(ParamSet params)
      : Scene(std::move(params)), chain_(buildRobot(params_)), stepper_(chain_, {}) {
    rest_ = Eigen::Map<const Eigen::VectorXd>(params_.vector("rest_angles").data(), 3);
    rRef_ = rest_;
    stepper_.initialize(se3::Pose(), rest_, Eigen::VectorXd::Zero(9), dt(), {});  // at rest: zero momentum
    look_.sizes.push_back(params_.vec3("base_size"));
    const std::vector<double>& L = params_.vector("link_lengths");
    for (int i = 0; i < 3; ++i) look_.sizes.push_back(Vector3d(L[i], 0.15 * L[i], 0.15 * L[i]));
    look_.colors = {
        {0.85f, 0.75f, 0.3f, 1.0f}, {0.7f, 0.7f, 0.75f, 1.0f}, {0.3f, 0.55f, 0.95f, 1.0f}, {0.95f, 0.55f, 0.15f, 1.0f}};
    look_.hingeRadius = 0.09 * L[0] * 0.5;
  }

  std::vector<ControlSpec> controls() const override {
    return {{"shoulder_rate", -1, 1, 0, "joint 1 (about base z) rate target, times max_rate"},
            {"upper_rate", -1, 1, 0, "joint 2 (about y) rate target"},
            {"fore_rate", -1, 1, 0, "joint 3 (about y) rate target"}};
  }

  void step(double h, const InputVector& in) override {
    if (h != stepper_.stepSize()) stepper_.setStepSize(h);
    Eigen::Vector3d stick = Eigen::Vector3d::Zero();
    for (int i = 0; i < 3 && i < int(in.size()); ++i)
      stick(i) = std::isfinite(in[i]) ? std::clamp(in[i], -1.0, 1.0) : 0;
    if (mode_ != Mode::Manual && stick.norm() > 0.05) mode_ = Mode::Manual, rRef_ = stepper_.r();  // sticks win
    Eigen::VectorXd r, rd;
    reference(h, stick, r, rd);
    FloatingForces f;
    f.jointTorque = floating::servoTorque(chain_, stepper_.r(), stepper_.velocity().tail(3), r, rd, wn());
    const Eigen::VectorXd r0 = stepper_.r();
    stepper_.step(f);  // throws SimulationDiverged with the state kept (the maneuver state is not advanced)
    work_ += f.jointTorque.dot(stepper_.r() - r0);
    phaseTime_ += h;
    advanceManeuver();
  }
  double time() const override { return stepper_.time(); }
  double inputWork() const override { return work_; }
  double energyScale() const override {
    const double rate = params_.real("max_rate") + 1.0;
    double s = 0;
    for (int i = 1; i < chain_.bodies(); ++i) s += chain_.body(i).mass * std::pow(rate * 2.0, 2);
    return s + std::abs(stepper_.energy(Vector3d::Zero()));
  }

  std::vector<std::string> columns() const override {
    std::vector<std::string> c = floatingStandardColumns();
    c.insert(c.end(), {"r_1", "r_2", "r_3", "newton_iters", "att_x", "att_y", "att_z", "att_angle", "loops",
                       "momentum_norm", "maneuver_error", "substeps"});
    return c;
  }
  void diagnostics(std::vector<double>& row) const override {
    floatingStandardRow(stepper_, stepper_.energy(Vector3d::Zero()), row);
    const Vector3d att = so3::log(stepper_.pose().R);  // base attitude change from the start (identity)
    const Eigen::VectorXd& r = stepper_.r();
    row.insert(row.end(), {r[0], r[1], r[2], double(stepper_.newtonIterations()), att[0], att[1], att[2], att.norm(),
                           double(loops_), stepper_.momentumMap().norm(), maneuverError(),
                           double(stepper_.substeps())});
  }
  std::vector<PlotSpec> plots() const override {
    return {{"Base attitude change (rad) and completed joint loops", {"att_angle", "att_x", "att_y", "att_z", "loops"}},
            {"Momentum map (65): L (about the origin)", {"L_x", "L_y", "L_z"}},
            {"Momentum map (65): p", {"p_x", "p_y", "p_z"}},
            {"Joint angles (rad)", {"r_1", "r_2", "r_3"}},
            {"Energy (J)", {"energy"}},
            {"Newton iterations per step", {"newton_iters"}}};
  }

  std::vector<double> saveState() const override {
    std::vector<double> s = stepper_.saveState();
    s.insert(s.end(), {double(int(mode_)), phaseTime_, double(loop_.a), double(loop_.b), loop_.sign, loop_.amplitude,
                       double(loops_), predicted_, work_});
    s.insert(s.end(), target_.data(), target_.data() + 9);
    s.insert(s.end(), rRef_.data(), rRef_.data() + 3);
    s.insert(s.end(), from_.data(), from_.data() + 3);
    return s;
  }
  void loadState(const std::vector<double>& s) override {
    const size_t extra = 9 + 9 + 3 + 3;
    if (s.size() <= extra) throw BadInput("space_robot state: " + std::to_string(s.size()) + " numbers, too few");
    const size_t n = s.size() - extra;
    const double* p = s.data() + n;
    for (size_t i = 0; i < extra; ++i)
      if (!std::isfinite(p[i])) throw BadInput("space_robot state: non-finite maneuver entry " + std::to_string(i));
    if (!(p[0] >= 0 && p[0] <= 3) || !(p[2] >= 0 && p[2] < 3) || !(p[3] >= 0 && p[3] < 3) || !(p[5] > 0) ||
        !(p[6] >= 0 && p[6] <= 1e9))
      throw BadInput("space_robot state: bad maneuver mode, joint pair, amplitude or loop count");
    stepper_.loadState(std::vector<double>(s.begin(), s.begin() + long(n)));
    mode_ = Mode(int(p[0])), phaseTime_ = p[1], loop_.a = int(p[2]), loop_.b = int(p[3]), loop_.sign = p[4];
    loop_.amplitude = p[5], loops_ = long(p[6]), predicted_ = p[7], work_ = p[8];
    target_ = Eigen::Map<const Matrix3d>(p + 9), rRef_ = Eigen::Map<const Eigen::Vector3d>(p + 18);
    from_ = Eigen::Map<const Eigen::Vector3d>(p + 21);
    loop_.period = params_.real("loop_period");
  }

  // Live edits: "reorient" = "theta_deg,axis" (axis x|y|z of the base at the press) starts the maneuver; "stop".
  void applyEdit(const std::string& key, const std::string& value) override {
    if (key == "stop") return void((mode_ = Mode::Manual, rRef_ = stepper_.r()));
    if (key != "reorient") return Scene::applyEdit(key, value);
    const size_t comma = value.find(',');
    const std::string axisText = comma == std::string::npos ? "" : value.substr(comma + 1);
    const NumberText num = parseNumber(value.substr(0, comma == std::string::npos ? value.size() : comma));
    const double deg = num.value;
    if (!num.ok || !(std::abs(deg) <= 180.0) || (axisText != "x" && axisText != "y" && axisText != "z"))
      throw BadInput("space_robot edit 'reorient' = '" + value +
                     "': need 'degrees,axis' with degrees in [-180, 180] "
                     "and axis x, y or z");
    const Vector3d axis = Vector3d::Unit(axisText[0] - 'x');
    target_ = stepper_.pose().R * so3::exp(deg * M_PI / 180.0 * axis);
    mode_ = Mode::Settle, phaseTime_ = 0.0, from_ = stepper_.r(), loops_ = 0;
  }

  std::vector<ScenePanel> panels(const PanelContext& ctx) const override {
    const std::string deg = ctx.get("angle", "30"), axis = ctx.get("axis", "1");
    PanelTab tab{"Reorient", {}};
    tab.widgets.push_back(
        PanelWidget::number("angle", parseNumber(deg).value, "theta [deg] %.4g").tip("in [-180, 180]"));
    tab.widgets.push_back(
        PanelWidget::choice("axis", {"x", "y", "z"}, int(parseNumber(axis).value), "about base axis"));
    tab.widgets.push_back(PanelWidget::button("Reorient", "reorient"));
    tab.widgets.push_back(PanelWidget::button("Stop", "stop"));
    const char* names[] = {"manual (sticks drive joint rates)", "settling to the rest shape", "running a joint loop",
                           "done"};
    char line[160];
    std::snprintf(line, sizeof line, "%s; loops %ld; attitude error %.3g rad (planned %.3g)", names[int(mode_)], loops_,
                  maneuverError(), predicted_);
    tab.widgets.push_back(PanelWidget::text(line).tip(
        "attitude error: the angle from the base's attitude to the target. Inside a joint loop the base swings away and "
        "back, so the error rises and falls; only the net turn of each completed loop (the geometric phase, the "
        "'planned' angle per loop) accumulates. Read it at the end of a loop."));
    std::snprintf(line, sizeof line, "|J| = %.2e (zero momentum: exact up to round-off)",
                  stepper_.momentumMap().norm());
    tab.widgets.push_back(PanelWidget::text(line, PanelTone::Ok));
    return {{"Space robot", {}, {tab}, {}}};
  }
  std::vector<PanelEdit> panelAction(const PanelContext& ctx, const std::string& action,
                                     const std::string& value) const override {
    if (action == "angle") {
      const NumberText v = parseNumber(value);
      if (!v.ok || !(std::abs(v.value) <= 180.0))
        throw BadInput("reorient angle '" + value + "': " + (v.ok ? "outside [-180, 180] deg" : v.error));
      return {{PanelEdit::Kind::Local, "angle", value, 0.0}};
    }
    if (action == "axis") return {{PanelEdit::Kind::Local, "axis", value, 0.0}};
    if (action == "stop") return {{PanelEdit::Kind::SceneEdit, "stop", "", 0.0}};
    if (action == "reorient") {
      const int axis = int(parseNumber(ctx.get("axis", "1")).value);
      return {
          {PanelEdit::Kind::SceneEdit, "reorient", ctx.get("angle", "30") + "," + "xyz"[std::clamp(axis, 0, 2)], 0.0}};
    }
    return Scene::panelAction(ctx, action, value);
  }

  void draw(DrawList& out) const override {
    drawFloatingChain(out, chain_, stepper_.pose(), stepper_.r(), look_);
    const se3::Pose& g = stepper_.pose();
    drawArrow(out, g.x, 0.9 * look_.sizes[0].maxCoeff() * (g.R.col(2)), 0.03f, {0.2f, 0.4f, 1.0f, 1.0f});
    std::vector<double> row;
    diagnostics(row);
    char line[200];
    std::snprintf(line, sizeof line, "base turned %.1f deg   loops %ld   |J| = %.1e", row[22] * 180 / M_PI, loops_,
                  row[24]);
    out.hud.push_back(line);
    std::snprintf(line, sizeof line, "r = (%.2f, %.2f, %.2f) rad   Newton %d  substeps %d", row[15], row[16], row[17],
                  stepper_.newtonIterations(), stepper_.substeps());
    out.hud.push_back(line);
    out.camera.follow = true;
    out.camera.heading = float(M_PI / 2);  // seen from -y: the arm / chain lies along x across the view
    out.camera.setsAngles = true, out.camera.pitch = 0.35f;
    out.camera.target = toVec3f(g.act(chain_.centerOfMass(stepper_.r())));
    out.camera.distance = float(2.5 * (look_.sizes[0].maxCoeff() + params_.vector("link_lengths")[1] * 3.0));
    out.camera.showGround = false;
  }

 private:
  enum class Mode { Manual = 0, Settle = 1, Loop = 2, Done = 3 };
  double wn() const { return params_.real("servo_frequency"); }
  double maneuverError() const {
    return mode_ == Mode::Manual && loops_ == 0 ? 0.0 : so3::log(target_.transpose() * stepper_.pose().R).norm();
  }
  // The servo reference of this step: manual (integrated stick rates), settle (ease to rest), loop, or hold.
  void reference(double h, const Eigen::Vector3d& stick, Eigen::VectorXd& r, Eigen::VectorXd& rd) {
    const double t = phaseTime_ + h;
    if (mode_ == Mode::Settle) return floating::easeReference(from_, rest_, kSettle, t, r, rd);
    if (mode_ == Mode::Loop) return loop_.reference(rest_, t, r, rd);
    if (mode_ == Mode::Done) return void((r = rest_, rd = Eigen::VectorXd::Zero(3)));
    rd = params_.real("max_rate") * stick;
    rRef_ = (rRef_ + h * Eigen::Vector3d(rd)).cwiseMax(-kLimit).cwiseMin(kLimit);
    r = rRef_;
  }
  // At the end of a settle or loop phase: plan the next loop by simulation, or finish.
  void advanceManeuver() {
    const bool settled = mode_ == Mode::Settle && phaseTime_ >= kSettle - 1e-9;
    const bool looped = mode_ == Mode::Loop && phaseTime_ >= loop_.period + kHold - 1e-9;
    if (!settled && !looped) return;
    if (looped) ++loops_;
    ShapeLoop next;
    const bool go = loops_ < 50 && floating::planLoop(stepper_, rest_, target_, params_.real("loop_period"), wn(),
                                                      params_.real("loop_amplitude"), 5, 0.01, next, predicted_);
    mode_ = go ? Mode::Loop : Mode::Done, phaseTime_ = 0.0;
    if (go) loop_ = next;
    if (!go) rRef_ = rest_;
  }

  FloatingChain chain_;
  FloatingStepper stepper_;  // holds a reference to chain_
  FloatingLook look_;
  Eigen::VectorXd rest_;
  Eigen::Vector3d rRef_ = Eigen::Vector3d::Zero(), from_ = Eigen::Vector3d::Zero();
  Mode mode_ = Mode::Manual;
  ShapeLoop loop_;
  Matrix3d target_ = Matrix3d::Identity();
  double phaseTime_ = 0.0, predicted_ = 0.0, work_ = 0.0;
  long loops_ = 0;
};

}  // namespace

VARSIM_REGISTER_SCENE(SceneInfo{
    "space_robot", "Space robot: reorientation with zero momentum (seed 002 Sec. 5)",
    "A satellite with a three-link arm (joints about base z, y, y) in zero gravity, integrated on SE(3) x R^3 by the "
    "variational Lie group integrator of seed 002 eqs. (62)-(64). It starts at rest: the momentum map (65) (columns "
    "L_*, p_*) is zero and stays zero to round-off, because the joint servo's torques are internal. Sticks/keys set "
    "joint-rate targets; moving the arm through a closed loop of shapes turns the base (att_* = log of the base "
    "rotation, the falling-cat effect). The panel's Reorient runs such loops, each picked by simulating candidates "
    "(every joint pair, both directions, five amplitudes), until the base has turned by theta about the chosen axis "
    "(within 0.01 rad, or as close as the loops get).",
    robotParams, nullptr,
    [](const ParamSet& p) -> std::unique_ptr<Scene> { return std::make_unique<SpaceRobotScene>(p); }});

}  // namespace varsim
