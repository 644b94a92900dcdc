// scenes/vehicles/helicopter_scene.cpp — scene `helicopter`: the seed 000 Sec. 4.3.1 helicopter on the LGVI (or RK4)
// with drag, actuator limits, the flight assist, and a world of landing pads and a canyon. Controls: left
// stick yaw/throttle, right stick roll/pitch (in the default-binding order); without input the constant
// parameters are held (assist off) or the assist holds attitude and altitude (assist on).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/lie/so3.h"
#include "engine/models/flight_assist.h"
#include "engine/models/helicopter.h"
#include "engine/models/helicopter_world.h"
#include "engine/models/rigid_body.h"
#include "engine/models/wind_gusts.h"
#include "engine/sim/errors.h"
#include "scenes/rigid_body/free_body_sim.h"
#include "scenes/vehicles/helicopter_setup.h"
#include "scenes/vehicles/rigid_vehicle_scene.h"
#include "scenes/vehicles/helicopter_rk4_rules.h"
#include "scenes/rigid_body/step_bound_panel.h"

namespace varsim {

HelicopterSettings helicopterSettingsFrom(const ParamSet& p) {
  HelicopterSettings s;
  s.mass = p.real("mass");
  s.inertia = p.vec3("inertia");
  s.hubHeight = p.real("hub_height");
  s.tailArm = p.real("tail_arm");
  s.dragLinear = p.real("drag_linear");
  s.dragAngular = p.real("drag_angular");
  s.gravity = p.real("gravity");
  const Vector3d amax = p.vec3("actuator_max"), rate = p.vec3("actuator_rate");
  s.limits = {amax.x(), amax.y(), amax.z(), rate.x(), rate.y(), rate.z()};
  return s;
}

void helicopterStartFrom(const ParamSet& p, se3::Pose& g0, Vector6d& xi0) {
  // Yaw-pitch-roll (z-y-x): R = Rz(heading) Ry(pitch) Rx(roll); a level start keeps Rz(heading) bit for bit.
  g0.R = Eigen::AngleAxisd(p.real("start_heading"), Vector3d::UnitZ()).toRotationMatrix();
  const double pitch = p.real("start_pitch"), roll = p.real("start_roll");
  if (pitch != 0.0 || roll != 0.0)
    g0.R = g0.R * Matrix3d(Eigen::AngleAxisd(pitch, Vector3d::UnitY()) * Eigen::AngleAxisd(roll, Vector3d::UnitX()));
  g0.x = p.vec3("start_position");
  xi0.head<3>() = p.vec3("start_omega");
  xi0.tail<3>() = g0.R.transpose() * p.vec3("start_velocity");
}

bool helicopterImplicitContact(const ParamSet& p) {
  // rk4 keeps the soft explicit law: the stiff contact (h w_c = 4 at 1/60 s) is beyond RK4's stability limit.
  return p.choice("contact") == "implicit" && p.choice("integrator") == "lgvi";
}

ContactSettings helicopterContactFrom(const ParamSet& p) {
  return helicopterImplicitContact(p) ? ContactSettings::implicitFor(p.real("mass"), 4)  // the four skid ends
                                      : ContactSettings{};
}

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kMaxTurnPerStep = 1.2;  // rad per LGVI step in contact, see validateHelicopter
enum Control { kYaw = 0, kThrottle = 1, kRoll = 2, kPitch = 3 };

std::vector<ParamSpec> helicopterParams() {
  std::vector<ParamSpec> p = {
      ParamSpec::real("mass", 600.0, 0.0, 1e5, "kg", "helicopter mass m", true),
      ParamSpec::vector("inertia", {300.0, 1200.0, 1000.0}, 1e-6, 1e7, "kg m^2",
                        "principal moments J1 (roll, body x), J2 (pitch, y), J3 (yaw, z); from 1e-6 (ran 3 s; 1e-308 "
                        "gave a non-finite first step)"),
      ParamSpec::real("collective", 600.0 * 9.81, 0.0, 1e6, "N",
                      "held main-rotor thrust u_c (assist off); default hovers the default mass")
          .setLive(),
      ParamSpec::real("yaw", 0.0, -1e6, 1e6, "N", "held tail-rotor force u_psi (assist off; + yaws left)").setLive(),
      ParamSpec::real("pitch", 0.0, -1.5, 1.5, "rad", "held rotor tilt gamma_p (assist off; + tilts thrust forward)")
          .setLive(),
      ParamSpec::real("roll", 0.0, -1.5, 1.5, "rad", "held rotor tilt gamma_r (assist off; + tilts thrust right)")
          .setLive(),
      ParamSpec::real("drag_linear", 80.0, 0.0, 1e6, "N s/m",
                      "linear aerodynamic drag: force -c v; with integrator rk4 refused when dt c / mass > 2.785 "
                      "(explicit RK4's stability bound on the drag)")
          .setLive(),
      ParamSpec::real("drag_angular", 1500.0, 0.0, 1e7, "N m s/rad",
                      "rotational drag: torque -c omega; with integrator rk4 refused when dt c / min(inertia) > 2.785")
          .setLive(),
      ParamSpec::vector("wind", {0.0, 0.0, 0.0}, -50.0, 50.0, "m/s",
                        "steady wind (world): drag force -drag_linear (v - wind - gust)")
          .setLive(),
      ParamSpec::real("gust_strength", 0.0, 0.0, 20.0, "m/s",
                      "seeded gusts added to the wind: linear between samples 1 s apart, horizontal components "
                      "normal with this standard deviation, vertical 0.3 of it (0: none)")
          .setLive(),
      ParamSpec::integer("gust_seed", 1, 0, 2147483647, "which gust sequence (same seed, same gusts)").setLive(),
      ParamSpec::vector("push", {0.0, 0.0, 0.0}, -1e5, 1e5, "N s",
                        "an impulse (world, at the centre of mass) given over the next step whenever the value "
                        "changes to a non-zero one (set at the start: added to the start velocity)")
          .setLive(),
      ParamSpec::boolean("assist", true, "flight assist: attitude, altitude and heading hold from the sticks")
          .setLive(),
      ParamSpec::vector("actuator_max", {12000.0, 2000.0, 0.25}, 0.0, 1e6, "N, N, rad",
                        "ranges: collective in [0, a], |yaw force| <= b, |rotor tilt| <= c (c < pi/2)", true),
      ParamSpec::vector("actuator_rate", {10000.0, 6000.0, 1.2}, 0.0, 1e7, "N/s, N/s, rad/s",
                        "rate limits of collective, yaw force and rotor tilts", true),
      ParamSpec::real("hub_height", 1.6, 0.0, 20.0, "m", "d_t: main-rotor hub above the centre of mass (ERRATA)", true),
      ParamSpec::real("tail_arm", 4.6, 0.0, 50.0, "m", "d_r: tail rotor behind the centre of mass (ERRATA)", true),
      ParamSpec::real("gravity", 9.81, 0.0, 100.0, "m/s^2", "gravitational acceleration (world -z)"),
      ParamSpec::choice("world", "canyon", {"canyon", "none"},
                        "canyon: ground, three landing pads and a canyon (penalty contact); none: empty space"),
      ParamSpec::choice("contact", "implicit", {"implicit", "explicit"},
                        "implicit: contact and drag evaluated at the end of the step (backward Euler in the force, "
                        "stiffness from the mass: passive for every mass and dt); explicit: the old soft penalty "
                        "(3e4 N/m) in the node wrench, unstable below ~50 kg (baseline; always used with rk4)"),
      ParamSpec::vector("start_position", {0.0, 0.0, 1.1}, -1e5, 1e5, "m",
                        "initial centre of mass (default: resting on the 'start' pad); with world = canyon refused "
                        "when the centre or a skid end starts more than 1 cm inside the ground or a rock"),
      ParamSpec::real("start_heading", 0.0, -2.0 * kPi, 2.0 * kPi, "rad", "initial yaw about world z"),
      ParamSpec::real("start_pitch", 0.0, -0.5 * kPi, 0.5 * kPi, "rad",
                      "initial pitch about the body y axis after the heading (R = Rz(heading) Ry(pitch) Rx(roll))"),
      ParamSpec::real("start_roll", 0.0, -kPi, kPi, "rad", "initial roll about the body x axis after heading, pitch"),
      ParamSpec::vector("start_velocity", {0.0, 0.0, 0.0}, -1e3, 1e3, "m/s",
                        "initial world velocity; with integrator rk4 and world canyon refused above 900 m/s (the "
                        "explicit contact gained energy on impact from 1200 m/s)"),
      ParamSpec::vector("start_omega", {0.0, 0.0, 0.0}, -100.0, 100.0, "rad/s", "initial body angular velocity"),
  };
  for (auto& s : rigidVehicleParams()) p.push_back(s);
  return p;
}

// A start inside the terrain is refused: the penalty contact expels it at once (measured: the centre 1 m below
// the ground leaves at 80 m/s carrying 6.6e8 J; 1e5 m below it leaves at 5.9e6 m/s and the run stops at step 1).
// Allowed: every skid end at most kStartDepth inside (a resting helicopter sags 0.16 mm at 9.81 m/s^2, 1.6 mm at 100)
// and the centre of mass outside.
constexpr double kStartDepth = 0.01;  // m

void checkStartAboveTerrain(const ParamSet& p) {
  if (p.choice("world") != "canyon") return;
  const HelicopterWorld world = HelicopterWorld::standard();
  se3::Pose g0;
  Vector6d xi0;
  helicopterStartFrom(p, g0, xi0);
  double depth = -world.signedDistance(g0.x);
  const Helicopter heli(helicopterSettingsFrom(p));  // named: contactPoints() refers into it
  for (const Vector3d& r : heli.contactPoints())
    depth = std::max(depth, -world.signedDistance(g0.act(r)));
  if (depth > kStartDepth)
    throw BadInput("key 'start_position' = " + p.valueText("start_position") + " (with start_heading, start_pitch, "
                   "start_roll): the helicopter starts " + formatNumber(depth) + " m inside the ground or a rock "
                   "(allowed: at most " + formatNumber(kStartDepth) + " m; the default 0,0,1.1 rests on the start pad), "
                   "or world = none");
}

void validateHelicopter(const ParamSet& p) {
  validatePhysicalInertia(principalInertia(p.real("mass"), p.vec3("inertia")), "mass", "inertia");
  const Vector3d amax = p.vec3("actuator_max");
  if (!(amax.z() < 0.5 * kPi))
    throw BadInput("key 'actuator_max' = " + p.valueText("actuator_max") + ": the tilt limit must be < pi/2 rad");
  auto within = [&](const char* key, double limit, double lo) {
    const double v = p.real(key);
    if (v < lo || std::abs(v) > limit)
      throw BadInput(std::string("key '") + key + "' = " + formatNumber(v) + ": allowed range [" + formatNumber(lo) +
                     ", " + formatNumber(limit) + "] from actuator_max");
  };
  within("collective", amax.x(), 0.0);
  within("yaw", amax.y(), -amax.y());
  within("pitch", amax.z(), -amax.z());
  within("roll", amax.z(), -amax.z());
  // Contact at high spin: the end-of-step contact force is passive for a penalty spring in translation (backward
  // Euler, convex in x), not for a step that turns a skid end through ~90 degrees into the ground, where the
  // potential is not convex along the rotation. Measured on the pad (default mass and inertia, 10 s, dt 1/60 to
  // 0.1, spins about x, y, z and diagonals): no energy flag up to dt |omega| = 1.4 rad per step, flagged from 1.5
  // (start_omega 100,0,0 at 1/60 s: +5.1e5 J at step 1). Refused above the floating chain's 1.2 rad per step.
  if (p.choice("integrator") == "lgvi" && p.choice("world") != "none") {
    const double turn = p.real("dt") * p.vec3("start_omega").norm();
    if (turn > kMaxTurnPerStep)
      throw BadInput("key 'start_omega' = " + p.valueText("start_omega") + " with dt = " + p.valueText("dt") +
                     ": a step would turn the helicopter by dt |start_omega| = " + formatNumber(turn) +
                     " rad, and contact at that spin gains energy; allowed dt |start_omega| <= " +
                     formatNumber(kMaxTurnPerStep) + " rad (|start_omega| <= " +
                     formatNumber(kMaxTurnPerStep / p.real("dt")) + " rad/s at this dt)");
  }
  checkRk4Drag(p, p.real("mass"), p.vec3("inertia"));
  checkRk4ContactStartSpeed(p);
  checkStartAboveTerrain(p);
}

class HelicopterScene : public RigidVehicleScene {
 public:
  explicit HelicopterScene(const ParamSet& params)
      : RigidVehicleScene(params), heli_(helicopterSettingsFrom(params)), assistOn_(params.flag("assist")) {
    hasWorld_ = params.choice("world") == "canyon";
    implicit_ = helicopterImplicitContact(params);
    contact_ = helicopterContactFrom(params);
    if (hasWorld_) world_ = HelicopterWorld::standard();
    se3::Pose g0;
    Vector6d xi0 = Vector6d::Zero();
    helicopterStartFrom(params, g0, xi0);
    // Start with the actuators at their targets (no start-up transient through the rate limits).
    actuators_ = assistOn_ ? assist_.command(heli_, g0, xi0.head<3>(), params.vec3("start_velocity"), StickCommand{},
                                             RotorState{}, 0.0, assistState_)
                           : heldActuators(StickCommand{});
    readDisturbances(params);
    // A push set at the start is part of the start velocity (the start node's wrench would enter only by half,
    // mu^-_0 = II xi(0) - (h/2) f_0, and a step's work bookkeeping starts after it).
    if (lastPush_ != Vector3d::Zero()) xi0.tail<3>() += g0.R.transpose() * lastPush_ / params.real("mass");
    pushForce_.setZero();
    startBody(principalInertia(params.real("mass"), params.vec3("inertia")), g0, xi0);
  }

