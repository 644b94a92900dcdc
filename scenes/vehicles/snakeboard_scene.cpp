// scenes/vehicles/snakeboard_scene.cpp — scene `snakeboard`: the snakeboard of seed 000 Sec. 5.2.2 on the explicit
// nonholonomic update (snakeboardStep) with the shape (rotor psi, steering phi) prescribed either by the
// auto-gait psi = A_psi sin(w t), phi = A_phi sin(w t + delta) or by two sticks (angle targets followed
// with a first-order lag). Drawn as a board with two steerable wheel sets and a rider whose torso is psi, in
// an arena whose walls and crates are solid (planar_impact.h: the board stops at the touch and bounces back
// along e1(phi) with the restitution e; the hit obstacle flashes).
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/integrators/planar_impact.h"
#include "engine/sim/errors.h"
#include "engine/sim/input_track.h"
#include "scenes/scene.h"
#include "scenes/vehicles/snakeboard_autosteer.h"
#include "scenes/vehicles/vehicle_drawing.h"
#include "scenes/vehicles/vehicle_scenery.h"

namespace varsim {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kRadToDeg = 180.0 / kPi;

std::vector<ParamSpec> snakeboardParams() {
  const double maxSteer = snakeboard::kMaxSteer;
  return {
      ParamSpec::real("m", 4.0, 0.0, 1e4, "kg", "total mass", true),
      ParamSpec::real("I", 0.2, 0.0, 1e4, "kg m^2", "rotor (rider torso) inertia; must be < m l^2", true),
      ParamSpec::real("J", 0.01, 0.0, 1e3, "kg m^2", "inertia of each wheel axle about its steering pivot", true),
      ParamSpec::real("l", 0.4, 0.0, 10.0, "m", "distance from the board centre to each axle", true),
      ParamSpec::choice("integrator", "variational", {"variational", "rk2", "rk4"},
                        "variational = the explicit nonholonomic update (seed 000 Sec. 5.2.2); rk2 (explicit midpoint) "
                        "and rk4 = baselines on the reduced ODE, the shape moving linearly between the steps' nodes"),
      ParamSpec::real("alpha", 0.5, 0.0, 1.0, "",
                      "quadrature point: 1/2 second order, 0 or 1 first order; with the gait on refused above 1/2 "
                      "(anti-damped: the board gains energy every gait period)"),
      ParamSpec::real(
          "phi", 0.0, -maxSteer, maxSteer, "rad",
          "steering trim phi_0: with the gait on, the wheels oscillate about it (phi = phi_0 + A_phi sin(w t + "
          "delta), a curved path; |phi| + gait_phi_amplitude <= 1.4); with the gait off, the steering held "
          "while the steer stick is centred"),
      ParamSpec::boolean("gait", true, "auto-gait: psi = A_psi sin(w t), phi = A_phi sin(w t + delta); off: the sticks")
          .setLive(),
      ParamSpec::real("gait_psi_amplitude", 1.0, 0.0, 3.0, "rad", "rotor (torso) amplitude A_psi").setLive(),
      ParamSpec::real("gait_phi_amplitude", 0.5, 0.0, maxSteer, "rad",
                      "steering amplitude A_phi about the trim phi; |phi| + A_phi <= 1.4")
          .setLive(),
      ParamSpec::real("gait_frequency", 0.5, 0.0, 5.0, "Hz",
                      "gait frequency w / (2 pi); with the gait on refused above 0.05 / dt (fewer than 20 steps per "
                      "period: the gait is under-resolved)",
                      true)
          .setLive(),
      ParamSpec::real("gait_cruise_speed", 1.5, 0.0, 20.0, "m/s",
                      "the gait pumps (rotor amplitude A_psi) up to this speed, then glides (the rotor eases off from "
                      "75 % of it); 0: no limit (the frictionless board gains about 0.3 m/s per s for ever)")
          .setLive(),
      ParamSpec::boolean("gait_steer", true,
                         "the gait steers clear of the arena's walls and crates (adds up to 0.35 rad of trim towards "
                         "the clearest arc 2.5 s ahead); off: it holds the trim phi")
          .setLive(),
      ParamSpec::real("gait_phase", 0.0, -2 * kPi, 2 * kPi, "rad",
                      "delta: steering phase relative to the rotor; cos(delta) > 0 drives forward (body -x)")
          .setLive(),
      ParamSpec::real("dt", 1.0 / 60.0, 0.0, 0.5, "s", "time step h", true),
      ParamSpec::real("speed", 0.0, -100.0, 100.0, "m/s", "initial speed of the board centre, > 0 along body -x"),
      // The start state (a re-plan in the app starts from the running board: plan/snakeboard_plan_endpoints.cpp).
      ParamSpec::real("start_x", 0.0, -1e4, 1e4, "m", "initial board-centre position x (clear of walls and crates)"),
      ParamSpec::real("start_y", 0.0, -1e4, 1e4, "m", "initial board-centre position y"),
      ParamSpec::real("start_heading", 0.0, -2 * kPi, 2 * kPi, "rad", "initial heading theta"),
      ParamSpec::real("start_psi", 0.0, -3.0, 3.0, "rad",
                      "initial rotor (torso) angle of the sticks' shape (gait off; neutral sticks turn it back to 0)"),
      ParamSpec::real("start_phi_offset", 0.0, -2 * maxSteer, 2 * maxSteer, "rad",
                      "initial steering minus the trim phi (gait off; |phi + offset| <= 1.4; neutral sticks return "
                      "to the trim)"),
      ParamSpec::real("psi_max", 1.0, 0.0, 3.0, "rad", "torso angle at full rotor stick").setLive(),
      ParamSpec::real("phi_max", 0.6, 0.0, maxSteer, "rad", "steering angle added at full steer stick").setLive(),
      ParamSpec::real("shape_response", 0.15, 0.0, 10.0, "s", "time constant with which psi, phi follow the sticks",
                      true)
          .setLive(),
      ParamSpec::real("gait_ramp", 1.0, 0.0, 60.0, "s",
                      "blend time between gait and sticks; time constant of amplitude/phase changes", true)
          .setLive(),
      ParamSpec::choice("world", "arena", {"arena", "open"},
                        "scenery: a walled arena with crates (solid), or open ground"),
      ParamSpec::real("restitution", 0.3, 0.0, 1.0, "",
                      "impact on a wall or crate: the board's velocity becomes -e times itself (0 stops, 1 elastic)")
          .setLive(),
  };
}

// The start pose is clear of the arena's walls and crates (the stepper never lets the board into one).
void validateSnakeboardStart(const ParamSet& p) {
  const double phi = p.real("phi"), offset = p.real("start_phi_offset");
  if (std::abs(phi + offset) > snakeboard::kMaxSteer)
    throw BadInput("snakeboard: keys 'phi' = " + formatNumber(phi) +
                   " and 'start_phi_offset' = " + formatNumber(offset) + ": allowed |phi + start_phi_offset| <= " +
                   formatNumber(snakeboard::kMaxSteer) + " (at pi/2 the wheels point sideways)");
  if (p.choice("world") != "arena" || !(p.real("l") > 0.0)) return;  // validateSnakeboardParams names l
  const Scenery a = arena(p.real("l"));
  int which = -1;
  const se2::Pose2 g0{p.real("start_heading"), p.real("start_x"), p.real("start_y")};
  const double gap = clearance(snakeboardFootprint(p.real("l")), g0, a.obstacles, &which);
  if (gap <= 0.0)
    throw BadInput("snakeboard: keys 'start_x', 'start_y', 'start_heading' = " + formatNumber(g0.x) + ", " +
                   formatNumber(g0.y) + ", " + formatNumber(g0.theta) + ": the board would start inside a " +
                   a.boxes[size_t(which)].kind + " (overlap " + formatNumber(-gap) +
                   " m); allowed: a pose clear of the arena's walls and crates, or world = open");
}

void validateSnakeboard(const ParamSet& p) {
  validateSnakeboardParams({p.real("m"), p.real("I"), p.real("J"), p.real("l")});
  const double phi = p.real("phi"), amp = p.real("gait_phi_amplitude");
  if (std::abs(phi) + amp > snakeboard::kMaxSteer)
    throw BadInput("snakeboard: keys 'phi' = " + formatNumber(phi) + " and 'gait_phi_amplitude' = " + formatNumber(amp) +
                   ": allowed |phi| + gait_phi_amplitude <= " + formatNumber(snakeboard::kMaxSteer) +
                   " (the gait steers phi +- A_phi about the trim phi; at pi/2 the wheels point sideways)");
  validateSnakeboardStart(p);
  // At least 20 steps per gait period. The energy balance does not need it: with the shape work booked along the
  // step's shape path (shapeWork()) it closes to round-off at any dt (measured 20 s at 1/60 s, 3 to 4.5 Hz, arena
  // and open: |E - E0 - W| <= 1.3e-11 J); the limit keeps the gait's waveform resolved.
  const double perPeriod = p.real("gait_frequency") * p.real("dt");
  if (p.flag("gait") && perPeriod > 0.05)
    throw BadInput("snakeboard: gait_frequency = " + formatNumber(p.real("gait_frequency")) + " Hz with dt = " +
                   formatNumber(p.real("dt")) + " s: " + formatNumber(1.0 / perPeriod) +
                   " steps per gait period, fewer than 20 (the gait is under-resolved); allowed "
                   "dt <= " + formatNumber(0.05 / p.real("gait_frequency")) + " s or gait_frequency <= " +
                   formatNumber(0.05 / p.real("dt")) + " Hz");
  // A quadrature point after the segment's middle lags A(r_{k+alpha}) behind the driven shape (seed 000 eq. (16)):
  // the periodic gait then pumps energy the booked shape work does not explain, secularly, at any dt. Measured
  // (gait on, arena and open): alpha = 0.6 at 0.5 Hz and dt = 1/60 s flagged at +1.5 J of 8 J within 60 s; alpha
  // = 1 at dt = 0.004 s +2.4 J of 9.6 J; alpha = 0.55 at 3 Hz +96 J of 384 J; alpha = 0, 0.4, 0.5 ran unflagged
  // at 1 and 3 Hz. With the sticks (gait off) the user drives the shape and alpha is free.
  if (p.flag("gait") && p.real("alpha") > 0.5)
    throw BadInput("snakeboard: key 'alpha' = " + formatNumber(p.real("alpha")) +
                   " with gait = true: allowed alpha <= 0.5 (a later quadrature point is anti-damped under the "
                   "periodic gait: the board gains energy every period at any dt); set gait = false to drive the "
                   "shape with the sticks, or alpha = 0.5 (second order) or 0 (first order, dissipative)");
}

class SnakeboardScene : public Scene {
 public:
  explicit SnakeboardScene(const ParamSet& p)
      : Scene(p),
        board_{p.real("m"), p.real("I"), p.real("J"), p.real("l")},
        alpha_(p.real("alpha")),
        method_(vehicleIntegratorFromName(p.choice("integrator"))),
        footprint_(snakeboardFootprint(board_.l)),
        trail_(0.05 * board_.l),
        arena_(arena(board_.l)) {
    validateSnakeboardParams(board_);
    if (p.choice("world") == "arena") obstacles_ = arena_.obstacles;
    validateObstacles(footprint_, obstacles_, "snakeboard");
    gen_.envelope = p.flag("gait") ? 1.0 : 0.0;
    gen_.amplitudePsi = p.real("gait_psi_amplitude");
    gen_.amplitudePhi = p.real("gait_phi_amplitude");
    gen_.delta = p.real("gait_phase");
    // The sticks' shape at rest at the start (with the gait on it shows only once the gait fades).
    gen_.stick = gen_.target = Eigen::Vector2d(p.real("start_psi"), p.real("phi") + p.real("start_phi_offset"));
    const Eigen::Vector2d r0 = shapeAt(0.0, gen_), rate0 = shapeRateAt(0.0, gen_);
    const double c = std::cos(r0[1]);
    const Vector3d xi0 = p.real("speed") / (2.0 * board_.l * c * c) * snakeboard::e1(board_.l, r0[1]);
    const se2::Pose2 g0{p.real("start_heading"), p.real("start_x"), p.real("start_y")};
    state_ = snakeboardStart(g0, r0[0], r0[1], snakeboard::momentumOfVelocity(board_, r0[1], rate0[0], xi0));
    state_.xi = xi0;
    state_.uPsi = rate0[0];
    state_.uPhi = rate0[1];
    gPrev_ = state_.g;
    trail_.add(0.0, g0.x, g0.y);
  }

