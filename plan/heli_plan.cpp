// plan/heli_plan.cpp — the helicopter's plan problem (seed 000 Sec. 6, Figs. 9 and 12): from the start pad through the
// canyon to land at rest on a named pad with the least control effort. Model, limits, contact law, world and start come
// from the helicopter scene's own parameters (scenes/vehicles/helicopter_setup.h); the transcription is
// engine/control/heli_dmoc.h; the replay switches the flight assist off and drives the scene's live actuator keys
// (collective, yaw, pitch, roll), which the scene's rate limiter then passes through unchanged.
#include <algorithm>
#include <cmath>

#include "engine/control/dmoc_blocks.h"
#include "engine/control/heli_dmoc.h"
#include "engine/control/heli_path_pilot.h"
#include "engine/models/flight_assist.h"
#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "plan/baseline_flight.h"
#include "plan/plan_endpoints.h"
#include "plan/plan_output.h"
#include "plan/plan_problem.h"
#include "scenes/rigid_body/free_body_sim.h"
#include "scenes/vehicles/helicopter_setup.h"
#include "scenes/scene.h"
#include "scenes/state_block.h"

namespace varsim {
namespace {

// The landing pads, then "point": a hover at (target_x, target_y, target_z), the goal a receding-horizon controller
// moves (plan/mpc_controller.h).
constexpr const char* kPointGoal = "point";

std::vector<std::string> targetNames() {
  std::vector<std::string> names;
  const HelicopterWorld world = HelicopterWorld::standard();
  for (const LandingPad& p : world.pads()) names.push_back(p.name);
  names.push_back(kPointGoal);
  return names;
}

std::vector<ParamSpec> heliPlanSpecs() {
  std::vector<ParamSpec> specs = {
      // At most 2000: a measured cost bound (setup and one Ipopt iteration at N = 2000 take 1.6 s of CPU, at 5000 18 s).
      ParamSpec::integer("N", 300, 2, 2000, "segments of the plan (horizon T = N dt)"),
      ParamSpec::choice("target_pad", "canyon", targetNames(),
                        "landing pad: the plan ends resting on its centre; point: hovering at target_x/y/z"),
      ParamSpec::real("target_heading", 0.7, -12.566370614359172, 12.566370614359172, "rad",
                      "heading on the pad (about world z); at a point when face_goal = false"),
      ParamSpec::real("target_x", 0.0, -1e4, 1e4, "m", "goal point x (target_pad = point)"),
      ParamSpec::real("target_y", 0.0, -1e4, 1e4, "m", "goal point y (target_pad = point)"),
      ParamSpec::real("target_z", 8.0, 0.5, 1e4, "m", "goal point height of the centre of mass (target_pad = point)"),
      ParamSpec::real("target_vx", 0.0, -100.0, 100.0, "m/s",
                      "point goal moving at (target_vx, target_vy, target_vz) from target_x/y/z: the plan ends where "
                      "it is at N dt"),
      ParamSpec::real("target_vy", 0.0, -100.0, 100.0, "m/s", "see target_vx"),
      ParamSpec::real("target_vz", 0.0, -100.0, 100.0, "m/s", "see target_vx"),
      ParamSpec::real("weight_track", 0.0, 0.0, 1e6, "1/(m^2 s)",
                      "point goal: + weight h sum_k |x_k - goal(k dt)|^2 over nodes 1..N (following a moving goal)"),
      ParamSpec::boolean("face_goal", true,
                         "point: end facing along the goal's motion (faster than 0.5 m/s), else facing the goal from "
                         "the start when it is over 2 m away, else keeping the start's heading"),
      ParamSpec::boolean("end_at_rest", true,
                         "true: the plan ends at rest in hover trim; false: in motion (a receding horizon's end)"),
      ParamSpec::boolean("via_canyon", true, "initial guess along the canyon's centreline up to the target's leg"),
      ParamSpec::real("cruise_altitude", 12.0, 2.0, 1e4, "m", "height of the initial guess between climb and descent"),
      ParamSpec::real("ceiling", 30.0, 2.0, 1e4, "m", "highest allowed centre of mass (below the canyon rim: through)"),
      ParamSpec::real("weight_collective", 1.0, 0.0, 1e6, "", "W on ((u_c - m g)/(m g))^2 in h sum u^T W u"),
      ParamSpec::real("weight_yaw", 1.0, 0.0, 1e6, "", "W on (u_psi/yaw range)^2"),
      ParamSpec::real("weight_tilt", 1.0, 0.0, 1e6, "", "W on (gamma/tilt range)^2, both tilts"),
      ParamSpec::real("margin", 1.0, 0.0, 50.0, "m", "clearance of the bounding spheres from every rock"),
      ParamSpec::integer("max_iter", 1000, 1, 100000, "Ipopt max_iter"),
  };
  for (ParamSpec& c : dmocCostSpecs()) specs.push_back(std::move(c));  // weight_smooth, terminal_weight, free time
  return specs;
}

// The canyon's centreline vertices ahead of the start up to the leg nearest to the target (the guess enters, turns,
// then leaves the centreline towards the pad). "Ahead": after the start's nearest point on the centreline, so a
// re-plan from inside the canyon does not fly back to its entrance first.
std::vector<Vector3d> canyonVia(const HelicopterWorld& w, const Vector3d& start, const Vector3d& target, double z) {
  const auto& c = w.corridor();
  const auto nearestLeg = [&](const Vector3d& p, double* along) {
    size_t best = 0;
    double bestD = 1e300;
    for (size_t i = 0; i + 1 < c.size(); ++i) {
      const Eigen::Vector2d d = c[i + 1] - c[i], q = p.head<2>() - c[i];
      const double t = std::clamp(q.dot(d) / d.squaredNorm(), 0.0, 1.0);
      const double dist = (q - t * d).norm();
      if (dist < bestD) bestD = dist, best = i, *along = t;
    }
    return best;
  };
  double tStart = 0.0, tTarget = 0.0;
  const size_t first = nearestLeg(start, &tStart), last = nearestLeg(target, &tTarget);
  std::vector<Vector3d> via;
  for (size_t i = tStart > 0.0 ? first + 1 : first; i <= last && i < c.size(); ++i)
    via.emplace_back(c[i].x(), c[i].y(), z);
  return via;
}

// The point goal `t` seconds on: target_x/y/z moving at target_vx/vy/vz.
Vector3d pointGoal(const ParamSet& q, double t) {
  return Vector3d(q.real("target_x"), q.real("target_y"), q.real("target_z")) +
         t * Vector3d(q.real("target_vx"), q.real("target_vy"), q.real("target_vz"));
}

// Within this horizontal distance the point goal keeps the start's heading: facing a goal the helicopter is already
// at would turn it round whenever the goal passes over it.
constexpr double kFaceGoalDistance = 2.0;
constexpr double kFaceGoalSpeed = 0.5;  // m/s: above it the goal is faced along its motion

// A pad: resting on its centre at target_heading. A point: hovering level there, facing the goal from the start (the
// measured pose when a controller re-plans) or at target_heading (face_goal = false).
se3::Pose heliTarget(const ParamSet& q, const HelicopterWorld& world, const Helicopter& heli, const se3::Pose& start,
                     double horizon) {
  const std::string& name = q.choice("target_pad");
  if (name != kPointGoal) {
    const auto& pads = world.pads();
    const LandingPad& pad = *std::find_if(pads.begin(), pads.end(), [&](const LandingPad& l) { return l.name == name; });
    return restingPose(heli, pad.center, q.real("target_heading"));
  }
  const Vector3d goal = pointGoal(q, horizon);
  const Eigen::Vector2d ahead = (goal - start.x).head<2>();
  double heading = q.real("target_heading");
  // A moving goal is faced along its motion (where the helicopter flies with it), not from wherever it is now: a
  // helicopter that overshoots a goal about to move off would otherwise be asked to turn round.
  const Eigen::Vector2d motion(q.real("target_vx"), q.real("target_vy"));
  if (q.flag("face_goal") && motion.norm() > kFaceGoalSpeed)
    heading = std::atan2(motion.y(), motion.x());
  else if (q.flag("face_goal"))
    heading = ahead.norm() > kFaceGoalDistance ? std::atan2(ahead.y(), ahead.x()) : FlightAssist::heading(start.R);
  return {dmoc::yawMatrix(heading), goal};
}

HeliDmocSpec heliSpec(const PlanSetup& o) {
  const ParamSet &p = o.scene.params, &q = o.plan;
  requireSceneValue(o, "integrator", "lgvi", "the plan's constraints are the LGVI step");
  requireSceneValue(o, "group", "so3xr3", "the transcription's eq. (9) rows are on SO(3)xR^3");
  requireSceneValue(o, "contact", "implicit",
                    "drag and contact in the end-of-step wrench, as the transcription has them");
  requireSceneValue(o, "world", "canyon", "the target is a pad of the canyon world");
  for (const char* key : {"wind", "push"})
    if (p.vec3(key) != Vector3d::Zero())
      throw BadInput(o.source + ": key '" + key + "' = " + p.valueText(key) +
                     ": allowed 0,0,0 (the plan has no wind or pushes; varsim mpc --disturb gives them to the real "
                     "vehicle only)");
  if (p.real("gust_strength") != 0.0)
    throw BadInput(o.source + ": key 'gust_strength' = " + p.valueText("gust_strength") +
                   ": allowed 0 (the plan has no gusts; varsim mpc --disturb gives them to the real vehicle only)");
  HeliDmocSpec s;
  s.heli = helicopterSettingsFrom(p);
  s.lgvi = lgviOptionsFrom(p);
  s.h = p.real("dt");
  s.N = int(q.integer("N"));
  helicopterStartFrom(p, s.start, s.xi0);
  // u_0: the actuator state the scene starts with (the assist's or the held parameters), read from its columns.
  const auto scene = SceneRegistry::create(o.scene.scene, p);
  s.u0 = {sceneColumn(*scene, "u_c"), sceneColumn(*scene, "u_psi"), sceneColumn(*scene, "gamma_p"),
          sceneColumn(*scene, "gamma_r")};
  s.world = HelicopterWorld::standard();
  s.contact = helicopterContactFrom(p);
  const Helicopter heli(s.heli);
  s.spheres = defaultSpheres(heli);
  s.target = heliTarget(q, s.world, heli, s.start, s.N * s.h);
  const bool point = q.choice("target_pad") == kPointGoal;
  const bool moving = q.real("target_vx") != 0.0 || q.real("target_vy") != 0.0 || q.real("target_vz") != 0.0;
  if (!point && (moving || q.real("weight_track") > 0.0))
    for (const char* key : {"target_vx", "target_vy", "target_vz", "weight_track"})
      if (q.real(key) != 0.0)
        throw BadInput(o.source + ": key '" + key + "' = " + formatNumber(q.real(key)) + " with target_pad = " +
                       q.choice("target_pad") + ": allowed 0 unless target_pad = point (a pad does not move)");
  if (point && q.real("weight_track") > 0.0)
    for (int k = 0; k <= s.N; ++k) s.trackTargets.push_back(pointGoal(q, k * s.h));
  s.margin = q.real("margin");
  s.ceiling = q.real("ceiling");
  const double cruise = q.real("cruise_altitude");
  if (cruise > s.ceiling)
    throw BadInput(o.source + ": key 'cruise_altitude' = " + formatNumber(cruise) + ": allowed <= ceiling (" +
                   formatNumber(s.ceiling) + " m)");
  s.via = q.flag("via_canyon") ? canyonVia(s.world, s.start.x, s.target.x, cruise) : std::vector<Vector3d>{};
  if (s.via.empty()) s.via.emplace_back(0.5 * (s.start.x + s.target.x) + Vector3d(0.0, 0.0, cruise));
  s.weightCollective = q.real("weight_collective");
  s.weightYaw = q.real("weight_yaw");
  s.weightTilt = q.real("weight_tilt");
  s.freeEnd = q.real("terminal_weight") > 0.0;
  s.endAtRest = q.flag("end_at_rest");
  if (dmocFreeTime(o))  // h enters every LGVI row and the scene's dt range ends at the preset's 0.1 s
    throw BadInput(o.source + ": key 'free_time' = 1: allowed 0 for the helicopter (fixed step h = dt)");
  return s;
}

DmocCostOptions heliCostOptions(const PlanSetup& setup) {
  DmocCostOptions c = dmocCostOptions(setup);
  c.track = setup.plan.real("weight_track");
  return c;
}

class HeliPlan : public DmocPlanInstance<HeliDmoc> {
 public:
  explicit HeliPlan(const PlanSetup& setup)
      : DmocPlanInstance(setup, heliSpec(setup)), costs_(dmoc_, dmoc_.layout(), heliCostOptions(setup)) {}
  const Nlp& nlp() const override { return costs_; }
  void writeCsv(const std::string& path, const Eigen::VectorXd& x) const override;
  InputTrack inputTrack(const Eigen::VectorXd& x) const override;
  bool baseline(const Eigen::VectorXd& x, PlanBaseline& out) const override;
  std::vector<RowBlock> rowBlocks() const override {
    const int N = segments();
    return {{dmoc_.rateRow0(), 4, N - 1, false}, {dmoc_.clearanceRow0(), dmoc_.rowsPerNode(), dmoc_.clearanceNodes(), false}};
  }
  std::vector<Eigen::Vector3d> ghostPath(const Eigen::VectorXd& x) const override {
    return nodePath(segments(), [&](int k) { return dmoc_.pose(x, k).x; });
  }
  bool hasRollOut() const override { return true; }
  // Node N's pose is fixed on the target without a terminal penalty; xi_{N-1} = 0 and u_{N-1} = trim at rest.
  FixedEnd fixedEnd() const override {
    const HeliDmocSpec& s = dmoc_.spec();
    if (s.freeEnd && !s.endAtRest) return {};
    const std::string pose = "on the target pose exactly (terminal_weight = 0)", rest = "at rest (end_at_rest = true)";
    return {"its horizons end " + (s.freeEnd ? rest : s.endAtRest ? rest + " " + pose : pose), !s.freeEnd};
  }