  std::vector<ControlSpec> controls() const override {
    return {{"yaw", -1.0, 1.0, 0.0, "left stick x: +1 yaws right (tail force -u_psi max); assist: yaw rate"},
            {"throttle", -1.0, 1.0, 0.0, "left stick y: collective from 0 to max; assist: climb rate +-4 m/s"},
            {"roll", -1.0, 1.0, 0.0, "right stick x: +1 tilts the rotor right; assist: bank up to 20 deg"},
            {"pitch", -1.0, 1.0, 0.0, "right stick y: +1 tilts the rotor forward; assist: nose down up to 20 deg"}};
  }

  // Seed 002's a-priori step bounds beside h for the airframe inertia and the last segment's omega (issue 12).
  std::vector<ScenePanel> panels(const PanelContext&) const override {
    return {stepBoundPanel(principalInertia(params_.real("mass"), params_.vec3("inertia")).J, segmentOmega(), dt(),
                           newtonIterations(), lgviOptionsFrom(params_).tangent, params_.choice("integrator"))};
  }

  std::vector<PlotSpec> plots() const override {
    auto plots = momentumPlots();
    plots.insert(plots.begin() + 1, PlotSpec{"Controls u (N)", {"u_c", "u_psi"}, false});
    plots.insert(plots.begin() + 2, PlotSpec{"Rotor tilts (rad)", {"gamma_p", "gamma_r"}, false});
    plots.push_back({"Altitude (m) and speed (m/s)", {"altitude", "speed"}, false});
    return plots;
  }

