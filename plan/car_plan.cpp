// plan/car_plan.cpp — the car's plan problem (seed 000 Sec. 6, Fig. 10 right): park from the lot entrance into
// a bay with the least steering effort. The world, limits and start come from the car scene's own parameters;
// the transcription is engine/control/car_dmoc.h; the replay drives the scene's live torque/steer_rate keys.
#include <algorithm>
#include <cmath>

#include "engine/control/car_dmoc.h"
#include "engine/control/car_path_tracker.h"
#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "plan/plan_output.h"
#include "plan/plan_problem.h"
#include "scenes/scene.h"
#include "scenes/vehicles/vehicle_scenery.h"

namespace varsim {
namespace {

std::vector<ParamSpec> carPlanSpecs() {
  std::vector<ParamSpec> specs = {
      // At most 5000: a measured cost bound (varsim plan's CPU budget is checked once per iteration; setup and one
      // iteration at N = 5000 take 2.6 s of CPU, at 20000 66 s).
      ParamSpec::integer("N", 200, 1, 5000, "segments of the plan (horizon T = N dt)"),
      ParamSpec::real("target_x", 0.0, -1e4, 1e4, "m", "final rear-axle position x"),
      ParamSpec::real("target_y", 0.0, -1e4, 1e4, "m", "final rear-axle position y"),
      ParamSpec::real("target_heading", 0.0, -12.566370614359172, 12.566370614359172, "rad", "final heading theta"),
      ParamSpec::real("weight_steer", 1.0, 0.0, 1e6, "", "W on (u^sigma)^2 in h sum u^T W u"),
      ParamSpec::real("weight_torque", 0.1, 0.0, 1e6, "", "W on (f^psi)^2 in h sum u^T W u"),
      ParamSpec::real("margin", 0.05, 0.0, 10.0, "m", "clearance every covering disc keeps from every obstacle"),
      ParamSpec::integer("discs", 4, 1, 64, "discs covering the car's footprint along its length"),
      ParamSpec::integer("max_iter", 500, 1, 100000, "Ipopt max_iter"),
  };
  for (ParamSpec& p : dmocCostSpecs()) specs.push_back(std::move(p));
  return specs;
}

CarDmocSpec carSpec(const PlanSetup& o) {
  const ParamSet &p = o.scene.params, &q = o.plan;
  CarDmocSpec s;
  s.car = {p.real("m"), p.real("I"), p.real("K"), p.real("l"), p.real("rho")};
  requireSceneValue(o, "integrator", "variational", "the plan's constraints are the variational update");
  s.alpha = p.real("alpha");
  s.h = p.real("dt");
  s.N = int(q.integer("N"));
  s.start = carStart(s.car, {p.real("start_heading"), p.real("start_x"), p.real("start_y")}, 0.0, p.real("steer"),
                     p.real("speed"));
  s.target = {q.real("target_heading"), q.real("target_x"), q.real("target_y")};
  // Slightly inside tan(steer_limit) so the replay's limit clip (carCommand) never acts on round-off.
  s.sigmaMax = std::max(std::tan(p.real("steer_limit")) - 1e-7, std::abs(p.real("steer")));
  s.maxSteerRate = p.real("max_steer_rate");
  s.maxTorque = p.real("max_torque");
  s.weightSteer = q.real("weight_steer");
  s.weightTorque = q.real("weight_torque");
  s.freeTime = dmocFreeTime(o);
  s.hMin = q.real("dt_min"), s.hMax = q.real("dt_max");
  s.margin = q.real("margin");
  s.discs = int(q.integer("discs"));
  s.footprint = carFootprint(s.car.l, s.car.rho);
  if (p.choice("world") != "parking_lot") return s;
  // Only boxes within kNear of the initial guess enter the NLP (fewer rows, faster iterations); the CSV's
  // `clearance` still checks the whole lot.
  const std::vector<PlanarBox> all = carParkingLot(s.car.l, s.car.rho).obstacles;
  const double kNear = 3.0 * bodyLength(s.car.l, s.car.rho);
  const Eigen::VectorXd guess = CarDmoc(s).initialGuess();
  for (const PlanarBox& b : all) {
    double d = kNlpInfinity;
    for (int k = 0; k <= s.N; ++k) d = std::min(d, pointBoxDistance(b, guess[7 * k + 1], guess[7 * k + 2], nullptr, nullptr));
    if (d < kNear) s.obstacles.push_back(b);
  }
  return s;
}

class CarPlan : public DmocPlanInstance<CarDmoc> {
 public:
  explicit CarPlan(const PlanSetup& setup)
      : DmocPlanInstance(setup, carSpec(setup)), costs_(dmoc_, dmoc_.layout(), dmocCostOptions(setup)) {
    if (setup.scene.params.choice("world") == "parking_lot")
      lot_ = carParkingLot(dmoc_.spec().car.l, dmoc_.spec().car.rho).obstacles;
  }
  const Nlp& nlp() const override { return costs_; }
  void writeCsv(const std::string& path, const Eigen::VectorXd& x) const override;
  bool baseline(const Eigen::VectorXd& x, PlanBaseline& out) const override;
  InputTrack inputTrack(const Eigen::VectorXd& x) const override;
  ParamSet replayParams(const Eigen::VectorXd& x) const override {
    ParamSet p = setup().scene.params;
    if (dmoc_.spec().freeTime) p.set("dt", ParamValue{{dmoc_.stepSize(x)}, {}}, "free final time");
    return p;
  }
  std::vector<Eigen::Vector3d> ghostPath(const Eigen::VectorXd& x) const override {
    return nodePath(segments(), [&](int k) { return Eigen::Vector3d(x[7 * k + 1], x[7 * k + 2], 0.0); });  // rear axle
  }

