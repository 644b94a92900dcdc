// scenes/vehicles/car_scene.cpp — scene `car`: the car of seed 000 Sec. 5.2.1 on the explicit nonholonomic update
// (engine/integrators/nonholonomic.h, carStep), driven by throttle/brake/steer controls or constant
// torque/steering-rate parameters, drawn with a body, four rolling and steering wheels, a trail and an
// optional parking lot whose parked cars, walls, kerbs, pillars and cones are solid (planar_impact.h: the car
// stops at the touch and bounces back along its wheels with the restitution e; the hit obstacle flashes).
#include <Eigen/Geometry>
#include <cmath>
#include <cstdio>

#include "engine/integrators/planar_impact.h"
#include "engine/sim/errors.h"
#include "engine/sim/input_track.h"
#include "scenes/scene.h"
#include "scenes/vehicles/vehicle_drawing.h"
#include "scenes/vehicles/vehicle_scenery.h"

namespace varsim {
namespace {

constexpr double kRadToDeg = 57.29577951308232;

std::vector<ParamSpec> carParams() {
  return {
      ParamSpec::real("m", 2.0, 0.0, 1e5, "kg", "vehicle mass", true),
      ParamSpec::real("I", 0.1, 0.0, 1e4, "kg m^2", "rear-wheel rolling inertia", true),
      ParamSpec::real("K", 0.6, 0.0, 1e6, "kg m^2", "yaw inertia of the body", true),
      ParamSpec::real("l", 1.5, 1e-6, 20.0, "m",
                      "wheelbase (rear to front axle); from 1e-6 m (ran 3 s; 1e-308 gave a non-finite energy at t = 0)"),
      ParamSpec::real("rho", 0.35, 0.0, 5.0, "m", "wheel radius", true),
      ParamSpec::choice("integrator", "variational", {"variational", "rk2", "rk4"},
                        "variational = the explicit nonholonomic update (seed 000 Sec. 5.2.1); rk2 (explicit midpoint) "
                        "and rk4 = baselines on the reduced ODE (Fig. 5), torque and steering rate held over the step"),
      ParamSpec::real("alpha", 0.5, 0.0, 1.0, "", "quadrature point: 1/2 second order; 0 loses, 1 gains energy (ERRATA)"),
      ParamSpec::real("speed", 0.0, -1e3, 1e3, "rad/s",
                      "initial rear-wheel rolling rate u^psi (car speed = rho u^psi; 0: at rest until driven)"),
      ParamSpec::real("steer", 0.0, -100.0, 100.0, "", "initial sigma = tan(steering angle); |steer| <= tan(steer_limit)"),
      ParamSpec::real("torque", 0.0, -1e4, 1e4, "N m", "constant rear-wheel torque f^psi while throttle and brake are released")
          .setLive(),
      ParamSpec::real("steer_rate", 0.0, -100.0, 100.0, "1/s", "constant steering velocity u^sigma while the stick is centred")
          .setLive(),
      ParamSpec::real("dt", 1.0 / 60.0, 0.0, 0.5, "s", "time step h", true),
      ParamSpec::real("max_torque", 1.0, 0.0, 1e4, "N m", "rear-wheel torque at full throttle").setLive(),
      ParamSpec::real("brake_torque", 2.0, 0.0, 1e4, "N m", "braking torque at full brake (opposes rolling, fades below 0.5 rad/s)")
          .setLive(),
      ParamSpec::real("max_steer_rate", 1.0, 0.0, 100.0, "1/s", "|u^sigma| at full stick").setLive(),
      ParamSpec::real("steer_limit", 0.6, 0.0, 1.5, "rad", "largest steering angle |atan sigma|", true).setLive(),
      ParamSpec::boolean("return_to_centre", true, "with the stick centred and steer_rate = 0, steering returns to straight")
          .setLive(),
      ParamSpec::real("centre_rate", 1.0, 0.0, 100.0, "1/s", "|u^sigma| of the return to centre").setLive(),
      ParamSpec::boolean("brake_reverses", true,
                         "game convention: with the throttle released, brake drives backwards (max_torque) once stopped")
          .setLive(),
      ParamSpec::choice("world", "parking_lot", {"parking_lot", "open"},
                        "scenery: a parking lot with bays and solid obstacles (parked cars, walls, pillars, cones), or open ground"),
      ParamSpec::real("restitution", 0.3, 0.0, 1.0, "",
                      "impact on an obstacle: the rolling speed becomes -e times itself (0 stops dead, 1 elastic)")
          .setLive(),
      ParamSpec::real("start_x", 0.0, -1e4, 1e4, "m", "initial rear-axle position x (must not overlap an obstacle)"),
      ParamSpec::real("start_y", 0.0, -1e4, 1e4, "m", "initial rear-axle position y"),
      ParamSpec::real("start_heading", 0.0, -6.283185307179586, 6.283185307179586, "rad", "initial heading theta"),
  };
}

// bodyLength, bodyWidth, carFootprint and lotFor live in scenes/vehicles/vehicle_scenery.h (the planner uses them too).
Scenery lotFor(double l, double rho) { return carParkingLot(l, rho); }

void validateCar(const ParamSet& p) {
  const double limit = std::tan(p.real("steer_limit")), steer = p.real("steer");
  if (std::abs(steer) > limit)
    throw BadInput("car: key 'steer' = " + formatNumber(steer) + ": allowed range [-" + formatNumber(limit) + ", " +
                   formatNumber(limit) + "] (tan(steer_limit))");
  if (p.choice("world") != "parking_lot") return;
  const double l = p.real("l"), rho = p.real("rho");
  if (!(l > 0.0 && rho > 0.0)) return;  // validateCarParams names those
  const Scenery lot = lotFor(l, rho);
  int which = -1;
  const double gap = clearance(carFootprint(l, rho), {p.real("start_heading"), p.real("start_x"), p.real("start_y")},
                               lot.obstacles, &which);
  if (gap <= 0.0)
    throw BadInput("car: keys 'start_x', 'start_y', 'start_heading' = " + formatNumber(p.real("start_x")) + ", " +
                   formatNumber(p.real("start_y")) + ", " + formatNumber(p.real("start_heading")) +
                   ": the car would start inside a " + lot.boxes[size_t(which)].kind + " (overlap " + formatNumber(-gap) +
                   " m); allowed: a pose clear of the parking lot's obstacles, or world = open");
}

class CarScene : public Scene {
 public:
  explicit CarScene(const ParamSet& p)
      : Scene(p),
        car_{p.real("m"), p.real("I"), p.real("K"), p.real("l"), p.real("rho")},
        alpha_(p.real("alpha")),
        method_(vehicleIntegratorFromName(p.choice("integrator"))),
        length_(bodyLength(car_.l, car_.rho)),
        width_(bodyWidth(car_.l, car_.rho)),
        footprint_(carFootprint(car_.l, car_.rho)),
        trail_(0.03 * car_.l),
        lot_(lotFor(car_.l, car_.rho)) {
    validateCarParams(car_);
    if (p.choice("world") == "parking_lot") obstacles_ = lot_.obstacles;
    validateObstacles(footprint_, obstacles_, "car");
    readLive();
    const se2::Pose2 g0{p.real("start_heading"), p.real("start_x"), p.real("start_y")};
    state_ = carStart(car_, g0, 0.0, p.real("steer"), p.real("speed"));
    gPrev_ = state_.g;
    trail_.add(0.0, g0.x, g0.y);
  }