  void applyLive(const ParamSet& params) override {
    params_ = params;
    heli_ = Helicopter(helicopterSettingsFrom(params));
    const bool on = params.flag("assist");
    if (on && !assistOn_) assistState_.engaged = false;  // re-engage on the current altitude/heading
    assistOn_ = on;
    readDisturbances(params);
    applyIntegratorOptions();
    refreshNodeWrench();
  }

  void draw(DrawList& out) const override;

 protected:
  // Node wrench f_k: gravity, rotor controls and a push (explicit contact: also drag, wind and contact, the old
  // baseline).
  Vector6d vehicleWrench(const se3::Pose& g, const Vector6d& xi, double t) const override {
    Vector6d f = heli_.gravityWrench(g.R) + heli_.controlWrench(actuators_) + pushWrench(g);
    if (!implicit_) f += dissipativeWrench(g, xi, nullptr) + windWrench(g, t, nullptr);
    return f;
  }
  // Drag and contact at the end of the step (lgvi_se3.h ImplicitWrench): backward Euler in these forces is
  // what makes them passive for every mass and h (issue 15 item 10).
  bool hasEndOfStepWrench() const override { return implicit_; }
  Vector6d endOfStepWrench(const se3::Pose& g, const Vector6d& xi, double t,
                           ImplicitWrenchJacobian* jac) const override {
    return dissipativeWrench(g, xi, jac) + windWrench(g, t, jac);
  }
  // Rotors and pushes (explicit contact: also the wind's force): the energy sources at the node.
  Vector6d inputWrench(const se3::Pose& g, const Vector6d& /*xi*/, double t) const override {
    Vector6d f = heli_.controlWrench(actuators_) + pushWrench(g);
    if (!implicit_) f += windWrench(g, t, nullptr);
    return f;
  }
  // The wind's work through the implicit drag (RK4 at its stages, the LGVI at the end of each step).
  double sourcePower(const se3::Pose& g, const Vector6d& xi, double t) const override { return windPower(g, xi, t); }
  double endOfStepSourcePower(const se3::Pose& g, const Vector6d& xi, double t) const override {
    return windPower(g, xi, t);
  }

