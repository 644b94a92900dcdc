// plan/boat_plan.cpp — the boat's plan problem (seed 000 Sec. 6, Fig. 10 left): from the scene's start to rest at a dock
// pose (x, y, heading) with the least thrust, under the scene's wind and current (waves: rows exact, no wave docking
// solved yet). Model, sea, step and start come from the boat scene's own parameters; the transcription is
// engine/control/boat_dmoc.h, the cost variants DmocCosts; the replay sets the scene's live held thrusts
// thrust_left/thrust_right before every step (neutral triggers hold them exactly).
#include <algorithm>

#include "engine/control/boat_dmoc.h"
#include "engine/control/boat_path_tracker.h"
#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "plan/baseline_flight.h"
#include "plan/plan_endpoints.h"
#include "plan/plan_output.h"
#include "plan/plan_problem.h"
#include "scenes/rigid_body/free_body_sim.h"
#include "scenes/scene.h"

namespace varsim {
namespace {

constexpr int kMaxSegmentHessianSegments = 1000;

std::vector<ParamSpec> boatPlanSpecs() {
  std::vector<ParamSpec> specs = {
      // At most 2000 (L-BFGS: setup and one iteration take 0.8 s of CPU there), 1000 with the segment Hessian (below).
      ParamSpec::integer("N", 150, 2, 2000, "segments of the plan (horizon T = N dt)"),
      ParamSpec::real("dock_x", 5.0, -1e5, 1e5, "m", "dock position x of the centre of mass"),
      ParamSpec::real("dock_y", 0.0, -1e5, 1e5, "m", "dock position y of the centre of mass"),
      ParamSpec::real("dock_heading", 0.0, -12.566370614359172, 12.566370614359172, "rad", "heading at the dock"),
      ParamSpec::real("weight_thrust", 1.0, 1e-9, 1e6, "", "w in h w sum |u / thrust_max|^2"),
      ParamSpec::integer("max_iter", 500, 1, 100000, "Ipopt max_iter"),
      // boat_dock (N = 150): the segment Hessian (boat_dmoc_hessian.cpp) solves in 14 iterations, 0.93 s CPU (the
      // banded differences of the whole Jacobian took 12 s with differenced node data, 2.8 s with the exact one); L-BFGS
      // is fragile near the end (N = 150: Restoration_Failed at inf_du 3.5e-5).
      ParamSpec::choice("hessian", "segment", {"segment", "lbfgs"},
                        "the segment Hessian (exact, in still water and under waves) or Ipopt's L-BFGS"),
  };
  for (ParamSpec& c : dmocCostSpecs()) specs.push_back(std::move(c));  // weight_smooth, terminal_weight, free time
  return specs;
}

BoatDmocSpec boatSpec(const PlanSetup& o) {
  const ParamSet &p = o.scene.params, &q = o.plan;
  requireSceneValue(o, "integrator", "lgvi", "the plan's constraints are the LGVI step");
  requireSceneValue(o, "group", "so3xr3", "the transcription's eq. (9) rows are on SO(3)xR^3");
  requireSceneValue(o, "hull_forces", "implicit", "the end-of-step hull wrench is the transcription's f^+");
  if (p.real("pressure") != 0.0)
    throw BadInput(o.source + ": key 'pressure' = " + formatNumber(p.real("pressure")) + ": allowed 0 (plan)");
  BoatDmocSpec s;
  s.boat.mass = p.real("mass");  // as the scene's boatSettings/waveSettings
  s.boat.hullSize = p.vec3("hull");
  s.boat.comHeight = p.real("com_height");
  s.boat.waterDensity = p.real("water_density");
  s.boat.damping = p.vec3("damping");
  s.boat.pressure = 0.0;
  s.boat.wind = p.vec3("wind");
  s.boat.thrustMax = p.real("thrust_max");
  s.boat.patchSize = p.real("patch_size");
  s.water.amplitude = p.real("wave_amplitude");
  s.water.wavelength = p.real("wave_length");
  s.water.direction = p.real("wave_direction");
  s.water.current = p.vec3("current");
  s.water.gridSpacing = p.real("water_grid");
  s.lgvi = lgviOptionsFrom(p);
  s.h = p.real("dt");
  s.N = int(q.integer("N"));
  // The start as the scene builds it (floating on the local surface), read from its standard columns.
  const auto scene = SceneRegistry::create(o.scene.scene, p);
  const Eigen::Quaterniond qs(sceneColumn(*scene, "qw"), sceneColumn(*scene, "qx"), sceneColumn(*scene, "qy"),
                              sceneColumn(*scene, "qz"));
  s.start.R = qs.toRotationMatrix();
  s.start.x = Vector3d(sceneColumn(*scene, "x"), sceneColumn(*scene, "y"), sceneColumn(*scene, "z"));
  s.xi0.tail<3>() = s.start.R.transpose() * p.vec3("start_velocity");
  s.u0 = {p.real("thrust_left"), p.real("thrust_right")};
  s.dock = {q.real("dock_x"), q.real("dock_y")};
  s.dockHeading = q.real("dock_heading");
  s.weightThrust = q.real("weight_thrust");
  s.segmentHessian = q.choice("hessian") == "segment";
  // A measured cost bound, as varsim plan's CPU budget is checked once per iteration: setup and one iteration with
  // the segment Hessian take 1.1 s of CPU at N = 1000 (load ~9).
  if (s.segmentHessian && s.N > kMaxSegmentHessianSegments)
    throw BadInput(o.source + ": key 'N' = " + std::to_string(s.N) + ": allowed at most " +
                   std::to_string(kMaxSegmentHessianSegments) + " with hessian = segment (hessian = lbfgs: at most 2000)");
  if (dmocFreeTime(o))  // h enters every LGVI row (and the frozen node data) of the transcription
    throw BadInput(o.source + ": key 'free_time' = 1: allowed 0 for the boat (fixed step h = dt)");
  return s;
}

class BoatPlan : public DmocPlanInstance<BoatDmoc> {
 public:
  explicit BoatPlan(const PlanSetup& setup)
      : DmocPlanInstance(setup, boatSpec(setup)), costs_(dmoc_, dmoc_.layout(), dmocCostOptions(setup)) {}
  const Nlp& nlp() const override { return costs_; }
  void writeCsv(const std::string& path, const Eigen::VectorXd& x) const override;
  // Before step k (k >= 1) the held thrusts of node k: the scene's applyLive sets them at once (node k's thrust).
  InputTrack inputTrack(const Eigen::VectorXd& x) const override {
    const auto scene = SceneRegistry::create(setup().scene.scene, setup().scene.params);
    InputTrack track;
    track.neutral = neutralInputs(scene->controls());
    for (int k = 1; k < segments(); ++k) {
      const Eigen::Vector2d u = dmoc_.thrust(x, k);
      track.addEvent({k, InputEvent::Kind::Param, "thrust_left", formatNumber(u.x()), ""});
      track.addEvent({k, InputEvent::Kind::Param, "thrust_right", formatNumber(u.y()), ""});
    }
    return track;
  }
  bool baseline(const Eigen::VectorXd& x, PlanBaseline& out) const override;
  std::vector<Eigen::Vector3d> ghostPath(const Eigen::VectorXd& x) const override {
    return nodePath(segments(), [&](int k) { return dmoc_.pose(x, k).x; });
  }

