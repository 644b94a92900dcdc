// scenes/vehicles/boat_scene.cpp — scene `boat`: the seed 000 Sec. 4.3.2 thruster boat on the LGVI (or RK4): box hull
// floating on animated piecewise-linear waves (the drawn water mesh is the physical surface), eq. (15) patch
// forces, wind, current, two stern thrusters (left/right triggers). Wave, damping, wind and current are live.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

#include "engine/models/boat.h"
#include "engine/models/rigid_body.h"
#include "engine/sim/errors.h"
#include "scenes/vehicles/rigid_vehicle_scene.h"

namespace varsim {

namespace {

constexpr double kPi = 3.14159265358979323846;
enum Control { kLeft = 0, kRight = 1 };

std::vector<ParamSpec> boatParams() {
  std::vector<ParamSpec> p = {
      // From 1 g: below that the model (no surface tension, no air buoyancy) has no meaning for a hull, and
      // the implicit waterline solve meets stiffness ratios h^2 rho g A / m > 1e9 (it fails near 1e-7 kg).
      ParamSpec::real(
          "mass", 1200.0, 1e-3, 1e6, "kg",
          "boat mass m; from 1 g (lighter hulls are outside the model: no surface tension, no air buoyancy)"),
      ParamSpec::vector("hull", {4.0, 1.8, 0.8}, 0.0, 100.0, "m", "box hull length (x), width (y), height (z)", true),
      ParamSpec::real("water_density", 1025.0, 0.0, 5000.0, "kg/m^3", "rho of the water (buoyancy rho g Pi_s)", true),
      ParamSpec::real("thrust_left", 0.0, 0.0, 1e6, "N", "held thrust u_l of the port (left, +y) thruster").setLive(),
      ParamSpec::real("thrust_right", 0.0, 0.0, 1e6, "N", "held thrust u_r of the starboard (right, -y) thruster")
          .setLive(),
      ParamSpec::real("thrust_max", 1500.0, 0.0, 1e6, "N", "thrust of each thruster at full trigger"),
      ParamSpec::real("wave_amplitude", 0.15, 0.0, 3.0, "m", "amplitude of the dominant wave (0 = still water)")
          .setLive(),
      ParamSpec::real("wave_length", 12.0, 0.5, 500.0, "m", "wavelength of the dominant wave (deep water)", true)
          .setLive(),
      ParamSpec::real("wave_direction", 0.0, -2.0 * kPi, 2.0 * kPi, "rad", "travel heading of the waves from +x")
          .setLive(),
      ParamSpec::vector("wind", {6.0, 3.0, 0.0}, -100.0, 100.0, "m/s", "wind velocity (world); drag on dry patches")
          .setLive(),
      ParamSpec::vector("current", {0.0, 0.0, 0.0}, -20.0, 20.0, "m/s", "uniform water current eta (world)").setLive(),
      ParamSpec::vector("damping", {40.0, 400.0, 500.0}, 0.0, 1e6, "N s/m^3",
                        "E = diag(surge, sway, heave): patch traction -E (r_dot - R^T eta), eq. (15)")
          .setLive(),
      ParamSpec::real("pressure", 0.0, -1e5, 1e5, "Pa",
                      "P: uniform normal traction -P n on wetted patches, eq. (15); a suction (P < 0) refused when "
                      "|P| L W dt / mass > 1.2e4 m/s (a light hull torn off in one step)")
          .setLive(),
      ParamSpec::real("com_height", -0.1, -50.0, 50.0, "m", "centre of mass above the hull box centre (ballast < 0)"),
      ParamSpec::real("water_grid", 0.25, 0.02, 10.0, "m", "spacing of the grid that defines (and draws) the water",
                      true),
      ParamSpec::real("patch_size", 0.25, 0.01, 100.0, "m",
                      "hull patch edge for the eq. (15) sum; refused when the hull has more than 40 000 patches "
                      "(about real time at dt = 1/60 s), naming the patch_size that fits",
                      true),
      ParamSpec::vector("start_position", {0.0, 0.0}, -1e5, 1e5, "m", "initial x, y of the centre of mass"),
      ParamSpec::real("start_heave", 0.0, -100.0, 100.0, "m",
                      "initial height above the analytic floating height on the local water surface"),
      ParamSpec::vector("start_attitude", {0.0, 0.0, 0.0}, -2.0 * kPi, 2.0 * kPi, "rad",
                        "initial roll (about x), pitch (about y), heading (about z)"),
      ParamSpec::vector("start_velocity", {0.0, 0.0, 0.0}, -100.0, 100.0, "m/s", "initial world velocity"),
  };
  p.push_back(ParamSpec::choice(
      "hull_forces", "implicit", {"implicit", "explicit"},
      "implicit: gravity + buoyancy, water drag and wind at the end of each LGVI step (backward Euler, passive for "
      "every mass and dt); explicit: all at the node as printed in seed 000 eq. (10) (variational, keeps the "
      "undamped energy, but only stable for h omega < 2: accepted when h omega and h c at rest are <= 1)"));
  for (auto& s : rigidVehicleParams()) p.push_back(s);
  return p;
}

BoatSettings boatSettings(const ParamSet& p) {
  BoatSettings s;
  s.mass = p.real("mass");
  s.hullSize = p.vec3("hull");
  s.comHeight = p.real("com_height");
  s.waterDensity = p.real("water_density");
  s.damping = p.vec3("damping");
  s.pressure = p.real("pressure");
  s.wind = p.vec3("wind");
  s.thrustMax = p.real("thrust_max");
  s.patchSize = p.real("patch_size");
  return s;
}

WaveSettings waveSettings(const ParamSet& p) {
  WaveSettings w;
  w.amplitude = p.real("wave_amplitude");
  w.wavelength = p.real("wave_length");
  w.direction = p.real("wave_direction");
  w.current = p.vec3("current");
  w.gridSpacing = p.real("water_grid");
  return w;
}

// Patch budget: the step costs ~0.5 us per hull patch per Newton evaluation (measured, default boat 3 s: 448
// patches 0.09 s CPU, 9 472 patches 0.89 s, 37 888 patches 3.2 s, about real time at dt = 1/60). Beyond
// kMaxPatches a run falls behind real time and a 3 s run of a 100 m hull at patch_size 0.25 (960 000 patches before
// the 200-per-edge cap) did not finish in 60 s: refused, naming the smallest patch_size within the budget.
constexpr size_t kMaxPatches = 40000;

void checkPatchBudget(const ParamSet& p) {
  BoxHull hull;
  hull.size = p.vec3("hull");
  const double size = p.real("patch_size");
  const size_t count = hull.patches(size).size();
  if (count <= kMaxPatches) return;
  const Vector3d& e = hull.size;
  double fits = std::max(size, std::sqrt(2.0 * (e.x() * e.y() + e.y() * e.z() + e.z() * e.x()) / kMaxPatches));
  while (hull.patches(fits).size() > kMaxPatches) fits *= 1.02;
  throw BadInput("key 'patch_size' = " + formatNumber(size) + " with hull = " + p.valueText("hull") + ": " +
                 std::to_string(count) + " hull patches, beyond the budget of " + std::to_string(kMaxPatches) +
                 " (about real time at dt = 1/60 s); patch_size >= " + formatNumber(std::ceil(fits * 1000) / 1000) +
                 " m runs this hull");
}

// A suction (P < 0) on a light hull: the wetted bottom's pull |P| L W gives the hull |P| L W dt / mass of speed
// per step before the water can respond. Measured (default hull, P = -1e5 Pa, 3 s): mass 0.1 kg (1.2e5 m/s per step)
// ran, 0.03 kg (4e5) stopped at step 68 and 0.001-0.01 kg at steps 1-2 at the 1e5 m/s speed check; P > 0 ran at
// every mass. Accepted up to kMaxSuctionKick, a margin of 10 below the last that ran.
constexpr double kMaxSuctionKick = 1.2e4;  // m/s

void checkSuction(const ParamSet& p) {
  const Vector3d hull = p.vec3("hull");
  const double kick = -p.real("pressure") * hull.x() * hull.y() * p.real("dt") / p.real("mass");
  if (!(kick > kMaxSuctionKick)) return;
  throw BadInput("key 'pressure' = " + formatNumber(p.real("pressure")) + " Pa with mass = " +
                 formatNumber(p.real("mass")) + " kg, hull = " + p.valueText("hull") + ", dt = " +
                 formatNumber(p.real("dt")) + " s: the suction on the bottom gives |P| L W dt / mass = " +
                 formatNumber(kick) + " m/s per step, allowed <= " + formatNumber(kMaxSuctionKick) +
                 "; mass >= " + formatNumber(kick / kMaxSuctionKick * p.real("mass")) + " kg runs");
}

void validateBoat(const ParamSet& p) {
  checkPatchBudget(p);
  checkSuction(p);
  const Vector3d hull = p.vec3("hull");
  const double draft = p.real("mass") / (p.real("water_density") * hull.x() * hull.y());
  if (!(draft <= 1e6))
    throw BadInput("key 'water_density' = " + formatNumber(p.real("water_density")) + " kg/m^3 with mass = " +
                   formatNumber(p.real("mass")) + " kg and hull = " + p.valueText("hull") +
                   ": the floating draft mass / (water_density L W) = " + formatNumber(draft) +
                   " m is beyond 1e6 m (not a number the hydrostatics can start from); raise water_density or the hull");
  const double tmax = p.real("thrust_max");
  for (const char* key : {"thrust_left", "thrust_right"})
    if (p.real(key) > tmax)
      throw BadInput(std::string("key '") + key + "' = " + formatNumber(p.real(key)) + ": allowed [0, " +
                     formatNumber(tmax) + "] (thrust_max)");
  const bool rk4 = p.choice("integrator") == "rk4";
  if (rk4 || p.choice("hull_forces") == "explicit") {
    // Explicit node forces are Stoermer-Verlet in the stiffness and forward Euler in the drag, stable for
    // h omega < 2, h c < 2 (issue 15 item 11: a 1 kg hull, h omega = 4.5, gained x229 000 in 20 s); RK4 for
    // h omega < 2.8, h c < 2.7. Both are accepted with a factor 2 margin; the implicit LGVI for every h.
    const Eigen::Vector2d rates = Boat(boatSettings(p)).restRates();
    const double h = p.real("dt");
    if (!(h * rates.x() <= 1.0 && h * rates.y() <= 1.0))
      throw BadInput(std::string(rk4 ? "key 'integrator' = rk4" : "key 'hull_forces' = explicit") +
                     ": h omega = " + formatNumber(h * rates.x()) + ", h c = " + formatNumber(h * rates.y()) +
                     " at rest for this hull, mass, damping, wind and dt; explicit hull forces are unstable "
                     "beyond 2 and accepted up to 1: use integrator=lgvi with hull_forces=implicit or a smaller dt");
  }
  // hull_forces = explicit on the LGVI: the forces need no Newton, but the step equation (seed 000 eq. (10)) stays
  // nonlinear in xi (the Cayley map), and its plain Newton honours the cap: at rest, 1 iteration left a relative
  // residual 3.9e-7 (step 1 failed, also in 1024 substeps); 2 ran 20 s at rest, at start_velocity 100 per axis and
  // start_heave 100. The implicit hull forces' solver takes at least 50 iterations whatever the cap.
  if (!rk4 && p.choice("hull_forces") == "explicit" && p.integer("newton_max_iter") < 2)
    throw BadInput("key 'newton_max_iter' = " + p.valueText("newton_max_iter") +
                   " with hull_forces = explicit: the LGVI's step equation is nonlinear in xi even with explicit hull "
                   "forces and one Newton iteration does not reach newton_tol (at rest its residual was 3.9e-7); "
                   "allowed here newton_max_iter >= 2, or hull_forces = implicit");
  const double half = 0.5 * p.vec3("hull").z();
  if (std::abs(p.real("com_height")) > half)
    throw BadInput("key 'com_height' = " + formatNumber(p.real("com_height")) + ": allowed [" + formatNumber(-half) +
                   ", " + formatNumber(half) + "] (inside the hull)");
}

class BoatScene : public RigidVehicleScene {
 public:
  explicit BoatScene(const ParamSet& params)
      : RigidVehicleScene(params),
        boat_(boatSettings(params)),
        water_(waveSettings(params)),
        implicit_(params.choice("hull_forces") == "implicit") {
    const Vector3d att = params.vec3("start_attitude");
    se3::Pose g0;
    g0.R = (Eigen::AngleAxisd(att.z(), Vector3d::UnitZ()) * Eigen::AngleAxisd(att.y(), Vector3d::UnitY()) *
            Eigen::AngleAxisd(att.x(), Vector3d::UnitX()))
               .toRotationMatrix();
    const auto& xy = params.vector("start_position");
    // Float on the local water surface at t = 0 (no launch kick in waves).
    g0.x = Vector3d(xy[0], xy[1],
                    water_.height(xy[0], xy[1], 0.0) + boat_.equilibriumHeight() + params.real("start_heave"));
    Vector6d xi0 = Vector6d::Zero();
    xi0.tail<3>() = g0.R.transpose() * params.vec3("start_velocity");
    thrust_ = heldThrust(0.0, 0.0);
    computeNode(g0, 0.0);
    startBody(principalInertia(boat_.settings().mass, boat_.principalInertia()), g0, xi0);
  }