  void updateActuators(double h, const InputVector& in) override {
    sticks_ = {in[kThrottle], in[kYaw], in[kPitch], in[kRoll]};
    const RotorState target = assistOn_ ? assist_.command(heli_, pose(), segmentOmega(), segmentVelocity(), sticks_,
                                                          actuators_, h, assistState_)
                                        : heldActuators(sticks_);
    actuators_ = heli_.advanceActuators(actuators_, target, h);
    pushForce_.setZero();  // a push acts over the one step after it was set
  }

  double potentialEnergy() const override {  // gravity and the elastic energy of the penalty contact
    const double contact = hasWorld_ ? world_.contactPotential(pose(), heli_.contactPoints(), contact_) : 0.0;
    return heli_.potentialEnergy(pose().x) + contact;
  }

  std::vector<std::string> vehicleColumns() const override {
    return {"u_c", "u_psi", "gamma_p", "gamma_r", "altitude", "speed", "clearance"};
  }

  void vehicleDiagnostics(std::vector<double>& row) const override {
    for (double v : {actuators_.collective, actuators_.yaw, actuators_.pitch, actuators_.roll, pose().x.z(),
                     velocity().norm(), clearance()})
      row.push_back(v);
  }

  // [actuators (4), sticks (4), assist engaged, z_ref, psi_ref]
  std::vector<double> saveVehicle() const override {
    return {actuators_.collective,
            actuators_.yaw,
            actuators_.pitch,
            actuators_.roll,
            sticks_.throttle,
            sticks_.yaw,
            sticks_.pitch,
            sticks_.roll,
            assistState_.engaged ? 1.0 : 0.0,
            assistState_.altitudeRef,
            assistState_.headingRef};
  }