  std::vector<ControlSpec> controls() const override {
    return {
        // Order: stick first, then the triggers (the app's default bindings: left stick x + D/A keys,
        // right trigger + W, left trigger + L).
        {"steer", -1.0, 1.0, 0.0,
         "> 0 steers right: u^sigma = -max_steer_rate * steer (overrides `steer_rate` while != 0)"},
        {"throttle", 0.0, 1.0, 0.0, "rear-wheel torque max_torque * throttle (overrides `torque` while throttle or brake > 0)"},
        {"brake", 0.0, 1.0, 0.0, "torque -brake_torque * brake * tanh(u^psi / 0.5 rad/s): opposes rolling, never reverses"},
    };
  }

  void step(double h, const InputVector& inputs) override {
    InputVector in = inputs;
    sanitizeInputs(controls(), in);  // NaN -> neutral, clamped: physics never sees bad input
    const CarCommand cmd =
        carCommand(drive_, CarControls{in[1], in[2], in[0]}, constTorque_, constSteerRate_, state_.u, state_.sigma, h);
    const se2::Pose2 before = state_.g;
    // Throws with the state unchanged; stops at an obstacle and bounces back along the wheels.
    const ImpactEvent hit =
        carStepSolid(car_, alpha_, h, state_, cmd.steerRate, cmd.torque, footprint_, obstacles_, restitution_, method_);
    gPrev_ = before;
    // Work of the wheel torque over the step, f_{k+alpha} (psi_{k+1} - psi_k) of the unobstructed segment: the
    // scheme applies the impulse h f in full (exact energy balance E_{k+1} - E_k = h f u_k at alpha = 1/2 and
    // constant steering; the steering itself is workless, dE/dt = f psi_dot).
    inputWork_ += h * cmd.torque * state_.u;
    if (hit.hit) {
      impact_.record(double(k_ + 1) * h, hit);
    }
    frontRoll_ += h * state_.u * std::sqrt(1.0 + state_.sigmaMid * state_.sigmaMid);
    ++k_;
    trail_.add(time(), state_.g.x, state_.g.y);
  }

