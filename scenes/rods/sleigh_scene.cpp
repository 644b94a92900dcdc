// Scene `sleigh`: the Chaplygin sleigh built from one rod with a no-side-slip blade at its tail (a
// nonholonomic row relaxed by γ, seed 001 eq. (29)). It stops turning and glides straight; with γ
// large the blade skids; `side_slip` prescribes a drift w across the blade.
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/models/sleigh.h"
#include "engine/sim/errors.h"
#include "scenes/rods/rod_scene.h"
#include "scenes/vehicles/vehicle_drawing.h"

namespace varsim {

namespace {

const std::vector<std::string> kSleighGroups = {"unit", "plane"};

std::vector<ParamSpec> sleighParams() {
  std::vector<ParamSpec> p{
      ParamSpec::real("mass", 5.0, 1e-6, 1e6, "kg",
                      "sleigh (rod) mass; from 1e-6 kg (ran 3 s; at 1e-308 the SPOOK system was singular at step 1)"),
      ParamSpec::real("length", 1.0, 0.01, 100.0, "m",
                      "rod length; the blade is at the tail, the centre of mass l/2 ahead; from 0.01 m (ran 3 s at speed "
                      "100; 0.001 at speed 100 and 1e-5 at rest stopped at step 1-2, velocity past 1e5 m/s)"),
      ParamSpec::real("speed", 1.0, -100.0, 100.0, "m/s", "initial forward speed of the blade"),
      ParamSpec::real("yaw_rate", 2.0, -100.0, 100.0, "rad/s", "initial yaw rate"),
      ParamSpec::real("side_slip", 0.0, -10.0, 10.0, "m/s", "prescribed velocity across the blade, w of A(q) qdot = w").setLive(),
  };
  // The rigid rod by default, as for the ladder and chain: its length is exact where the director's row u.u = 1 lets
  // the rod stretch. A sleigh sliding backwards flips round (l = 0.1 m at -2.4 m/s: |u.u-1|/2 up to 0.44 director,
  // 1e-16 rigid; blade slip 0.87 against 0.11 m/s; test_rod_scenes), and l = 1 mm diverged in 3 steps as director.
  // Over 20 s at every range end (mass, length, speed, yaw_rate, side_slip, dt, epsilon, tau, gamma, gravity) the
  // rigid sleigh exited 0 with E never above E(0) plus the side slip's work. rod_model=director is the paper's.
  for (auto& r : rodSceneParams(kSleighGroups, false, true, "rigid")) p.push_back(r);
  return p;
}

// The ground rows of the rigid rod on SPOOK need tau tau_plane >= 0.1 dt, as the rods' joints do. Measured (10 s,
// speed 100, yaw_rate 100, speed -100, side_slip 10, gravity 100 per axis, length 0.01 at speed 100): tau/h = 0.048,
// 0.1 and 0.24 held the rod within 8.4e-6 m of the ground, unflagged; 0.018 and below let it lift 2-5 mm, and tau = 0
// (or tau_plane = 0) 8.6 m, flagged at t = 0.42-0.43 s (+1513 J > 1328 J at speed 100): the energy gained is the
// ground rows' undamped oscillation, not its bookkeeping.
void validateSleighStart(const ParamSet& p) {
  if (p.choice("stepper") != "spook" || p.choice("rod_model") != "rigid") return;
  validateRelaxationTime(p, {"plane"},
                         "tau = 0 lifted the rod 8.6 m off the ground at speed 100 and gained energy at 0.43 s, "
                         "tau/h = 0.018 2 mm; 0.048 and 0.1 held it within 3e-7 m");
}

SleighConfig configFrom(const ParamSet& p) {
  SleighConfig c;
  c.mass = p.real("mass");
  c.length = p.real("length");
  c.speed = p.real("speed");
  c.yawRate = p.real("yaw_rate");
  c.sideSlip = p.real("side_slip");
  return c;
}

class SleighScene : public RodScene {
 public:
  explicit SleighScene(const ParamSet& params) : RodScene(params, kSleighGroups), sleigh_(configFrom(params)) {
    initSimulation(sleigh_.system(), {0, -1}, 0, sleigh_.config().mass);
  }
  void applyLive(const ParamSet& params) override {
    sleigh_.system().setSideSlip(sleigh_.bladeConstraint(), params.real("side_slip"));
    RodScene::applyLive(params);
  }