  void loadVehicle(const std::vector<double>& s) override {
    if (s.size() != 11)
      throw BadInput("helicopter state: expected 11 vehicle numbers, got " + std::to_string(s.size()));
    actuators_ = {s[0], s[1], s[2], s[3]};
    sticks_ = {s[4], s[5], s[6], s[7]};
    assistState_ = {s[8] != 0.0, s[9], s[10]};
  }

 private:
  // Assist off: neutral sticks hold the parameters; full deflection reaches the actuator range.
  RotorState heldActuators(const StickCommand& s) const {
    const ActuatorLimits& L = heli_.settings().limits;
    const double uc = params_.real("collective");
    RotorState a;
    a.collective = uc + (s.throttle >= 0.0 ? s.throttle * (L.collectiveMax - uc) : s.throttle * uc);
    a.yaw = params_.real("yaw") - s.yaw * L.yawMax;
    a.pitch = params_.real("pitch") + s.pitch * L.tiltMax;
    a.roll = params_.real("roll") + s.roll * L.tiltMax;
    return heli_.clampToLimits(a);
  }

  // A push (world, at the centre of mass) as a body wrench: push / h for one step.
  Vector6d pushWrench(const se3::Pose& g) const {
    Vector6d f = Vector6d::Zero();
    f.tail<3>() = g.R.transpose() * pushForce_;
    return f;
  }
  // The wind's part c w of the drag -c (v - w) (w: wind plus gust, world) as a body force, with the whole drag at
  // the end of the step (contact = implicit). It was the node's explicit force while -c v was implicit: where h c / m
  // is large their half impulses in the node momentum no longer cancelled, and wind -50 per axis with drag_linear
  // 1e6 on the ground read +5.0e8 J at step 1 (mass 600 kg, dt 1/60; 7e5 ran). jac: R -> R exp(theta^) turns R^T F
  // by -theta x R^T F, so d f / d theta = hat(R^T F).
  Vector6d windWrench(const se3::Pose& g, double t, ImplicitWrenchJacobian* jac) const {
    Vector6d f = Vector6d::Zero();
    f.tail<3>() = g.R.transpose() * (heli_.settings().dragLinear * (wind_ + gustVelocity(gusts_, t)));
    if (jac) jac->dPose.block<3, 3>(3, 0) += so3::hat(f.tail<3>());
    return f;
  }
  // Power the moving air delivers through the drag: f . w = c (w - v) . w (world); the rest of the drag's power,
  // -c |v - w|^2, is dissipation. xi is the body twist at g (the LGVI's end-of-step twist xi^+).
  double windPower(const se3::Pose& g, const Vector6d& xi, double t) const {
    if (!implicit_) return 0.0;  // explicit contact: the wind's force is an input wrench at the node
    const Vector3d w = wind_ + gustVelocity(gusts_, t);
    return heli_.settings().dragLinear * (w - g.R * xi.tail<3>()).dot(w);
  }
  void readDisturbances(const ParamSet& p) {
    wind_ = p.vec3("wind");
    gusts_ = {p.real("gust_strength"), std::uint64_t(p.integer("gust_seed")), 1.0};
    const Vector3d push = p.vec3("push");
    if (push != lastPush_ && push != Vector3d::Zero()) pushForce_ = push / p.real("dt");
    lastPush_ = push;
  }