  std::vector<ControlSpec> controls() const override {
    return {
        {"rotor", -1.0, 1.0, 0.0,
         "gait off: torso angle target psi = psi_max * rotor (followed with shape_response). To ride, pump: "
         "twist and steer together, W with A then S with D, switching about once a second (W with D rides "
         "backwards); a twist alone turns the torso, not the board"},
        {"steer", -1.0, 1.0, 0.0,
         "gait off: > 0 steers right (like the car): steering target phi = phi - phi_max * steer, within +-1.4 rad "
         "(phi > 0 turns left)"},
    };
  }

  void step(double h, const InputVector& inputs) override {
    InputVector in = inputs;
    sanitizeInputs(controls(), in);
    const ParamSet& p = params_;
    const double ramp = p.real("gait_ramp"), lag = std::exp(-h / ramp);
    Generator next = gen_;
    next.envelope = p.flag("gait") ? std::min(1.0, gen_.envelope + h / ramp) : std::max(0.0, gen_.envelope - h / ramp);
    // The rotor pumps up to the cruise speed, then eases off (snakeboard_autosteer.h): a glide, not speed for ever.
    const double speed = -state_.xi[1];
    const double psiTarget = p.real("gait_psi_amplitude") * cruiseFactor(speed, p.real("gait_cruise_speed"));
    next.amplitudePsi = psiTarget + (gen_.amplitudePsi - psiTarget) * lag;
    // Trim added to steer clear of walls and crates, followed with a 0.3 s lag (no jump in the steering).
    const double room = snakeboard::kMaxSteer - std::abs(p.real("phi")) - p.real("gait_phi_amplitude");
    const double steerTarget = p.flag("gait") && p.flag("gait_steer")
                                   ? autoSteerTrim(state_.g, speed, board_.l, std::min(0.35, std::max(0.0, room)),
                                                   footprint_, obstacles_)
                                   : 0.0;
    next.steer = steerTarget + (gen_.steer - steerTarget) * std::exp(-h / 0.3);
    next.amplitudePhi = p.real("gait_phi_amplitude") + (gen_.amplitudePhi - p.real("gait_phi_amplitude")) * lag;
    next.delta = p.real("gait_phase") + (gen_.delta - p.real("gait_phase")) * lag;
    next.target = Eigen::Vector2d(p.real("psi_max") * in[0],
                                  std::clamp(p.real("phi") - p.real("phi_max") * in[1], -snakeboard::kMaxSteer,
                                             snakeboard::kMaxSteer));
    next.stick = next.target + (gen_.stick - next.target) * std::exp(-h / p.real("shape_response"));
    const Eigen::Vector2d r1 = shapeAt(double(k_ + 1) * h, next);
    const SnakeboardState before = state_;
    // Throws with the state unchanged; stops at a wall or crate and bounces back along e1(phi).
    const ImpactEvent hit = snakeboardStepSolid(board_, alpha_, h, state_, r1[0], r1[1], footprint_, obstacles_,
                                                params_.real("restitution"), method_);
    gen_ = next;
    gPrev_ = before.g;
    inputWork_ += shapeWork(before, state_);
    if (hit.hit) {
      impact_.record(double(k_ + 1) * h, hit);
    }
    // Rolling distance of each axle along its wheel heading (x = -l steered by +phi, x = +l by -phi).
    const Vector3d& xi = state_.xi;
    const double phiA = state_.phi - (1.0 - alpha_) * h * state_.uPhi;
    for (int i = 0; i < 2; ++i) {
      const double side = i == 0 ? -1.0 : 1.0, heading = -side * phiA;
      wheelRoll_[i] += h * (xi[1] * std::cos(heading) + (xi[2] + side * board_.l * xi[0]) * std::sin(heading));
    }
    ++k_;
    trail_.add(time(), state_.g.x, state_.g.y);
  }