  double time() const override { return double(k_) * dt(); }

  std::vector<std::string> columns() const override {
    return {"t",      "x",     "y",          "theta",    "energy",   "psi",           "sigma",           "mu",
            "speed", "steer_angle", "yaw_rate", "torque", "steer_rate", "lateral_velocity", "clearance", "impacts"};
  }

  double inputWork() const override { return inputWork_; }

  void diagnostics(std::vector<double>& row) const override {
    // Lateral body velocity of the last segment recovered from the two poses (the constraint check).
    const double lateral = k_ > 0 ? se2::log(gPrev_.inverse() * state_.g)[2] / dt() : 0.0;
    row = {time(),
           state_.g.x,
           state_.g.y,
           state_.g.theta,
           car_.energyOfMomentum(state_.pMinus, state_.sigma),
           state_.psi,
           state_.sigma,
           state_.pMinus,
           car_.rho * state_.u,
           std::atan(state_.sigma),
           (car_.rho / car_.l) * state_.sigmaMid * state_.u,
           state_.torque,
           state_.steerRate,
           lateral,
           obstacles_.empty() ? 0.0 : clearance(footprint_, state_.g, obstacles_),
           double(impact_.count)};
  }

  std::vector<double> saveState() const override {
    const auto& s = state_;
    std::vector<double> v = {double(k_), s.g.theta, s.g.x,        s.g.y,    s.psi,    s.sigma,    s.pMinus, s.u,
                             s.sigmaMid, s.torque,  s.steerRate,  gPrev_.theta, gPrev_.x, gPrev_.y,  frontRoll_, inputWork_};
    impact_.save(v);
    return v;
  }

  void loadState(const std::vector<double>& v) override {
    if (v.size() != 23) throw BadInput("car: state vector has " + std::to_string(v.size()) + " entries, expected 23");
    k_ = long(v[0]);
    state_.g = {v[1], v[2], v[3]};
    state_.psi = v[4];
    state_.sigma = v[5];
    state_.pMinus = v[6];
    state_.u = v[7];
    state_.sigmaMid = v[8];
    state_.torque = v[9];
    state_.steerRate = v[10];
    gPrev_ = {v[11], v[12], v[13]};
    frontRoll_ = v[14];
    inputWork_ = v[15];
    impact_.load(v, 16);
    trail_.truncateAfter(time());
  }

  void applyLive(const ParamSet& p) override {
    params_ = p;
    readLive();
  }

  std::vector<PlotSpec> plots() const override {
    return {{"energy (J)", {"energy"}},
            {"speed (m/s)", {"speed"}},
            {"steering", {"steer_angle", "sigma"}},
            {"rear-wheel momentum (kg m^2/s)", {"mu"}},
            {"lateral velocity from poses (m/s)", {"lateral_velocity"}},
            {"clearance to obstacles (m)", {"clearance"}}};
  }