  std::vector<ControlSpec> controls() const override {
    return {{"thrust_left", 0.0, 1.0, 0.0, "left trigger: port thruster from the held value to thrust_max"},
            {"thrust_right", 0.0, 1.0, 0.0, "right trigger: starboard thruster from the held value to thrust_max"}};
  }

  std::vector<PlotSpec> plots() const override {
    auto plots = momentumPlots();
    plots.insert(plots.begin() + 1, PlotSpec{"Thrust (N)", {"u_left", "u_right"}, false});
    plots.push_back({"Heel and trim (rad)", {"heel", "trim"}, false});
    plots.push_back({"Submerged volume (m^3)", {"submerged_volume"}, false});
    return plots;
  }

  // A live edit is an input: its energy jump at fixed state (a new sea under the hull, the held thrust in the
  // node momentum) is booked once, as edit work, by whoever applies the edit (RunSession, SimDriver), not here.
  void applyLive(const ParamSet& params) override {
    params_ = params;
    boat_.setSettings(boatSettings(params));
    water_ = WaterSurface(waveSettings(params));
    thrust_ = heldThrust(lastTriggers_[kLeft], lastTriggers_[kRight]);
    applyIntegratorOptions();
    computeNode(pose(), time());
    refreshNodeWrench();
  }

  // The base's work of inputWrench (thrust, P) plus the work of wind, water and moving waves (sourceWork_).
  double inputWork() const override { return RigidVehicleScene::inputWork() + sourceWork_; }