  // Drag (-c_w omega, -c_v v) and contact (engine/models/helicopter_world.h: the planner uses the same function).
  Vector6d dissipativeWrench(const se3::Pose& g, const Vector6d& xi, ImplicitWrenchJacobian* jac) const {
    return helicopterDissipativeWrench(heli_, hasWorld_ ? &world_ : nullptr, contact_, g, xi, jac ? &jac->dPose : nullptr,
                                       jac ? &jac->dXi : nullptr);
  }

  double clearance() const {
    if (!hasWorld_) return 0.0;
    double c = 1e300;
    for (const Vector3d& r : heli_.contactPoints()) c = std::min(c, world_.signedDistance(pose().act(r)));
    return c;
  }

  Helicopter heli_;
  FlightAssist assist_;
  FlightAssistState assistState_;
  RotorState actuators_;
  StickCommand sticks_;
  bool assistOn_ = true;
  bool hasWorld_ = true;
  bool implicit_ = true;  // drag and contact in the end-of-step wrench (contact=implicit with the LGVI)
  HelicopterWorld world_;
  ContactSettings contact_;
  Vector3d wind_ = Vector3d::Zero(), lastPush_ = Vector3d::Zero(), pushForce_ = Vector3d::Zero();
  GustSettings gusts_;
};

void HelicopterScene::draw(DrawList& out) const {
  const se3::Pose& g = pose();
  const HelicopterSettings& hs = heli_.settings();
  const Matrix3d alongX = Eigen::AngleAxisd(0.5 * kPi, Vector3d::UnitY()).toRotationMatrix();  // local z -> x
  const Rgba body{0.85f, 0.3f, 0.15f, 1.0f}, dark{0.2f, 0.2f, 0.22f, 1.0f};
  auto shape = [&](ShapeKind k, const Mat4& m, Vec3f size, Rgba c) { out.shapes.push_back({k, m, size, c, false}); };

  // World: pads (thin slabs with labels) and canyon rocks.
  if (hasWorld_) {
    for (const LandingPad& pad : world_.pads()) {
      se3::Pose p;
      p.x = Vector3d(pad.center.x(), pad.center.y(), 0.01);
      const float s = float(2.0 * pad.halfSize);
      shape(ShapeKind::Box, toMat4(p), {s, s, 0.02f}, {0.25f, 0.55f, 0.3f, 1.0f});
      shape(ShapeKind::Disc, toMat4(se3::Pose{Matrix3d::Identity(), Vector3d(p.x + Vector3d(0, 0, 0.02))}),
            {float(0.7 * pad.halfSize), 0, 0}, {0.95f, 0.95f, 0.9f, 1.0f});
      out.labels.push_back({toVec3f(p.x + Vector3d(0, 0, 1.5)), pad.name, {1, 1, 1, 1}});
    }
    for (const RockBox& rock : world_.rocks()) {
      se3::Pose p;
      p.R = Eigen::AngleAxisd(rock.yaw, Vector3d::UnitZ()).toRotationMatrix();
      p.x = rock.center;
      shape(ShapeKind::Box, toMat4(p), toVec3f(2.0 * rock.halfExtents), {0.55f, 0.42f, 0.32f, 1.0f});
    }
  }

  // Body: cabin, tail boom, fin, skids with struts.
  shape(ShapeKind::Capsule, toMat4(g, Vector3d(0.3, 0, 0.1), alongX), {0.9f, 0.9f, 2.0f}, body);
  const double boomLen = hs.tailArm - 0.6;
  shape(ShapeKind::Cylinder, toMat4(g, Vector3d(-0.6 - 0.5 * boomLen, 0, 0.3), alongX), {0.18f, 0.18f, float(boomLen)},
        body);
  shape(ShapeKind::Box, toMat4(g, Vector3d(-hs.tailArm - 0.1, 0, 0.7), Matrix3d::Identity()), {0.5f, 0.06f, 0.9f},
        body);
  for (double side : {1.0, -1.0}) {
    const double y = side * heli_.skidHalfTrack(), z = -heli_.skidDrop();
    shape(ShapeKind::Cylinder, toMat4(g, Vector3d(0, y, z), alongX),
          {0.05f, 0.05f, float(2.0 * heli_.skidHalfLength())}, dark);
    for (double x : {0.7, -0.7})
      shape(
          ShapeKind::Cylinder,
          toMat4(g, Vector3d(x, 0.5 * y, 0.5 * z - 0.2), Matrix3d(Eigen::AngleAxisd(-side * 0.55, Vector3d::UnitX()))),
          {0.04f, 0.04f, 1.2f}, dark);
  }
  // Main rotor: mast, translucent disc tilted by gamma, two spinning blades; tail rotor disc and blades.
  const Matrix3d tilt = Eigen::AngleAxisd(actuators_.pitch, Vector3d::UnitY()) *
                        Eigen::AngleAxisd(actuators_.roll, Vector3d::UnitX()).toRotationMatrix();
  const double spin = 38.0 * time();  // visual only
  const Vector3d hub = heli_.hubPosition();
  shape(ShapeKind::Cylinder, toMat4(g, 0.5 * hub + Vector3d(0, 0, 0.35), Matrix3d::Identity()),
        {0.08f, 0.08f, float(hub.z())}, dark);
  out.shapes.push_back(
      {ShapeKind::Disc, toMat4(g, hub, tilt), {float(heli_.rotorRadius()), 0, 0}, {0.8f, 0.8f, 0.85f, 0.25f}, true});
  const Matrix3d blades = tilt * Eigen::AngleAxisd(spin, Vector3d::UnitZ()).toRotationMatrix();
  shape(ShapeKind::Box, toMat4(g, hub, blades), {float(2.0 * heli_.rotorRadius()), 0.22f, 0.04f}, dark);
  const Matrix3d tailDisc = Eigen::AngleAxisd(0.5 * kPi, Vector3d::UnitX()).toRotationMatrix();  // disc in x-z plane
  const Vector3d tailHub = heli_.tailRotorPosition() + Vector3d(0, 0.25, 0.5);
  out.shapes.push_back({ShapeKind::Disc, toMat4(g, tailHub, tailDisc), {0.7f, 0, 0}, {0.8f, 0.8f, 0.85f, 0.3f}, true});
  shape(ShapeKind::Box,
        toMat4(g, tailHub, tailDisc * Eigen::AngleAxisd(3.0 * spin, Vector3d::UnitZ()).toRotationMatrix()),
        {1.4f, 0.1f, 0.03f}, dark);
  // Thrust arrow along n(gamma), length proportional to u_c / (m g).
  // Scale: the hover thrust m g, or m * 1 m/s^2 without gravity (no division by g = 0).
  const double thrustRef = hs.mass * std::max(hs.gravity, FlightAssist::kMinGravity);
  const double thrustLen = 2.5 * actuators_.collective / thrustRef;
  if (thrustLen > 1e-3) {
    const Matrix3d arrow = tilt;  // local z of the arrow = n(gamma)
    shape(ShapeKind::Arrow, toMat4(g, hub + Vector3d(0, 0, 0.3), arrow), {0.05f, 0.12f, float(thrustLen)},
          {0.3f, 0.6f, 1.0f, 1.0f});
  }
  drawTrail(out, {1.0f, 0.85f, 0.2f, 1.0f});

  // Camera follows behind the helicopter; HUD.
  out.camera.follow = true;
  out.camera.target = toVec3f(g.x);
  out.camera.heading = float(FlightAssist::heading(g.R));
  out.camera.distance = 22.0f;
  out.camera.showGround = hasWorld_;
  // HUD: flying figures only; actuator values and tilts are plotted, stick values are in Input mapping.
  char buf[160];
  const Vector3d vel = velocity();
  std::snprintf(buf, sizeof buf, "altitude %.1f m  clearance %.2f m  speed %.1f m/s (climb %+.1f)", g.x.z(), clearance(),
                vel.norm(), vel.z());
  out.hud.push_back(buf);
  const double rollDeg = std::atan2(g.R(2, 1), g.R(2, 2)) * 180.0 / kPi;
  const double pitchDeg = std::asin(std::clamp(-g.R(2, 0), -1.0, 1.0)) * 180.0 / kPi;  // + nose down
  std::snprintf(buf, sizeof buf, "roll %+.1f  pitch %+.1f (nose down +)  heading %.0f deg", rollDeg, pitchDeg,
                FlightAssist::heading(g.R) * 180.0 / kPi);
  out.hud.push_back(buf);
  const LandingPad* pad = hasWorld_ ? world_.padAt(g.x) : nullptr;
  const bool landed = pad && clearance() < 0.05 && vel.norm() < 0.3;
  std::snprintf(buf, sizeof buf, "collective %.0f%% %s  assist %s%s%s%s", 100.0 * actuators_.collective / thrustRef,
                hs.gravity >= FlightAssist::kMinGravity ? "hover" : "of m x 1 m/s^2", assistOn_ ? "ON" : "OFF (raw)",
                landed ? "  landed on '" : "", landed ? pad->name.c_str() : "", landed ? "'" : "");
  out.hud.push_back(buf);
  if (sanitizedInputSteps() > 0)
    out.hud.push_back("invalid inputs (NaN, out of range) repaired on " + std::to_string(sanitizedInputSteps()) +
                      " steps");
}

}  // namespace

VARSIM_REGISTER_SCENE(SceneInfo{
    "helicopter", "Helicopter (seed 000 Sec. 4.3.1)",
    "A simple helicopter on the SE(3)/SO(3)xR^3 variational integrator: collective u_c and tail force u_psi with "
    "rotor tilts gamma_p, gamma_r as shape variables (control matrix F(gamma) of seed 000 Sec. 4.3.1 with hub height "
    "d_t and tail arm d_r), gravity, linear and rotational drag, actuator range and rate limits. With the flight "
    "assist the sticks command climb rate, attitude and yaw rate; without it they move the actuators directly. "
    "Ground with landing pads and a canyon (penalty contact). Plots: energy, spatial momentum against the summed "
    "discrete impulses of all forces, controls, Newton iterations.",
    helicopterParams, validateHelicopter,
    [](const ParamSet& p) -> std::unique_ptr<Scene> { return std::make_unique<HelicopterScene>(p); }});

}  // namespace varsim