  void draw(DrawList& out) const override {
    const auto& s = state_;
    const double rho = car_.rho, l = car_.l, track = width_ - 0.5 * rho, tyreWidth = 0.45 * rho;
    const Eigen::Isometry3d body = planarFrame(s.g.theta, s.g.x, s.g.y);
    // Body: chassis and cabin over the axles (the rear axle is the body origin).
    drawBox(out, body, {0.5 * l, 0.0, 1.05 * rho}, {length_, width_ - 1.1 * tyreWidth, 0.7 * rho}, {0.85f, 0.2f, 0.15f, 1});
    drawBox(out, body, {0.4 * l, 0.0, 1.65 * rho}, {0.5 * length_, 0.8 * (width_ - tyreWidth), 0.55 * rho},
            {0.3f, 0.45f, 0.6f, 1});
    // Ackermann angles: every wheel is perpendicular to the line to the turning centre (0, l/sigma).
    const double half = 0.5 * track;
    const double steerLeft = std::atan2(l * s.sigma, l - s.sigma * half);
    const double steerRight = std::atan2(l * s.sigma, l + s.sigma * half);
    const auto wrap = [](double a) { return a > 1.5707963267948966 ? a - 3.141592653589793 : a < -1.5707963267948966 ? a + 3.141592653589793 : a; };
    drawWheel(out, body, {0.0, half, rho}, 0.0, s.psi, rho, tyreWidth);
    drawWheel(out, body, {0.0, -half, rho}, 0.0, s.psi, rho, tyreWidth);
    drawWheel(out, body, {l, half, rho}, wrap(steerLeft), frontRoll_, rho, tyreWidth);
    drawWheel(out, body, {l, -half, rho}, wrap(steerRight), frontRoll_, rho, tyreWidth);
    out.lines.push_back(trail_.strip({0.2f, 0.8f, 1.0f, 1.0f}));
    if (params_.choice("world") == "parking_lot") drawScenery(out, lot_, impact_, time(), 0.4 * rho);
    out.camera.follow = true;
    const Eigen::Vector3d centre = body * Eigen::Vector3d(0.5 * l, 0.0, rho);
    out.camera.target = {float(centre.x()), float(centre.y()), float(centre.z())};
    out.camera.heading = float(s.g.theta);
    out.camera.distance = float(3.5 * length_);
    char line[160];
    std::snprintf(line, sizeof line, "speed %.2f m/s (%.1f km/h)", car_.rho * s.u, 3.6 * car_.rho * s.u);
    out.hud.push_back(line);
    std::snprintf(line, sizeof line, "steering angle %.1f deg (sigma %.3f, limit %.1f deg)",
                  std::atan(s.sigma) * kRadToDeg, s.sigma, drive_.steerLimit * kRadToDeg);
    out.hud.push_back(line);
    std::snprintf(line, sizeof line, "torque %.2f N m, steering rate %.2f 1/s%s", s.torque, s.steerRate,
                  method_ == VehicleIntegrator::Variational ? ""
                  : method_ == VehicleIntegrator::Rk2       ? "  [rk2]"
                                                            : "  [rk4]");
    out.hud.push_back(line);
    if (const std::string hit = impactHudLine(lot_, impact_, time(), restitution_); !hit.empty()) out.hud.push_back(hit);
  }

 private:
  void readLive() {
    const ParamSet& p = params_;
    drive_.maxTorque = p.real("max_torque");
    drive_.brakeTorque = p.real("brake_torque");
    drive_.maxSteerRate = p.real("max_steer_rate");
    drive_.steerLimit = p.real("steer_limit");
    drive_.returnToCentre = p.flag("return_to_centre");
    drive_.centreRate = p.real("centre_rate");
    drive_.brakeReverses = p.flag("brake_reverses");
    restitution_ = p.real("restitution");
    constTorque_ = p.real("torque");
    constSteerRate_ = p.real("steer_rate");
  }

  CarParams car_;
  double alpha_;
  VehicleIntegrator method_;  // the variational update (default) or an RK baseline
  double length_, width_;  // drawn body, m
  Footprint footprint_;    // solid outline in the rear-axle frame
  CarDriveSettings drive_;
  double restitution_ = 0.3;
  double constTorque_ = 0.0, constSteerRate_ = 0.0;
  CarState state_;
  se2::Pose2 gPrev_;
  double frontRoll_ = 0.0;  // rolling angle of the front wheels (their axle moves at v sqrt(1 + sigma^2))
  long k_ = 0;
  GroundTrail trail_;
  Scenery lot_;
  std::vector<PlanarBox> obstacles_;  // the lot's boxes, or none in the open world
  double inputWork_ = 0.0;            // J, work of the wheel torque since reset
  ImpactRecord impact_;               // the last impact (HUD, flash), and the count
};

}  // namespace

VARSIM_REGISTER_SCENE(SceneInfo{
    "car", "Car (nonholonomic)",
    "Car with simple dynamics (seed 000 Sec. 5.2.1) on the explicit nonholonomic Lie group update (or the RK2/RK4 "
    "baselines on the reduced ODE, `integrator`): rear-wheel "
    "torque f^psi and steering velocity u^sigma (sigma = tan of the steering angle). Throttle/brake and the steering "
    "stick override the constant `torque`/`steer_rate` while they are away from neutral. Rows: node k; `energy` is "
    "p^2/(2(I + m rho^2 + K rho^2 sigma^2/l^2)) of the rear-wheel momentum `mu` = p at the node; speed, yaw_rate, "
    "torque and steer_rate belong to the last step. The parking lot is solid: at a touch the car stops and its rolling "
    "reverses to -restitution times itself (the only motion its wheels allow); `clearance` is the smallest gap between "
    "the body outline and an obstacle (m; 0 on open ground), `impacts` their count. inputWork() = sum h f u^psi.",
    carParams, validateCar, [](const ParamSet& p) { return std::make_unique<CarScene>(p); }});

}  // namespace varsim