  double time() const override { return double(k_) * dt(); }

  std::vector<std::string> columns() const override {
    return {"t",     "x",        "y",        "theta",    "energy",  "psi", "phi", "mu", "speed",
            "yaw_rate", "psi_rate", "phi_rate", "gait_envelope", "constraint_residual", "clearance", "impacts"};
  }

  double inputWork() const override { return inputWork_; }

  void diagnostics(std::vector<double>& row) const override {
    const auto& s = state_;
    // Energy: the reduced Lagrangian l(u_{k-1}, xi_{k-1}) of the last segment (the continuous start in row 0),
    // the energy the scheme's momentum balance and inputWork() are consistent with.
    row = {time(), s.g.x, s.g.y, s.g.theta, snakeboard::energy(board_, s.uPsi, s.uPhi, s.xi), s.psi, s.phi, s.p,
           -s.xi[1], s.xi[0], s.uPsi, s.uPhi, gen_.envelope, constraintResidual(),
           obstacles_.empty() ? 0.0 : clearance(footprint_, s.g, obstacles_), double(impact_.count)};
  }

  std::vector<double> saveState() const override {
    const auto& s = state_;
    std::vector<double> v = {double(k_),        s.g.theta,        s.g.x,           s.g.y,         s.psi,          s.phi,
            s.p,               s.uPsi,           s.uPhi,          s.zeta,        s.xi[0],        s.xi[1],
            s.xi[2],           gPrev_.theta,     gPrev_.x,        gPrev_.y,      gen_.envelope,  gen_.amplitudePsi,
            gen_.amplitudePhi, gen_.delta,       gen_.phase0,     gen_.tAnchor,  gen_.stick[0],  gen_.stick[1],
            gen_.target[0],    gen_.target[1],   wheelRoll_[0],   wheelRoll_[1],  inputWork_,     gen_.steer};
    impact_.save(v);
    return v;
  }

