// scenes/marionette/marionette_scene.cpp — scene `marionette` (issue 11): a 25-DOF puppet on the seed 003 tree
// (scenes/marionette/marionette_model.h) hung by strings — distance constraints held at q_{k+1} with multipliers — from a control
// bar whose pose and hand-string lengths are kinematic variables the player drives (scenes/marionette/marionette_controls.h).
// Stepped by the generalized-midpoint VI with the bar moving over each step (TreeStepper::setKinematicTarget), joint
// damping, and soft joint limits plus a penalty floor contact as a state force inside the discrete Lagrange–d'Alembert
// forcing (engine/tree/tree_penalty.h).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "engine/integrators/tree_midpoint.h"
#include "engine/sim/input_track.h"
#include "engine/tree/tree_lagrangian.h"
#include "scenes/marionette/marionette_controls.h"
#include "scenes/marionette/marionette_drawing.h"
#include "scenes/marionette/marionette_model.h"
#include "scenes/marionette/marionette_strings.h"
#include "scenes/scene.h"

namespace varsim {
namespace {

using Eigen::VectorXd;

std::vector<ParamSpec> marionetteParams() {
  return {
      ParamSpec::integer("strings", 6, 2, 6,
                         "number of strings, in this order: head, back, left hand, right hand, left knee, right knee"),
      ParamSpec::real("string_length", 0.5, 0.2, 2.0, "m", "height of the bar above the top of the head at rest"),
      ParamSpec::real("mass", 1.0, 0.2, 20.0, "kg", "total puppet mass (torso 38 %, head 12 %, limbs the rest)"),
      ParamSpec::real("damping", 0.004, 0.0005, 0.05, "N m s/kg",
                      "viscous damping of every joint (not of the free torso), per kg of puppet")
          .setLive(),
      ParamSpec::real("limit_stiffness", 2.0, 0.0, 50.0, "N m/(rad kg)",
                      "soft joint limits: V = k/2 (excess)^2 beyond each joint's range, per kg of puppet"),
      ParamSpec::real("floor_stiffness", 3000.0, 100.0, 30000.0, "N/(m kg)",
                      "floor penalty per contact point and kg of puppet (feet, knees, hands, head, seat); "
                      "Hunt-Crossley damping 10 s/m times this"),
      ParamSpec::real("friction", 0.8, 0.0, 2.0, "",
                      "Coulomb friction of the floor, regularised over 0.05 m/s of slip"),
      ParamSpec::real("gravity", 9.81, 0.0, 20.0, "m/s^2", "gravitational acceleration, along -z"),
      ParamSpec::real("bar_speed", 0.4, 0.05, 2.0, "m/s", "bar speed at full stick / key"),
      ParamSpec::real("tilt", 0.3, 0.0, 0.5, "rad", "bar roll/pitch at full stick / key"),
      ParamSpec::real("pull", 0.25, 0.0, 0.4, "m", "hand-string shortening at full trigger / key"),
      ParamSpec::choice("integrator", "midpoint", {"midpoint"},
                        "the generalized-midpoint VI (seed 003 eqs. 21-26, alpha = 1/2) with string multipliers. Not "
                        "offered: trapezoidal (its forcing takes no configuration-dependent force: no limits, no "
                        "floor), RK4 (no constraints), alpha > 1/2 (it moves part of the stiff penalty forces into the "
                        "next step's explicit momentum update: Newton fails from alpha = 0.75 on the recorded walk)"),
      ParamSpec::real("dt", 1.0 / 60.0, 0.002, 0.03, "s", "time step (0.04 fails within 23 steps of the walk)")
          .setLog(),
  };
}

class MarionetteScene : public Scene {
 public:
  explicit MarionetteScene(ParamSet params)
      : Scene(std::move(params)), model_(config(params_)), stepper_(model_.tree(), 0.5) {
    limits_.speed = params_.real("bar_speed"), limits_.tilt = params_.real("tilt"), limits_.pull = params_.real("pull");
    setDamping();
    forcing_.state = &model_.penalty();
    std::copy_n(model_.restBar().data(), 5, bar_.pos.begin());
    tree().setKinematic(barVector(bar_), VectorXd::Zero(5));
    stepper_.initialize(model_.restPose(), VectorXd::Zero(tree().dof()), h_, forcing_);
  }

  std::vector<ControlSpec> controls() const override { return marionetteControls(); }