  void draw(DrawList& out) const override;

 protected:
  // Explicit at the node: the thrusters and the pressure P (external loads; their work is inputWork), the rest
  // is endOfStepWrench; hull_forces=explicit: everything at the node (the published scheme, the baseline of
  // bench_boat_passivity; validateBoat keeps it where it is stable; its inputWork books thrust and P only).
  Vector6d vehicleWrench(const se3::Pose& g, const Vector6d& xi, double t) const override {
    if (implicit_) return inputWrench(g, xi, t);
    return boat_.wrench(g, xi, t, water_, Eigen::Vector2d(thrust_.y(), thrust_.x()), scratch_).total();
  }
  // The implicit LGVI applies P at the end of the step instead (endOfStepWrench): not an explicit node input there.
  Vector6d inputWrench(const se3::Pose& g, const Vector6d& /*xi*/, double t) const override {
    if (pressureAtEnd()) return t == time() && g.x == pose().x && g.R == pose().R ? node().thrust : thrustWrench(g, t);
    if (t == time() && g.x == pose().x && g.R == pose().R) return node().thrust + node().pressure;
    return thrustWrench(g, t) + pressureWrench(g, t, nullptr);  // RK4 stages
  }
  // The pressure P on the implicit LGVI: -P n dA on the patches wetted at node k, applied with the end-of-step wrench
  // (like the drag, whose exposure is frozen at node k). At the node, its half impulse (h/2) F sat in the node
  // momentum the energy is read from while the implicit drag and buoyancy cancelled it: with P = -1e5 Pa and
  // damping 1e6 (or dt 0.1) the hull read 13.6 kJ of kinetic energy at 4.8 mm/s and was flagged at step 1.
  // Booked as h F . xi_k (segmentSourceWork), the scheme's energy change never exceeds it (backward Euler).
  bool pressureAtEnd() const { return implicit_ && usesLgvi(); }