  // The prescribed drift w is a moving constraint: the blade force alpha n (n = e_z x u, alpha its impulse)
  // does work alpha w per step. SPOOK: alpha is the blade row's impulse, summed over the step's sub-steps
  // (rigid_rod_spook.h lastFrameImpulse), so the work is booked sub-step by sub-step along the turning blade. The
  // RK4 baseline: alpha from the momentum balance of the rod's centre, the one body coordinate the blade pushes
  // horizontally, M dv = h m g + A^T alpha + (vertical ground rows), alpha = n.(m dv - h m g)/|n|^2 with n at the
  // step's start (measured: w = 1 m/s adds 1.64 J to the default sleigh's 13.3 J in 20 s, all of it this work).
  // The centre's balance with n at the start booked a sleigh that turned within the step wrongly: side_slip 10
  // on a 0.01 m rod spun up to 2000 rad/s in one step and read +356 J; -10 at dt 0.1 read +37 J.
  void step(double h, const InputVector& inputs) override {
    const MechanicalState& s = main_->state;
    const Eigen::Vector3d u = system_->direction(0, s.q), n = Eigen::Vector3d::UnitZ().cross(u);
    const Eigen::Vector3d v0 = centreVelocity();
    RodScene::step(h, inputs);
    const double m = sleigh_.config().mass, w = params_.real("side_slip");
    if (const Eigen::VectorXd* impulse = main_->lastStepImpulse()) {
      inputWork_ += (*impulse)(main_->spook()->rowOffset(sleigh_.bladeConstraint())) * w;
      return;
    }
    const double alpha = n.dot(m * (centreVelocity() - v0) - h * m * system_->gravity()) / n.squaredNorm();
    if (n.squaredNorm() > 0.0) inputWork_ += alpha * w;
  }
  double inputWork() const override { return inputWork_; }
  std::vector<double> saveState() const override {
    std::vector<double> state = RodScene::saveState();
    state.push_back(inputWork_);
    return state;
  }
  void loadState(const std::vector<double>& state) override {
    if (state.empty()) throw BadInput("sleigh state: empty");
    RodScene::loadState(std::vector<double>(state.begin(), state.end() - 1));
    inputWork_ = state.back();
  }

 protected:
  void extraColumns(std::vector<std::string>& c) const override {
    c.insert(c.end(), {"x", "y", "theta", "speed", "yaw_rate", "slip", "ground_gap", "reduced_energy"});
  }
  void extraDiagnostics(std::vector<double>& row) const override {
    const MechanicalState& s = main_->state;
    const Eigen::Vector3d pose = sleigh_.pose(s.q);
    const double v = sleigh_.forwardSpeed(s.q, s.v), w = sleigh_.yawRate(s.q, s.v);
    const double gap = std::max(system_->constraintViolation(1, s.q, s.v, s.t), system_->constraintViolation(2, s.q, s.v, s.t));
    row.insert(row.end(), {pose.x(), pose.y(), pose.z(), v, w,
                           system_->constraintViolation(sleigh_.bladeConstraint(), s.q, s.v, s.t), gap, sleigh_.reducedEnergy(v, w)});
  }
  void drawExtras(DrawList& out) const override {
    const MechanicalState& s = main_->state;
    const Eigen::Vector3d p = system_->point({0, -1}, s.q), u = system_->direction(0, s.q).normalized();
    // The blade: a thin box along u at the tail.
    Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
    T.linear() = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitX(), u).toRotationMatrix();
    T.translation() = p;
    ShapeItem blade;
    blade.kind = ShapeKind::Box;
    blade.transform = toMat4(T);
    blade.size = {float(0.3 * sleigh_.config().length), 0.01f, 0.06f};
    blade.color = {0.9f, 0.9f, 0.95f, 1.0f};
    out.shapes.push_back(blade);
    char buf[120];
    std::snprintf(buf, sizeof buf, "speed %.3f m/s  yaw rate %.3f rad/s  blade slip %.2e m/s", sleigh_.forwardSpeed(s.q, s.v),
                  sleigh_.yawRate(s.q, s.v), system_->constraintViolation(sleigh_.bladeConstraint(), s.q, s.v, s.t));
    out.hud.push_back(buf);
    out.camera.follow = true;
    out.camera.target = {float(p.x()), float(p.y()), 0.0f};
    out.camera.heading = float(std::atan2(u.y(), u.x()));
    out.camera.distance = float(4.0 * sleigh_.config().length + 2.0);
    out.camera.showGround = true;
  }

 private:
  Eigen::Vector3d centreVelocity() const { return main_->state.v.segment<3>(system_->bodies()[0].offset); }

  Sleigh sleigh_;
  double inputWork_ = 0.0;  // J, since reset: work of the prescribed side slip
};

}  // namespace

VARSIM_REGISTER_SCENE(SceneInfo{
    "sleigh", "Chaplygin sleigh (nonholonomic)",
    "A rod on the ground with a knife-edge blade at its tail that cannot slide sideways: the nonholonomic row "
    "A(q) qdot = w of SPOOK, relaxed by gamma. Energy is conserved by the continuous system; the sleigh stops turning "
    "and glides straight at sqrt(2E/m). Raise gamma to let the blade skid, or set side_slip to prescribe a drift. "
    "The rod is rigid (length exact); rod_model=director is the paper's centre + director, whose length row lets "
    "the rod stretch when the sleigh flips round (sliding backwards).",
    sleighParams, validateSleighStart, [](const ParamSet& p) { return std::make_unique<SleighScene>(p); }});

}  // namespace varsim