  void step(double h, const InputVector& inputs) override {
    InputVector in = inputs;
    sanitizeInputs(marionetteControls(), in);  // NaN -> neutral, clamped
    if (h != h_) stepper_.initialize(stepper_.q(), stepper_.qdot(), h, forcing_), h_ = h;
    const MarionetteBarState next = bar_.advanced(in, h, limits_, model_.barHeight());
    const tree::TreeConstraints before = strings_.all();
    const VectorXd k0 = tree().kinematicValue();
    setStringLengths(next);
    try {
      iters_ = strings_.step(stepper_, forcing_, barVector(next),
                             h);  // throws with the state kept
    } catch (...) {
      strings_.all() = before;
      throw;
    }
    work_ += strings_.work(stepper_, before, k0, h);
    bar_ = next, time_ += h;
  }
  double time() const override { return time_; }
  double inputWork() const override { return work_; }

  void applyLive(const ParamSet& params) override {
    params_ = params;
    setDamping();
  }

  std::vector<std::string> columns() const override {
    return {"t",        "energy",    "constraint_rms", "constraint_max", "newton_iters", "x",        "y",     "z",
            "kinetic",  "potential", "penalty",        "input_work",     "floor_force",  "bar_x",    "bar_y", "bar_z",
            "bar_roll", "bar_pitch", "pull_l",         "pull_r",         "hand_l_z",     "hand_r_z", "taut"};
  }

  void diagnostics(std::vector<double>& row) const override {
    setTreeToState();
    const tree::Tree& t = model_.tree();
    const double T = tree::kineticEnergy(t), V = tree::potentialEnergy(t), P = model_.penalty().potential(t);
    double rms = 0;
    const double worst = strings_.violation(t, &rms);
    const Eigen::Vector3d hand(0, 0, -0.12);
    row = {time_,
           T + V + P,
           rms,
           worst,
           double(iters_),
           t.q()(0),
           t.q()(1),
           t.q()(2),
           T,
           V,
           P,
           work_,
           model_.penalty().normalForce(t)};
    row.insert(row.end(), bar_.pos.begin(),
               bar_.pos.end());  // bar x, y, z, roll, pitch, pulls left, right
    for (bool left : {true, false}) row.push_back(tree::pointPosition(t, model_.handFrame(left), hand).z());
    row.push_back(strings_.tautCount());
  }

  // Kinetic energy (times 1 + (h |qdot|_inf)^2) plus the puppet's weight times its height: the energy the step error is
  // proportional to.
  double energyScale() const override {
    setTreeToState();
    const double hv = h_ * model_.tree().qdot().lpNorm<Eigen::Infinity>();
    return tree::kineticEnergy(model_.tree()) * (1 + hv * hv) + params_.real("mass") * params_.real("gravity") * 0.7;
  }

  std::vector<double> saveState() const override {
    std::vector<double> s{time_, h_, work_, double(iters_)};
    s.insert(s.end(), bar_.pos.begin(), bar_.pos.end());
    s.insert(s.end(), bar_.vel.begin(), bar_.vel.end());
    for (bool b : strings_.tautMask()) s.push_back(b);
    const VectorXd lambda = strings_.multipliers(stepper_), rate = tree().kinematicRate();
    s.insert(s.end(), lambda.data(),
             lambda.data() + lambda.size());  // the next step's Newton warm start
    s.insert(s.end(), rate.data(),
             rate.data() + rate.size());  // the bar's velocity over the last step
    const std::vector<double> inner = stepper_.saveState();
    s.insert(s.end(), inner.begin(), inner.end());
    return s;
  }
  void loadState(const std::vector<double>& s) override {
    const size_t n = size_t(strings_.all().count()), flags = 4 + 2 * kChCount, header = flags + 2 * n + 5;
    if (s.size() < header) throw BadInput("marionette state: " + std::to_string(s.size()) + " numbers, need more");
    MarionetteBarState bar;
    std::copy_n(s.begin() + 4, kChCount, bar.pos.begin());
    std::copy_n(s.begin() + 4 + kChCount, kChCount, bar.vel.begin());
    std::vector<bool> taut;
    for (size_t j = flags; j < flags + n; ++j) {
      if (s[j] != 0 && s[j] != 1) throw BadInput("marionette state: taut flag " + std::to_string(s[j]) + " not 0 or 1");
      taut.push_back(s[j] == 1);
    }
    if (!(s[3] >= 0 && s[3] <= 1e6)) throw BadInput("marionette state: Newton count out of [0, 1e6]");
    for (int c = 0; c < kChCount; ++c)
      if (!std::isfinite(bar.pos[c]) || !std::isfinite(bar.vel[c])) throw BadInput("marionette state: non-finite bar");
    for (int c : {kChPullL, kChPullR})
      if (!(bar.pos[c] >= 0 && bar.pos[c] <= 0.4))
        throw BadInput("marionette state: pull " + std::to_string(bar.pos[c]) + " not in [0, 0.4]");
    const VectorXd lambda = Eigen::Map<const VectorXd>(s.data() + flags + n, long(n)),
                   rate = Eigen::Map<const VectorXd>(s.data() + flags + 2 * n, 5);
    if (!lambda.allFinite() || !rate.allFinite()) throw BadInput("marionette state: non-finite multiplier or bar rate");
    stepper_.loadState(std::vector<double>(s.begin() + long(header), s.end()));  // validates h, sizes, finiteness
    time_ = s[0], h_ = s[1], work_ = s[2], iters_ = int(s[3]), bar_ = bar;
    strings_.setTaut(taut);
    strings_.restoreMultipliers(stepper_, lambda);
    tree().setKinematic(barVector(bar_), rate);
    setStringLengths(bar_);
  }