 protected:
  void storeNode(const Scene& scene, int k, Eigen::VectorXd& x) const override;

 private:
  DmocCosts costs_;  // effort (dmoc_) + smoothness, terminal penalty
};

void HeliPlan::writeCsv(const std::string& path, const Eigen::VectorXd& x) const {
  const HeliDmocSpec& s = dmoc_.spec();
  const char* header =
      "t,x,y,z,qw,qx,qy,qz,omega_x,omega_y,omega_z,v_x,v_y,v_z,u_c,u_psi,gamma_p,gamma_r,dyn_residual,clearance,"
      "sphere_clearance";
  writePlanCsv(path, header, s.N, [&](int k) {
    const se3::Pose g = dmoc_.pose(x, k);
    const Vector4d q = g.quaternion();
    const Vector6d xi = k < s.N ? dmoc_.twist(x, k) : Vector6d::Zero();  // segment k's twist (body)
    const RotorState u = dmoc_.control(x, std::min(k, s.N - 1));         // held after the last segment
    const double res = k > 0 ? dmoc_.dynResidual(x, k - 1) : 0.0;
    const double ground = dmoc_.groundClearance(x, k), sphere = dmoc_.sphereClearance(x, k);
    return std::vector<double>{k * s.h,      g.x.x(), g.x.y(), g.x.z(), q[0],  q[1],   q[2],
                               q[3],         xi[0],   xi[1],   xi[2],   xi[3], xi[4],  xi[5],
                               u.collective, u.yaw,   u.pitch, u.roll,  res,   ground, sphere};
  });
}

// The LGVI's own state (scenes/state_block.h: R, x and xi, the twist of the segment that reached the node) and the
// actuators the scene's rate limiter let through, which act from node k on (the scene's timing: rigid_vehicle_scene.h).
void HeliPlan::storeNode(const Scene& scene, int k, Eigen::VectorXd& x) const {
  se3::Pose g;
  Vector6d xi = Vector6d::Zero();
  for (const StateBlock& b : scene.stateBlocks()) {
    const auto at = [&](long i, long j) { return b.data[i * b.rowStride + j * b.colStride]; };
    for (long i = 0; i < b.rows; ++i)
      for (long j = 0; j < b.cols; ++j) {
        if (b.name == "R") g.R(i, j) = at(i, j);
        if (b.name == "x") g.x[i] = at(i, j);
        if (b.name == "xi") xi[i] = at(i, j);
      }
  }
  dmoc_.setPose(x, k, g);
  if (k > 0) dmoc_.setTwist(x, k - 1, xi);
  if (k < segments())
    dmoc_.setControl(x, k, {sceneColumn(scene, "u_c"), sceneColumn(scene, "u_psi"), sceneColumn(scene, "gamma_p"),
                            sceneColumn(scene, "gamma_r")});
}

// Assist off at step 0 (the scene then holds the live keys collective/yaw/pitch/roll with neutral sticks), and before
// step k the actuator state of node k+1: the scene's updateActuators moves to it within the rate limits, which the plan
// keeps strictly (rateMargin), so the replay's actuators are the plan's.
InputTrack HeliPlan::inputTrack(const Eigen::VectorXd& x) const {
  const auto scene = SceneRegistry::create(setup().scene.scene, setup().scene.params);
  InputTrack track;
  track.neutral = neutralInputs(scene->controls());
  track.addEvent({0, InputEvent::Kind::Param, "assist", "false", ""});
  for (int k = 0; k + 1 < segments(); ++k) {
    const RotorState u = dmoc_.control(x, k + 1);
    for (const auto& [key, v] : {std::pair<const char*, double>{"collective", u.collective},
                                 {"yaw", u.yaw},
                                 {"pitch", u.pitch},
                                 {"roll", u.roll}})
      track.addEvent({k, InputEvent::Kind::Param, key, formatNumber(v), ""});
  }
  return track;
}

// The flight assist with a pilot on the sticks following the plan's states (engine/control/heli_path_pilot.h), flown
// through the scene's own stepper (assist on, the plan's scene parameters); its actuators priced like the plan's.
bool HeliPlan::baseline(const Eigen::VectorXd& x, PlanBaseline& out) const {
  const HeliDmocSpec& s = dmoc_.spec();
  const int N = s.N;
  ParamSet p = setup().scene.params;
  p.setFromString("assist", "true", "baseline");
  const auto scene = SceneRegistry::create(setup().scene.scene, p);
  std::vector<PathReference> ref(size_t(N + 1));
  for (int k = 0; k <= N; ++k) {
    const int a = std::max(k - 1, 0), b = std::min(k + 1, N);
    const se3::Pose ga = dmoc_.pose(x, a), g = dmoc_.pose(x, k), gb = dmoc_.pose(x, b);
    PathReference& r = ref[size_t(k)];
    r.x = g.x;
    r.v = (gb.x - ga.x) / ((b - a) * s.h);
    if (b - a == 2) r.a = (gb.x - 2.0 * g.x + ga.x) / (s.h * s.h);
    r.heading = FlightAssist::heading(g.R);
    r.headingRate = std::remainder(FlightAssist::heading(gb.R) - FlightAssist::heading(ga.R), 2.0 * M_PI) /
                    ((b - a) * s.h);
  }
  out = PlanBaseline{};
  out.name = "flight assist + path pilot";
  out.planEffort = dmoc_.objective(x);
  out.minClearance = kNlpInfinity;
  const PathPilotGains gains;
  const int lead = int(std::lround(gains.lead / s.h));
  InputVector in(scene->controls().size(), 0.0);
  const auto controls = scene->controls();
  const double m = s.heli.mass;
  const auto position = [](const SceneRow& row) { return Vector3d(row("x"), row("y"), row("z")); };
  const auto velocity = [&](const SceneRow& row) -> Vector3d {
    return Vector3d(row("p_x"), row("p_y"), row("p_z")) / m;
  };
  const auto attitude = [](const SceneRow& row) {
    return Eigen::Quaterniond(row("qw"), row("qx"), row("qy"), row("qz"));
  };
  const auto observe = [&](int k, const SceneRow& row) {
    const Vector3d pos = position(row);
    out.minClearance =
        std::min(out.minClearance, dmoc_.sphereClearance(se3::Pose{attitude(row).toRotationMatrix(), pos}));
    return BaselineNode{(pos - ref[size_t(k)].x).norm(), velocity(row).norm()};
  };
  const auto drive = [&](int k, const SceneRow& row) {
    out.effort += dmoc_.nodeEffort({row("u_c"), row("u_psi"), row("gamma_p"), row("gamma_r")});
    const PathReference& ahead = ref[size_t(std::min(N, k + lead))];
    const StickCommand st = pathPilotSticks(FlightAssistSettings{}, s.heli.gravity, gains, ahead, position(row),
                                            velocity(row), FlightAssist::heading(attitude(row).toRotationMatrix()));
    for (size_t i = 0; i < controls.size(); ++i) {
      const std::string& c = controls[i].name;
      in[i] = c == "yaw" ? st.yaw : c == "throttle" ? st.throttle : c == "roll" ? st.roll : st.pitch;
    }
    return in;
  };
  return flyBaseline(*scene, N, s.h, out, observe, drive);
}

}  // namespace

VARSIM_REGISTER_PLAN_PROBLEM(planProblemOf<HeliPlan>("helicopter", "Through the canyon onto a pad (least effort)",
                                                     "problems/heli_canyon.json", heliPlanSpecs));

}  // namespace varsim