  void loadState(const std::vector<double>& v) override {
    if (v.size() != 37) throw BadInput("snakeboard: state vector has " + std::to_string(v.size()) + " entries, expected 37");
    k_ = long(v[0]);
    state_.g = {v[1], v[2], v[3]};
    state_.psi = v[4];
    state_.phi = v[5];
    state_.p = v[6];
    state_.uPsi = v[7];
    state_.uPhi = v[8];
    state_.zeta = v[9];
    state_.xi = Vector3d(v[10], v[11], v[12]);
    gPrev_ = {v[13], v[14], v[15]};
    gen_.envelope = v[16];
    gen_.amplitudePsi = v[17];
    gen_.amplitudePhi = v[18];
    gen_.delta = v[19];
    gen_.phase0 = v[20];
    gen_.tAnchor = v[21];
    gen_.stick = Eigen::Vector2d(v[22], v[23]);
    gen_.target = Eigen::Vector2d(v[24], v[25]);
    wheelRoll_[0] = v[26];
    wheelRoll_[1] = v[27];
    inputWork_ = v[28];
    gen_.steer = v[29];
    impact_.load(v, 30);
    trail_.truncateAfter(time());
  }

  void applyLive(const ParamSet& p) override {
    // A frequency change keeps the gait phase continuous: re-anchor at the current time.
    const double t = time();
    gen_.phase0 = phase(t, gen_);
    gen_.tAnchor = t;
    params_ = p;
  }