  std::vector<PlotSpec> plots() const override {
    return {{"Energy (J)", {"energy", "kinetic", "potential", "penalty", "input_work"}},
            {"String residual |h(q)| (m)", {"constraint_max", "constraint_rms"}, true},
            {"Newton iterations per step", {"newton_iters"}},
            {"Bar pose (m, rad)", {"bar_x", "bar_y", "bar_z", "bar_roll", "bar_pitch"}},
            {"Floor normal force (N)", {"floor_force"}},
            {"Hands height (m)", {"hand_l_z", "hand_r_z"}}};
  }

  void draw(DrawList& out) const override {
    setTreeToState();
    std::vector<double> row;
    diagnostics(row);
    drawMarionette(model_, strings_, out);
    marionetteHud(row, params_, out);
  }

 private:
  static MarionetteConfig config(const ParamSet& p) {
    MarionetteConfig c;
    c.strings = int(p.integer("strings")), c.stringLength = p.real("string_length"), c.mass = p.real("mass");
    c.gravity = p.real("gravity"), c.limitStiffness = p.real("limit_stiffness");
    c.floorStiffness = p.real("floor_stiffness"), c.floorDamping = 10 * c.floorStiffness,
    c.friction = p.real("friction");
    return c;
  }
  static VectorXd barVector(const MarionetteBarState& b) { return Eigen::Map<const VectorXd>(b.pos.data(), 5); }
  tree::Tree& tree() const { return stepper_.tree(); }
  void setTreeToState() const { tree().setState(stepper_.q(), strings_.tangentVelocity(stepper_)); }
  void setDamping() {
    forcing_.damping = VectorXd::Constant(tree().dof(), params_.real("damping") * params_.real("mass"));
    forcing_.damping.head(6).setZero();  // the free torso has no joint
  }
  // String lengths for the bar state b: the rest length, minus the pull for the hand strings (indices 2, 3).
  void setStringLengths(const MarionetteBarState& b) {
    for (int j = 2; j < std::min(4, strings_.all().count()); ++j)
      strings_.all().setLength(j, model_.stringInfo()[size_t(j)].restLength - b.pos[size_t(kChPullL + j - 2)]);
  }

  MarionetteModel model_;
  SlackStrings strings_{model_.strings()};  // the model's strings, lengths moved by the pulls
  MarionetteLimits limits_;
  tree::TreeForcing forcing_;
  tree::TreeMidpoint stepper_;  // holds a reference to model_'s tree
  MarionetteBarState bar_;
  double h_ = dt(), time_ = 0, work_ = 0;
  int iters_ = 0;  // Newton iterations of the last step, all active-set passes
};

}  // namespace

VARSIM_REGISTER_SCENE(SceneInfo{
    "marionette", "Marionette (tree + strings)",
    "A 25-DOF marionette (free torso, head, arms and legs on ball joints of three hinges, hinged elbows and knees) "
    "built as a seed 003 tree and hung by up to six strings (head, back, hands, knees) from a control bar. Strings are "
    "distance constraints held at q_k+1 with multipliers; the bar pose (x, y, z, roll, pitch) and the hand-string "
    "lengths are kinematic variables moving over each step. W/A/S/D move the bar, E/Q raise/lower it, the arrows tilt "
    "it (roll to walk, pitch to bow), L / I or the triggers pull the right / left hand string (wave). Joint damping, "
    "soft joint limits (a potential) and a dissipative penalty floor with friction; energy = T + V + penalty "
    "potential; input_work is the work of the strings while the bar or a string moves.",
    marionetteParams, nullptr,
    [](const ParamSet& p) -> std::unique_ptr<Scene> { return std::make_unique<MarionetteScene>(p); }});

}  // namespace varsim