  // Backward Euler in the stiff and dissipative loads (issue 15 item 11): gravity + buoyancy at g_{k+1}
  // (rho g A_waterplane / m reaches 7e4 s^-2 for a 1 kg hull; explicit at the node, h w > 2 made it gain
  // x229 000 in 20 s), and the eq. (15) drag and the wind drag at the end-of-step twist with the patch exposure
  // and the water velocity frozen at node k (the sources explicit, the damping of the relative motion not).
  // For a linear spring this damps every mode, |lambda|^2 = 1/(1 + h^2 w^2), for every mass and h. RK4 calls
  // it at its stage states: there it is the plain wrench at (g, xi, t).
  bool hasEndOfStepWrench() const override { return implicit_; }
  // The energy KE(mu^-_k) + U(g_k) is the one backward Euler never raises (convex U; exact decay
  // 1/(1 + h^2 w^2) in heave); counting c_k in the node momentum would let it grow for light hulls.
  bool endOfStepWrenchInNodeMomentum() const override { return false; }
  Vector6d endOfStepWrench(const se3::Pose& g, const Vector6d& xi, double t,
                           ImplicitWrenchJacobian* jac) const override {
    BoatWrench w;
    if (!usesLgvi()) {
      computeHydrostatics(boat_.patches(), g, water_, t, scratch_);
      boat_.hydrostaticWrench(g, scratch_, w, jac ? &jac->dPose : nullptr);
      boat_.patchWrenches(g.R, xi, scratch_, boat_.waterVelocities(g, t, water_, scratch_), w);
      return w.hydrostatic() + w.hydrodynamic + w.wind;
    }
    const NodeData& k = node();  // still node k: the pose moves after the solve
    const Vector6d f = boat_.endOfStepWrench(g, xi, k.hydro, k.eta, water_, t, scratch_, w,
                                             jac ? &jac->dPose : nullptr, jac ? &jac->dXi : nullptr);
    lastEnd_ = {g, xi, w.hydrostatic(), w.windPower, w.waterPower, w.pressure};
    return f + w.pressure;  // body-frame P n dA of the node-k exposure: no pose or twist dependence in the step
  }