  std::vector<PlotSpec> plots() const override {
    return {{"momentum mu (kg m^2/s)", {"mu"}},
            {"speed (m/s)", {"speed"}},
            {"shape (rad)", {"psi", "phi"}},
            {"energy (J)", {"energy"}},
            {"wheel constraints from poses (m/s)", {"constraint_residual"}},
            {"clearance to walls and crates (m)", {"clearance"}}};
  }

  void draw(DrawList& out) const override;

 private:
  // The shape generator: gait (with lagged amplitudes/phase) blended with the stick-driven shape.
  struct Generator {
    double envelope = 1.0;  // 1: gait, 0: sticks
    double amplitudePsi = 0.0, amplitudePhi = 0.0, delta = 0.0;
    double phase0 = 0.0, tAnchor = 0.0;  // gait phase = phase0 + w (t - tAnchor)
    double steer = 0.0;                   // rad, trim added by the look-ahead steering (gait_steer)
    Eigen::Vector2d stick = Eigen::Vector2d::Zero(), target = Eigen::Vector2d::Zero();
  };

  double omega() const { return 2.0 * kPi * params_.real("gait_frequency"); }
  double phase(double t, const Generator& g) const { return g.phase0 + omega() * (t - g.tAnchor); }
  SnakeboardGait gaitOf(const Generator& g) const {
    return {g.amplitudePsi, g.amplitudePhi, omega(), g.delta, params_.real("phi") + g.steer};
  }
  // The continuous board at node s moving with shape velocity u: its velocity xi (the wheels' constraint at phi_k,
  // the node momentum p_k), its energy and its shape momentum dl/du = (I (u^psi + omega), 2 J u^phi).
  Vector3d nodeVelocity(const SnakeboardState& s, const Eigen::Vector2d& u) const {
    return snakeboard::velocityOfMomentum(board_, s.phi, u[0], s.p);
  }
  double nodeEnergy(const SnakeboardState& s, const Eigen::Vector2d& u) const {
    return snakeboard::energy(board_, u[0], u[1], nodeVelocity(s, u));
  }
  Eigen::Vector2d nodeShapeMomentum(const SnakeboardState& s, const Eigen::Vector2d& u) const {
    return SnakeboardModel(board_).dLdu(Eigen::Vector2d(s.psi, s.phi), u, nodeVelocity(s, u));
  }
  // Work of the shape forces (the gait or the sticks) over the step a -> b, booked against the `energy` column.
  // The step moves the shape linearly (velocity u1), after the segment before it at u0: a kink at node a whenever
  // the shape velocity jumps (a stick moved, a plan's next command). Along that path the continuous board takes
  // the shape work u1 . (dl/du(b) - dl/du(a+)) over the segment (u1 constant) and the impulse's work
  // mean(u0, u1) . (dl/du(a+) - dl/du(a-)) at the kink (exact: the wheels' constraint at phi_a holds on both sides,
  // so the jump of mu does no work on the mean velocity). Each dl/du is the node's (phi_k, p_k), not the segment's
  // xi_k = zeta_k e1(phi_{k+alpha}): with a kink the two segments' xi leave e1(phi_k) by O(h |Delta u|), and the
  // segment form <Delta mu, xi_mean> booked O(h |Delta u^psi| |Delta u^phi|) per kink as energy gained without
  // input. Last term: the `energy` column is the segment's l(u_{k-1}, xi_{k-1}), the node's l(u_{k-1}, xi_k^-) differs
  // by O(h) at the current step only (it telescopes, never accumulates).
  double shapeWork(const SnakeboardState& a, const SnakeboardState& b) const {
    const Eigen::Vector2d u0(a.uPsi, a.uPhi), u1(b.uPsi, b.uPhi);
    const Eigen::Vector2d piA = nodeShapeMomentum(a, u1);
    const double work = u1.dot(nodeShapeMomentum(b, u1) - piA) + 0.5 * (u0 + u1).dot(piA - nodeShapeMomentum(a, u0));
    const auto segmentOverNode = [&](const SnakeboardState& s) {
      const Eigen::Vector2d u(s.uPsi, s.uPhi);
      return snakeboard::energy(board_, u[0], u[1], s.xi) - nodeEnergy(s, u);
    };
    return work + segmentOverNode(b) - segmentOverNode(a);
  }
  Eigen::Vector2d shapeAt(double t, const Generator& g) const {
    return g.envelope * gaitOf(g).shape(phase(t, g)) + (1.0 - g.envelope) * g.stick;
  }
  // Continuous rate of the generator (ramps of the envelope/amplitudes left out): the node shape rate.
  Eigen::Vector2d shapeRateAt(double t, const Generator& g) const {
    return g.envelope * gaitOf(g).shapeRate(phase(t, g)) +
           (1.0 - g.envelope) * (g.target - g.stick) / params_.real("shape_response");
  }
  // Both wheel constraints for the last segment's twist recovered from poses, at phi_{k-1+alpha}.
  double constraintResidual() const {
    if (k_ == 0) return 0.0;
    const Vector3d xi = se2::log(gPrev_.inverse() * state_.g) / dt();
    const double phiA = state_.phi - (1.0 - alpha_) * dt() * state_.uPhi, c = std::cos(phiA), s = std::sin(phiA);
    const double l = board_.l;
    return std::max(std::abs(-l * c * xi[0] - s * xi[1] + c * xi[2]), std::abs(l * c * xi[0] + s * xi[1] + c * xi[2]));
  }