 private:
  DmocCosts costs_;  // effort (dmoc_) + smoothness, terminal penalty
};

void BoatPlan::writeCsv(const std::string& path, const Eigen::VectorXd& x) const {
  const BoatDmocSpec& s = dmoc_.spec();
  writePlanCsv(path, "t,x,y,z,qw,qx,qy,qz,omega_x,omega_y,omega_z,v_x,v_y,v_z,u_left,u_right,dyn_residual", s.N,
               [&](int k) {
                 const se3::Pose g = dmoc_.pose(x, k);
                 const Vector4d q = g.quaternion();
                 const Vector6d xi = k < s.N ? dmoc_.twist(x, k) : Vector6d::Zero();  // segment k's twist (body)
                 const Eigen::Vector2d u = dmoc_.thrust(x, std::min(k, s.N - 1));     // held after the last segment
                 const double res = k > 0 ? dmoc_.dynResidual(x, k - 1) : 0.0;
                 return std::vector<double>{k * s.h, g.x.x(), g.x.y(), g.x.z(), q[0],  q[1],  q[2],  q[3], xi[0],
                                            xi[1],   xi[2],   xi[3],   xi[4],   xi[5], u.x(), u.y(), res};
               });
}

double headingOf(const Matrix3d& R) { return std::atan2(R(1, 0), R(0, 0)); }

// The PD path tracker (engine/control/boat_path_tracker.h) on the plan's nodes, flown through the boat scene's own step
// with the held thrusts set live before every step (as the replay does); its thrust priced like the plan's.
bool BoatPlan::baseline(const Eigen::VectorXd& x, PlanBaseline& out) const {
  const BoatDmocSpec& s = dmoc_.spec();
  const int N = s.N;
  std::vector<BoatPathReference> ref(size_t(N + 1));
  for (int k = 0; k <= N; ++k) {
    const int a = std::max(k - 1, 0), b = std::min(k + 1, N);
    const se3::Pose ga = dmoc_.pose(x, a), gb = dmoc_.pose(x, b);
    BoatPathReference& r = ref[size_t(k)];
    r.x = dmoc_.pose(x, k).x;
    r.v = (gb.x - ga.x) / ((b - a) * s.h);
    r.heading = headingOf(dmoc_.pose(x, k).R);
    r.headingRate = std::remainder(headingOf(gb.R) - headingOf(ga.R), 2.0 * M_PI) / ((b - a) * s.h);
  }
  const Vector3d J = dmoc_.boat().principalInertia();
  const BoatTrackerModel model{s.boat.mass, J.z(), std::abs(dmoc_.boat().thrusterLeft().y()), s.boat.thrustMax};
  const auto scene = SceneRegistry::create(setup().scene.scene, setup().scene.params);
  ParamSet live = setup().scene.params;
  const InputVector neutral = neutralInputs(scene->controls());
  const auto position = [](const SceneRow& row) { return Vector3d(row("x"), row("y"), row("z")); };
  const auto velocity = [&](const SceneRow& row) -> Vector3d {
    return Vector3d(row("p_x"), row("p_y"), row("p_z")) / s.boat.mass;
  };
  const auto observe = [&](int k, const SceneRow& row) {
    return BaselineNode{(position(row) - ref[size_t(k)].x).head<2>().norm(), velocity(row).norm()};
  };
  const auto drive = [&](int k, const SceneRow& row) {
    const Vector3d pos = position(row), p(row("p_x"), row("p_y"), row("p_z"));
    const Matrix3d R = Eigen::Quaterniond(row("qw"), row("qx"), row("qy"), row("qz")).toRotationMatrix();
    const Vector3d spin = Vector3d(row("L_x"), row("L_y"), row("L_z")) - pos.cross(p);
    const double yawRate = (R * J.cwiseInverse().asDiagonal() * R.transpose() * spin).z();
    const Eigen::Vector2d u =
        boatTrackerThrust(model, BoatTrackerGains{}, ref[size_t(k)], pos, velocity(row), headingOf(R), yawRate);
    out.effort += s.weightThrust * s.h * (u / s.boat.thrustMax).squaredNorm();
    live.setReal("thrust_left", u.x());
    live.setReal("thrust_right", u.y());
    scene->applyLive(live);
    return neutral;
  };
  out = PlanBaseline{};
  out.name = "PD path tracker";
  out.planEffort = dmoc_.objective(x);
  return flyBaseline(*scene, N, s.h, out, observe, drive);
}

}  // namespace

VARSIM_REGISTER_PLAN_PROBLEM(planProblemOf<BoatPlan>("boat", "To rest at a dock (least thrust)",
                                                     "problems/boat_dock.json", boatPlanSpecs));

}  // namespace varsim