  // Called at node k+1: books the source work of segment k, then sets the actuators and the node data of k+1.
  void updateActuators(double h, const InputVector& in) override {
    // node_ still holds node k (the pose already moved, so not node()): the step evaluated it at g_k, after a
    // loadState too.
    const double potentialBefore = node_.potential;
    const se3::Pose gk = node_.g;
    const double tk = node_.t;
    const bool baseline = !implicit_ && usesLgvi();
    const BoatWrench wk = baseline ? mediaWrench(gk, segmentTwistAt(gk), tk) : BoatWrench{};
    lastTriggers_ = {in[kLeft], in[kRight]};
    thrust_ = heldThrust(in[kLeft], in[kRight]);
    computeNode(pose(), time());
    if (baseline) sourceWork_ += explicitSegmentWork(h, wk, segmentTwistAt(gk), potentialBefore);
    sourceWork_ += segmentSourceWork(h, potentialBefore);
  }

  double potentialEnergy() const override { return node().potential; }

  std::vector<std::string> vehicleColumns() const override {
    return {"u_left", "u_right", "submerged_volume", "wetted_area", "heel", "trim", "speed", "water_height"};
  }

  void vehicleDiagnostics(std::vector<double>& row) const override {
    const se3::Pose& g = pose();
    const HydrostaticState& hydro = nodeHydro();
    for (double v : {thrust_.x(), thrust_.y(), hydro.volume, hydro.wettedArea, heel(g.R), trim(g.R), velocity().norm(),
                     water_.height(g.x.x(), g.x.y(), time())})
      row.push_back(v);
  }

  std::vector<double> saveVehicle() const override {
    return {thrust_.x(), thrust_.y(), lastTriggers_[kLeft], lastTriggers_[kRight], sourceWork_};
  }

  // Called before the body state is loaded: the node data is rebuilt lazily from the loaded pose (node()).
  void loadVehicle(const std::vector<double>& s) override {
    if (s.size() != 5) throw BadInput("boat state: expected 5 vehicle numbers, got " + std::to_string(s.size()));
    thrust_ = Eigen::Vector2d(s[0], s[1]);
    lastTriggers_ = {s[2], s[3]};
    sourceWork_ = s[4];
    node_.t = std::numeric_limits<double>::quiet_NaN();
  }

 private:
  // (u_l, u_r): neutral triggers hold the parameters, full trigger reaches thrust_max.
  Eigen::Vector2d heldThrust(double left, double right) const {
    const double tmax = boat_.settings().thrustMax;
    const double l = params_.real("thrust_left"), r = params_.real("thrust_right");
    return {std::clamp(l + left * (tmax - l), 0.0, tmax), std::clamp(r + right * (tmax - r), 0.0, tmax)};
  }

  // What the step from node k needs of node k, computed once per node from (pose, time, thrust).
  struct NodeData {
    se3::Pose g;
    double t = std::numeric_limits<double>::quiet_NaN();
    HydrostaticState hydro;
    std::vector<Vector3d> eta;  // world water velocity at the wet patch centroids
    double potential = 0.0;     // m g z - rho g int_sub z dV, J
    Vector6d thrust = Vector6d::Zero(), pressure = Vector6d::Zero();
  };
  struct EndEvaluation {  // the last end-of-step evaluation (the accepted Newton iterate after a step)
    se3::Pose g;
    Vector6d xi = Vector6d::Zero(), hydrostatic = Vector6d::Zero();
    double windPower = 0.0, waterPower = 0.0;
    Vector6d pressure = Vector6d::Zero();
  };