  SnakeboardParams board_;
  double alpha_;
  VehicleIntegrator method_;  // the variational update (default) or an RK baseline
  Footprint footprint_;  // solid outline in the board frame
  SnakeboardState state_;
  se2::Pose2 gPrev_;
  Generator gen_;
  long k_ = 0;
  double wheelRoll_[2] = {0.0, 0.0};  // m rolled by the wheels at x = -l and x = +l (drawing only)
  GroundTrail trail_;
  Scenery arena_;
  std::vector<PlanarBox> obstacles_;  // the arena's, or none in the open world
  double inputWork_ = 0.0;            // J, work of the shape forces since reset
  ImpactRecord impact_;               // the last impact (HUD, flash), and the count
};

// A capsule between two world points.
void drawLimb(DrawList& out, const Eigen::Vector3d& a, const Eigen::Vector3d& b, double radius, Rgba color) {
  const Eigen::Vector3d d = b - a;
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.translate(0.5 * (a + b));
  T.rotate(Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), d.normalized()));
  ShapeItem c;
  c.kind = ShapeKind::Capsule;
  c.transform = toMat4(T);
  c.size = {float(radius), float(radius), float(d.norm())};
  c.color = color;
  out.shapes.push_back(c);
}

void SnakeboardScene::draw(DrawList& out) const {
  const auto& s = state_;
  const double l = board_.l, wheelR = 0.09 * l, deckZ = 2.3 * wheelR, gauge = 0.32 * l;
  const Eigen::Isometry3d board = planarFrame(s.g.theta, s.g.x, s.g.y);
  const Rgba deck{0.15f, 0.5f, 0.3f, 1}, skin{0.95f, 0.75f, 0.6f, 1}, shirt{0.9f, 0.55f, 0.1f, 1}, pants{0.2f, 0.25f, 0.45f, 1};
  // Bar between the axles and a foot plate + wheel set at each axle: x = -l steered by +phi, x = +l by -phi
  // (the printed constraints, ERRATA note). The wheels roll with the board's speed at the axle.
  drawBox(out, board, {0.0, 0.0, deckZ}, {2.0 * l, 0.12 * l, 0.06 * l}, {0.3f, 0.3f, 0.32f, 1});
  for (int side : {-1, 1}) {
    const double steer = -side * s.phi;
    Eigen::Isometry3d plate = board;
    plate.translate(Eigen::Vector3d(side * l, 0.0, 0.0));
    plate.rotate(Eigen::AngleAxisd(steer, Eigen::Vector3d::UnitZ()));
    drawBox(out, plate, {0.0, 0.0, deckZ + 0.04 * l}, {0.55 * l, 0.7 * l, 0.05 * l}, deck);
    const double wheelRoll = wheelRoll_[side > 0 ? 1 : 0] / wheelR;
    drawWheel(out, plate, {0.0, 0.5 * gauge, wheelR}, 0.0, wheelRoll, wheelR, 0.6 * wheelR);
    drawWheel(out, plate, {0.0, -0.5 * gauge, wheelR}, 0.0, wheelRoll, wheelR, 0.6 * wheelR);
  }
  // Rider: feet on the plates, hips over the centre, torso and arms turned by the rotor angle psi.
  const double legLen = 2.2 * l, hipZ = deckZ + legLen, torsoLen = 1.5 * l;
  const Eigen::Vector3d hip = board * Eigen::Vector3d(0.0, 0.0, hipZ);
  for (int side : {-1, 1}) {
    const Eigen::Vector3d foot = board * Eigen::Vector3d(side * 0.85 * l, 0.0, deckZ + 0.1 * l);
    const Eigen::Vector3d knee = board * Eigen::Vector3d(side * 0.55 * l, 0.08 * l, deckZ + 0.55 * legLen);
    drawLimb(out, foot, knee, 0.1 * l, pants);
    drawLimb(out, knee, hip + board.linear() * Eigen::Vector3d(side * 0.2 * l, 0, 0), 0.11 * l, pants);
  }
  const Eigen::Isometry3d torso = planarFrame(s.g.theta + s.psi, hip.x(), hip.y(), hipZ);
  drawBox(out, torso, {0.0, 0.0, 0.5 * torsoLen}, {0.55 * l, 0.3 * l, torsoLen}, shirt);
  const Eigen::Vector3d shoulderL = torso * Eigen::Vector3d(0.35 * l, 0, 0.92 * torsoLen);
  const Eigen::Vector3d shoulderR = torso * Eigen::Vector3d(-0.35 * l, 0, 0.92 * torsoLen);
  drawLimb(out, shoulderL, torso * Eigen::Vector3d(0.9 * l, 0.15 * l, 0.45 * torsoLen), 0.07 * l, skin);
  drawLimb(out, shoulderR, torso * Eigen::Vector3d(-0.9 * l, 0.15 * l, 0.45 * torsoLen), 0.07 * l, skin);
  ShapeItem head;
  head.kind = ShapeKind::Sphere;
  Eigen::Isometry3d headT = torso;
  headT.translate(Eigen::Vector3d(0.0, 0.0, torsoLen + 0.3 * l));
  head.transform = toMat4(headT);
  head.size = {float(0.22 * l), 0, 0};
  head.color = skin;
  out.shapes.push_back(head);
  // Nose marker on the torso front (+y of the torso frame) so the twist is easy to read.
  drawBox(out, torso, {0.0, 0.17 * l, 0.8 * torsoLen}, {0.12 * l, 0.06 * l, 0.12 * l}, {0.1f, 0.1f, 0.1f, 1});

  out.lines.push_back(trail_.strip({1.0f, 0.6f, 0.2f, 1.0f}));
  if (params_.choice("world") == "arena") drawScenery(out, arena_, impact_, time(), 0.5 * l);
  out.camera.follow = true;
  out.camera.target = {float(s.g.x), float(s.g.y), float(hipZ)};  // mid-rider: head and board both in view
  out.camera.heading = float(s.g.theta + kPi);  // forward is body -x
  out.camera.distance = float(9.0 * l);
  char line[160];
  std::snprintf(line, sizeof line, "speed %.2f m/s, momentum mu %.4f kg m^2/s", -s.xi[1], s.p);
  out.hud.push_back(line);
  std::snprintf(line, sizeof line, "torso psi %.1f deg, steering phi %.1f deg", s.psi * kRadToDeg, s.phi * kRadToDeg);
  out.hud.push_back(line);
  if (params_.flag("gait"))
    std::snprintf(line, sizeof line, "gait %.2f Hz: torso +-%.2f, steer %.2f +- %.2f rad%s", params_.real("gait_frequency"),
                  gen_.amplitudePsi, params_.real("phi") + gen_.steer, gen_.amplitudePhi,
                  std::abs(gen_.steer) > 0.01                                        ? ", veering off"
                  : gen_.amplitudePsi < 0.5 * params_.real("gait_psi_amplitude") ? ", gliding"
                                                                                    : "");
  else
    std::snprintf(line, sizeof line, "gait off: to ride, twist the torso to and fro, steer in rhythm");
  out.hud.push_back(line);
  if (const std::string hit = impactHudLine(arena_, impact_, time(), params_.real("restitution")); !hit.empty())
    out.hud.push_back(hit);
}

}  // namespace

VARSIM_REGISTER_SCENE(SceneInfo{
    "snakeboard", "Snakeboard (nonholonomic)",
    "Snakeboard (seed 000 Sec. 5.2.2, ERRATA connection and momentum) on the explicit nonholonomic update. The "
    "rider's torso (rotor psi) and the wheel steering phi are prescribed: by the auto-gait psi = A_psi sin(w t), "
    "phi = phi_0 + A_phi sin(w t + delta) (phi_0 = the `phi` trim: a curved path), which builds speed without pushing "
    "off (forward is body -x for cos delta > 0), or, with the gait off, by the rotor/steer sticks as angle targets. "
    "Walls and crates of the arena are solid (impact with restitution along the wheels' rolling direction). `energy` "
    "is the reduced Lagrangian of the last segment; inputWork() is the work of the shape forces. `mu` is the momentum p = <dl/dxi, e1(phi)> at "
    "the node; it stays constant while phi is held (circular arc).",
    snakeboardParams, validateSnakeboard, [](const ParamSet& p) { return std::make_unique<SnakeboardScene>(p); }});

}  // namespace varsim