 private:
  DmocCosts costs_;  // effort (dmoc_) + smoothness, terminal penalty, final time
  std::vector<PlanarBox> lot_;  // the whole lot (the NLP sees only the boxes near the guess)
};

void CarPlan::writeCsv(const std::string& path, const Eigen::VectorXd& x) const {
  const CarDmocSpec& s = dmoc_.spec();
  const double h = dmoc_.stepSize(x);
  const char* header =
      "t,x,y,theta,energy,sigma,mu,steer_angle,steer_rate,torque,dyn_residual,clearance,disc_clearance";
  writePlanCsv(path, header, s.N, [&](int k) {
    const CarState n = dmoc_.node(x, k);
    const double w = k < s.N ? dmoc_.steerRate(x, k) : 0.0, tq = k < s.N ? dmoc_.torque(x, k) : 0.0;
    const double res = k > 0 ? dmoc_.dynResidual(x, k - 1) : 0.0;
    const double gap = lot_.empty() ? 0.0 : clearance(s.footprint, n.g, lot_);
    const double disc = s.obstacles.empty() ? 0.0 : dmoc_.discClearance(x, k);
    const double energy = s.car.energyOfMomentum(n.pMinus, n.sigma), steerAngle = std::atan(n.sigma);
    return std::vector<double>{k * h,      n.g.x, n.g.y, n.g.theta, energy, n.sigma, n.pMinus,
                               steerAngle, w,     tq,    res,       gap,    disc};
  });
}

// A PD tracker on the plan's states (engine/control/car_path_tracker.h) through carStep, with the plan's limits.
bool CarPlan::baseline(const Eigen::VectorXd& x, PlanBaseline& out) const {
  const CarDmocSpec& s = dmoc_.spec();
  const double h = dmoc_.stepSize(x);
  std::vector<CarState> ref;
  for (int k = 0; k <= s.N; ++k) ref.push_back(dmoc_.node(x, k));
  const CarTrackResult t = trackCarPath(s.car, s.alpha, h, ref, {s.sigmaMax, s.maxSteerRate, s.maxTorque});
  out.name = "PD path tracker";
  out.effort = out.planEffort = out.maxDeviation = 0.0;
  out.minClearance = lot_.empty() ? 0.0 : kNlpInfinity;
  for (int k = 0; k <= s.N; ++k) {
    const se2::Pose2& g = t.states[size_t(k)].g;
    out.maxDeviation = std::max(out.maxDeviation, std::hypot(g.x - ref[size_t(k)].g.x, g.y - ref[size_t(k)].g.y));
    if (!lot_.empty()) out.minClearance = std::min(out.minClearance, clearance(s.footprint, g, lot_));
    if (k == s.N) break;
    const double w = t.steerRate[size_t(k)], f = t.torque[size_t(k)], pw = dmoc_.steerRate(x, k), pf = dmoc_.torque(x, k);
    out.effort += h * (s.weightSteer * w * w + s.weightTorque * f * f);
    out.planEffort += h * (s.weightSteer * pw * pw + s.weightTorque * pf * pf);
  }
  out.finalError = std::hypot(t.states.back().g.x - ref.back().g.x, t.states.back().g.y - ref.back().g.y);
  return true;
}

// The controls as live parameter events (torque, steer_rate) per step, sticks neutral: the car scene's
// carCommand then passes them to carStep unchanged (return_to_centre off; sigma stays inside the clip).
InputTrack CarPlan::inputTrack(const Eigen::VectorXd& x) const {
  const auto scene = SceneRegistry::create(setup().scene.scene, replayParams(x));
  InputTrack track;
  track.neutral = neutralInputs(scene->controls());
  track.addEvent({0, InputEvent::Kind::Param, "return_to_centre", "false", ""});
  for (int k = 0; k < segments(); ++k) {
    track.addEvent({k, InputEvent::Kind::Param, "torque", formatNumber(dmoc_.torque(x, k)), ""});
    track.addEvent({k, InputEvent::Kind::Param, "steer_rate", formatNumber(dmoc_.steerRate(x, k)), ""});
  }
  return track;
}

}  // namespace

VARSIM_REGISTER_PLAN_PROBLEM(planProblemOf<CarPlan>("car", "Park in a bay (least steering)", "problems/car_park.json",
                                                    carPlanSpecs));

}  // namespace varsim