  void fillNode(const se3::Pose& g, double t, NodeData& n) const {
    n.g = g;
    n.t = t;
    computeHydrostatics(boat_.patches(), g, water_, t, n.hydro);
    n.eta = boat_.waterVelocities(g, t, water_, n.hydro);
    n.potential = boat_.potentialEnergy(g, n.hydro);
    n.thrust = thrustWrench(g, t);
    n.pressure = pressureWrench(g, t, &n.hydro);
  }
  Vector6d thrustWrench(const se3::Pose& g, double t) const {
    return boat_.thrustWrench(g, t, water_, Eigen::Vector2d(thrust_.y(), thrust_.x()));
  }
  // -P n dA on the wetted patches of `hydro` (computed here at (g, t) if null); zero without a pressure.
  Vector6d pressureWrench(const se3::Pose& g, double t, const HydrostaticState* hydro) const {
    if (boat_.settings().pressure == 0.0) return Vector6d::Zero();
    if (!hydro) {
      computeHydrostatics(boat_.patches(), g, water_, t, scratch_);
      hydro = &scratch_;
    }
    BoatWrench w;
    boat_.patchWrenches(g.R, Vector6d::Zero(), *hydro, std::vector<Vector3d>(hydro->patches.size(), Vector3d::Zero()),
                        w);
    return w.pressure;
  }
  void computeNode(const se3::Pose& g, double t) { fillNode(g, t, node_); }
  const NodeData& node() const {
    if (!(node_.t == time()) || node_.g.x != pose().x || node_.g.R != pose().R) fillNode(pose(), time(), node_);
    return node_;
  }
  const HydrostaticState& nodeHydro() const { return node().hydro; }

  // Work of wind, water and moving waves over segment k (LGVI; the explicit loads are the base's inputWork):
  // wind and water (current, orbital velocity) as h f . (source velocity) of the implicit drag at the accepted
  // end-of-step twist (its remainder, -h f . relative velocity, is dissipation); moving waves as the part of
  // the hydrostatic energy change that the hydrostatic wrench's own work h f^+ . xi^+ does not explain,
  // U_{k+1} - U_k + h f^+ . xi^+ (not booked in still water: there U is the exact potential and this term is
  // the scheme's own dissipation, <= 0 for a convex potential, not an input).
  double segmentSourceWork(double h, double potentialBefore) const {
    if (!usesLgvi() || !implicit_) return 0.0;  // RK4: sourcePower at its stages; explicit: explicitSegmentWork
    const EndEvaluation& end = lastEnd_;
    if (end.g.x != pose().x || end.g.R != pose().R) return 0.0;
    double work = h * (end.windPower + end.waterPower + end.pressure.dot(end.xi));
    if (!water_.still()) work += node_.potential - potentialBefore + h * end.hydrostatic.dot(end.xi);
    return work;
  }

  // hull_forces=explicit and RK4 (the baselines): what wind and moving water deliver through the drag at
  // (g, xi, t), sum f_i . (source velocity), so their energy balance is judged like the implicit scheme's.
  double sourcePower(const se3::Pose& g, const Vector6d& xi, double t) const override {
    const BoatWrench w = mediaWrench(g, xi, t);
    return w.windPower + w.waterPower + wavePower(g, xi, t, w);
  }
  // hull_forces=explicit on the LGVI, segment k (booked at node k+1): the drag's media power at node k with the
  // segment twist, and the moving sea's work as the implicit scheme books it, U_{k+1} - U_k + h f_hs,k . xi_k
  // (the change of U that the hydrostatic wrench's own work does not explain).
  double explicitSegmentWork(double h, const BoatWrench& wk, const Vector6d& xi, double potentialBefore) const {
    double work = h * (wk.windPower + wk.waterPower);
    if (!water_.still()) work += node_.potential - potentialBefore + h * wk.hydrostatic().dot(xi);
    return work;
  }
  Vector6d segmentTwistAt(const se3::Pose& gk) const {  // (omega_k, v_k) of segment k, body frame of node k
    Vector6d xi;
    xi << segmentOmega(), gk.R.transpose() * segmentVelocity();
    return xi;
  }
  // RK4 stages: the same quantity as a rate, dU/dt along the stage twist plus f_hs . xi (central difference
  // of U along g cay(+-d xi) at t +- d), i.e. the sea's power not explained by the hydrostatic wrench.
  double wavePower(const se3::Pose& g, const Vector6d& xi, double t, const BoatWrench& w) const {
    if (water_.still()) return 0.0;
    const double d = 1e-6;
    const double dU = potentialAt(g * se3::cay(d * xi), t + d) - potentialAt(g * se3::cay(-d * xi), t - d);
    return dU / (2.0 * d) + w.hydrostatic().dot(xi);
  }
  double potentialAt(const se3::Pose& g, double t) const {
    computeHydrostatics(boat_.patches(), g, water_, t, scratch_);
    return boat_.potentialEnergy(g, scratch_);
  }
  BoatWrench mediaWrench(const se3::Pose& g, const Vector6d& xi, double t) const {
    return boat_.wrench(g, xi, t, water_, Eigen::Vector2d(thrust_.y(), thrust_.x()), scratch_);
  }

  static double heel(const Matrix3d& R) { return std::atan2(R(2, 1), R(2, 2)); }
  static double trim(const Matrix3d& R) { return std::asin(std::clamp(-R(2, 0), -1.0, 1.0)); }  // + bow down

  void drawWater(DrawList& out) const;

  Boat boat_;
  WaterSurface water_;
  Eigen::Vector2d thrust_ = Eigen::Vector2d::Zero();  // (u_l, u_r), N
  std::array<double, 2> lastTriggers_{0.0, 0.0};
  const bool implicit_;  // hull_forces
  mutable HydrostaticState scratch_;
  mutable NodeData node_;
  mutable EndEvaluation lastEnd_;
  double sourceWork_ = 0.0;  // J since reset, wind + water + waves (saved state)
};

// The physical surface around the boat: the grid nodes (snapped to the world grid) and the same diagonal
// split as WaterSurface::height, so the mesh is exactly the surface the hull is clipped against.
void BoatScene::drawWater(DrawList& out) const {
  const double s = water_.spacing(), t = time();
  const int n = std::clamp(int(40.0 / s), 8, 200);  // about 40 m across
  const long i0 = long(std::floor(pose().x.x() / s)) - n / 2, j0 = long(std::floor(pose().x.y() / s)) - n / 2;
  const HeightWindow win = water_.window(i0 * s, (i0 + n) * s, j0 * s, (j0 + n) * s, t);
  TriangleMesh mesh;
  mesh.color = {0.15f, 0.4f, 0.65f, 0.85f};
  for (int b = 0; b <= n; ++b)
    for (int a = 0; a <= n; ++a) {
      const long i = i0 + a, j = j0 + b;
      mesh.positions.push_back({float(i * s), float(j * s), float(win.at(i, j))});
      const double dx = (win.at(i + 1, j) - win.at(i - 1, j)) / (2.0 * s);
      const double dy = (win.at(i, j + 1) - win.at(i, j - 1)) / (2.0 * s);
      const Vector3d nrm = Vector3d(-dx, -dy, 1.0).normalized();
      mesh.normals.push_back(toVec3f(nrm));
    }
  auto idx = [&](int a, int b) { return unsigned(b * (n + 1) + a); };
  for (int b = 0; b < n; ++b)
    for (int a = 0; a < n; ++a) {  // lower (0,0),(1,0),(1,1) and upper (0,0),(1,1),(0,1), counter-clockwise
      mesh.indices.insert(mesh.indices.end(), {idx(a, b), idx(a + 1, b), idx(a + 1, b + 1)});
      mesh.indices.insert(mesh.indices.end(), {idx(a, b), idx(a + 1, b + 1), idx(a, b + 1)});
    }
  out.meshes.push_back(std::move(mesh));
  // Grid lines on the surface every ~2 m of the world grid (they ride the waves and stay put as the boat
  // passes), 1 cm above it: a 0.15 m swell is hard to read from the shading alone.
  const long every = std::max(1L, std::lround(2.0 / s));
  const Rgba lineColor{0.75f, 0.88f, 1.0f, 0.55f};
  for (int c = 0; c <= n; ++c) {
    const bool alongX = (j0 + c) % every == 0, alongY = (i0 + c) % every == 0;
    LineStrip lx{{}, lineColor, 1.0f, false}, ly{{}, lineColor, 1.0f, false};
    for (int k = 0; k <= n && (alongX || alongY); ++k) {
      if (alongX) lx.points.push_back({float((i0 + k) * s), float((j0 + c) * s), float(win.at(i0 + k, j0 + c) + 0.01)});
      if (alongY) ly.points.push_back({float((i0 + c) * s), float((j0 + k) * s), float(win.at(i0 + c, j0 + k) + 0.01)});
    }
    if (alongX) out.lines.push_back(std::move(lx));
    if (alongY) out.lines.push_back(std::move(ly));
  }
}

void BoatScene::draw(DrawList& out) const {
  const se3::Pose& g = pose();
  drawWater(out);
  const Vector3d size = boat_.settings().hullSize;
  const Vector3d c = boat_.hull().center;
  auto shape = [&](ShapeKind k, const Mat4& m, Vec3f sz, Rgba col) { out.shapes.push_back({k, m, sz, col, false}); };
  shape(ShapeKind::Box, toMat4(g, c, Matrix3d::Identity()), toVec3f(size), {0.92f, 0.92f, 0.88f, 1.0f});
  shape(ShapeKind::Box, toMat4(g, c + Vector3d(0.1 * size.x(), 0, 0.5 * size.z() + 0.25), Matrix3d::Identity()),
        {float(0.3 * size.x()), float(0.7 * size.y()), 0.5f}, {0.3f, 0.35f, 0.45f, 1.0f});  // cabin
  const Matrix3d alongX = Eigen::AngleAxisd(0.5 * kPi, Vector3d::UnitY()).toRotationMatrix();
  const double tmax = std::max(boat_.settings().thrustMax, 1e-9);
  const Vector3d thrusters[2] = {boat_.thrusterLeft(), boat_.thrusterRight()};
  for (int k = 0; k < 2; ++k) {
    shape(ShapeKind::Cylinder, toMat4(g, thrusters[k], alongX), {0.12f, 0.12f, 0.4f}, {0.2f, 0.2f, 0.2f, 1.0f});
    const double len = 1.5 * thrust_[k] / tmax;
    if (len > 1e-3)
      shape(ShapeKind::Arrow, toMat4(g, thrusters[k] - Vector3d(len + 0.2, 0, 0), alongX), {0.04f, 0.1f, float(len)},
            {1.0f, 0.5f, 0.1f, 1.0f});
  }
  const Vector3d wind = boat_.settings().wind;
  if (wind.norm() > 1e-6) {  // wind arrow above the boat, length ~ speed / 3
    const Matrix3d align = Eigen::Quaterniond::FromTwoVectors(Vector3d::UnitZ(), wind).toRotationMatrix();
    shape(ShapeKind::Arrow, toMat4(se3::Pose{align, g.x + Vector3d(0, 0, 3.0)}),
          {0.05f, 0.15f, float(wind.norm() / 3.0)}, {0.9f, 0.9f, 1.0f, 1.0f});
  }
  drawTrail(out, {1.0f, 1.0f, 1.0f, 0.8f});

  out.camera.follow = true;
  out.camera.target = toVec3f(g.x);
  out.camera.heading = float(std::atan2(g.R(1, 0), g.R(0, 0)));
  out.camera.distance = 14.0f;
  out.camera.showGround = false;
  const HydrostaticState& hydro = nodeHydro();
  char buf[200];
  const double speed = velocity().norm();
  std::snprintf(buf, sizeof buf, "speed %.2f m/s (%.1f kn)  heading %.0f  heel %+.1f  trim %+.1f deg", speed,
                speed * 1.943844, std::atan2(g.R(1, 0), g.R(0, 0)) * 180.0 / kPi, heel(g.R) * 180.0 / kPi,
                trim(g.R) * 180.0 / kPi);
  out.hud.push_back(buf);
  std::snprintf(buf, sizeof buf, "thrust L %.0f N  R %.0f N", thrust_.x(), thrust_.y());
  out.hud.push_back(buf);
  std::snprintf(buf, sizeof buf, "submerged %.3f m^3 (floats at %.3f)  wetted %.2f m^2", hydro.volume,
                boat_.settings().mass / boat_.settings().waterDensity, hydro.wettedArea);
  out.hud.push_back(buf);
  if (sanitizedInputSteps() > 0)
    out.hud.push_back("invalid inputs (NaN, out of range) repaired on " + std::to_string(sanitizedInputSteps()) +
                      " steps");
}

}  // namespace

VARSIM_REGISTER_SCENE(SceneInfo{
    "boat", "Thruster boat on waves (seed 000 Sec. 4.3.2)",
    "A box-hull boat on the variational integrator: buoyancy from the exactly clipped submerged volume and its "
    "centroid under animated piecewise-linear waves (the drawn water is the physical water), the patch tractions "
    "f_h = -E(r_dot - R^T eta) - P n of eq. (15) summed over the wetted hull patches, wind drag on the dry patches, "
    "a water current, and two stern thrusters with the ERRATA control matrix (c x e_x, e_x). Gravity, buoyancy, "
    "drag and wind act at the end of each step (implicit: passive for every mass and dt). Triggers drive the "
    "thrusters; waves, damping, wind and current are live parameters.",
    boatParams, validateBoat,
    [](const ParamSet& p) -> std::unique_ptr<Scene> { return std::make_unique<BoatScene>(p); }});

}  // namespace varsim
