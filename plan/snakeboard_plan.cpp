// plan/snakeboard_plan.cpp — the snakeboard's plan problem (seed 000 Sec. 6 with the board of Sec. 5.2.2): reach a
// target position and heading from the scene's start, at rest, choosing only the shape (rotor psi, steering phi)
// with the least shape-rate effort (+ smoothness); the gait is not given, the optimiser finds it. Start, limits and
// the shape lag come from the snakeboard scene's own parameters; the transcription is engine/control/snakeboard_dmoc.h;
// the replay drives the scene's rotor/steer sticks (gait off), whose lag reproduces the planned shapes. In the
// arena the covering discs keep `margin` from the walls and crates near the way.
#include <algorithm>
#include <cmath>

#include "engine/control/dmoc_costs.h"
#include "engine/control/snakeboard_dmoc.h"
#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "plan/plan_endpoints.h"
#include "plan/plan_output.h"
#include "plan/plan_problem.h"
#include "scenes/scene.h"
#include "scenes/vehicles/vehicle_scenery.h"

namespace varsim {
namespace {

std::vector<ParamSpec> snakeboardPlanSpecs() {
  std::vector<ParamSpec> specs = {
      ParamSpec::integer("N", 160, 1, 20000, "segments of the plan (horizon T = N dt)"),
      ParamSpec::real("target_x", -4.0, -1e4, 1e4, "m", "final board-centre position x (forward is body -x)"),
      ParamSpec::real("target_y", 0.5, -1e4, 1e4, "m", "final board-centre position y"),
      ParamSpec::real("target_heading", 0.0, -12.566370614359172, 12.566370614359172, "rad", "final heading theta"),
      ParamSpec::real("weight_psi", 1.0, 0.0, 1e6, "", "W on (u^psi)^2 in h sum u^T W u (rotor rate)"),
      ParamSpec::real("weight_phi", 1.0, 0.0, 1e6, "", "W on (u^phi)^2 in h sum u^T W u (steering rate)"),
      ParamSpec::real("margin", 0.05, 0.0, 10.0, "m",
                      "arena: clearance every covering disc keeps from walls and crates"),
      ParamSpec::integer("discs", 4, 1, 64, "arena: discs covering the board's footprint along its length"),
      ParamSpec::integer("max_iter", 500, 1, 100000, "Ipopt max_iter"),
  };
  // The shared cost variants (DmocCosts); the smoothness (shape acceleration) is on by default: it is what spreads
  // the strokes into a gait (without it the optimum is a kick, a coast and a reverse kick).
  for (ParamSpec& p : dmocCostSpecs()) {
    if (p.key == "weight_smooth") p.defaultNumbers = {0.1};
    specs.push_back(std::move(p));
  }
  return specs;
}

// The scene's start node as its own diagnostics report it (no second copy of its start-up).
SnakeboardState sceneStart(const PlanSetup& o) {
  const auto scene = SceneRegistry::create(o.scene.scene, o.scene.params);
  const auto col = [&](const char* name) { return sceneColumn(*scene, name); };
  return snakeboardStart({col("theta"), col("x"), col("y")}, col("psi"), col("phi"), col("mu"));
}

SnakeboardDmocSpec snakeboardSpec(const PlanSetup& o) {
  const ParamSet &p = o.scene.params, &q = o.plan;
  requireSceneValue(o, "integrator", "variational", "the plan's constraints are the variational update");
  requireSceneValue(o, "gait", "false", "the plan drives the shape through the rotor/steer sticks");
  if (dmocFreeTime(o))
    throw BadInput(o.source + ": key 'free_time' = 1: allowed 0 (the snakeboard's step has no d/dh: h is fixed)");
  for (const char* key : {"psi_max", "phi_max"})
    if (!(p.real(key) > 0.0))
      throw BadInput(o.source + ": key '" + key + "' = " + formatNumber(p.real(key)) +
                     ": allowed (0, ...] for a plan (the sticks' range is the shape's)");
  SnakeboardDmocSpec s;
  s.board = {p.real("m"), p.real("I"), p.real("J"), p.real("l")};
  s.alpha = p.real("alpha");
  s.h = p.real("dt");
  s.N = int(q.integer("N"));
  s.start = sceneStart(o);  // the scene's start keys (start_x/y/heading, start_psi/phi_offset, speed)
  s.target = {q.real("target_heading"), q.real("target_x"), q.real("target_y")};
  s.restShape = {0.0, p.real("phi")};  // what neutral sticks hold after the plan: (0, trim)
  // The scene's stick lag and ranges: psi target = psi_max rotor, phi target = clip(phi - phi_max steer, +-1.4).
  s.lag = std::exp(-s.h / p.real("shape_response"));
  const double trim = p.real("phi"), maxSteer = snakeboard::kMaxSteer;
  s.commandLo = {-p.real("psi_max"), std::max(trim - p.real("phi_max"), -maxSteer)};
  s.commandHi = {p.real("psi_max"), std::min(trim + p.real("phi_max"), maxSteer)};
  s.weightPsi = q.real("weight_psi");
  s.weightPhi = q.real("weight_phi");
  s.footprint = snakeboardFootprint(s.board.l);
  s.discs = int(q.integer("discs"));
  s.margin = q.real("margin");
  if (p.choice("world") != "arena") return s;
  // Only boxes within kNear of the straight start-target line enter the NLP (the walls far away add rows, not
  // information); the CSV's `clearance` checks the whole arena.
  const double kNear = 10.0 * s.board.l;
  const Eigen::Vector2d a(s.start.g.x, s.start.g.y), d = Eigen::Vector2d(s.target.x, s.target.y) - a;
  for (const PlanarBox& b : arena(s.board.l).obstacles) {
    const double f =
        d.squaredNorm() > 0.0 ? std::clamp((Eigen::Vector2d(b.cx, b.cy) - a).dot(d) / d.squaredNorm(), 0.0, 1.0) : 0.0;
    const Eigen::Vector2d q0 = a + f * d;
    if (pointBoxDistance(b, q0.x(), q0.y(), nullptr, nullptr) < kNear) s.obstacles.push_back(b);
  }
  return s;
}

class SnakeboardPlan : public DmocPlanInstance<SnakeboardDmoc> {
 public:
  explicit SnakeboardPlan(const PlanSetup& setup)
      : DmocPlanInstance(setup, snakeboardSpec(setup)), costs_(dmoc_, dmoc_.layout(), dmocCostOptions(setup)) {
    if (setup.scene.params.choice("world") == "arena") arena_ = arena(dmoc_.spec().board.l).obstacles;
  }
  const Nlp& nlp() const override { return costs_; }
  void writeCsv(const std::string& path, const Eigen::VectorXd& x) const override;
  InputTrack inputTrack(const Eigen::VectorXd& x) const override;
  std::vector<Eigen::Vector3d> ghostPath(const Eigen::VectorXd& x) const override {
    return nodePath(segments(), [&](int k) { return Eigen::Vector3d(x[6 * k + 1], x[6 * k + 2], 0.0); });  // centre
  }

 private:
  // The stick positions (rotor, steer) whose lagged targets are the plan's commands c_k.
  Eigen::Vector2d sticks(const Eigen::VectorXd& x, int k) const {
    const ParamSet& p = setup().scene.params;
    const Eigen::Vector2d c = dmoc_.command(x, k);
    return {c[0] / p.real("psi_max"), (p.real("phi") - c[1]) / p.real("phi_max")};
  }
  DmocCosts costs_;               // effort (dmoc_) + smoothness, terminal penalty
  std::vector<PlanarBox> arena_;  // the whole arena (the NLP sees only the boxes near the straight line)
};

void SnakeboardPlan::writeCsv(const std::string& path, const Eigen::VectorXd& x) const {
  const SnakeboardDmocSpec& s = dmoc_.spec();
  const char* header =
      "t,x,y,theta,energy,psi,phi,mu,speed,yaw_rate,psi_rate,phi_rate,rotor,steer,dyn_residual,clearance,"
      "disc_clearance";
  writePlanCsv(path, header, s.N, [&](int k) {
    const SnakeboardState n = dmoc_.node(x, k);
    // The segment that ends at node k (the scene's convention for its rate columns); node 0: the start at rest
    // in the shape, moving with p_0.
    SnakeboardState seg = n;
    if (k > 0)
      seg = snakeboardNext(s.board, s.alpha, s.h, dmoc_.node(x, k - 1), n.psi, n.phi);
    else
      seg.xi = snakeboard::velocityOfMomentum(s.board, n.phi, 0.0, n.p);
    const Eigen::Vector2d stick = k < s.N ? sticks(x, k) : Eigen::Vector2d::Zero();
    const double res = k > 0 ? dmoc_.dynResidual(x, k - 1) : 0.0;
    const double gap = arena_.empty() ? 0.0 : clearance(s.footprint, n.g, arena_);
    const double disc = s.obstacles.empty() ? 0.0 : dmoc_.discClearance(x, k);
    const double energy = snakeboard::energy(s.board, seg.uPsi, seg.uPhi, seg.xi);
    return std::vector<double>{k * s.h,   n.g.x,    n.g.y,    n.g.theta, energy,   n.psi, n.phi, n.p, -seg.xi[1],
                               seg.xi[0], seg.uPsi, seg.uPhi, stick[0],  stick[1], res,   gap,   disc};
  });
}

// The sticks per step (gait off): the scene's lag r_{k+1} = c_k + lag (r_k - c_k) then gives back the planned
// shapes to round-off, and snakeboardStep the planned nodes. Neutral sticks after the plan hold r_N = r_0 at rest.
InputTrack SnakeboardPlan::inputTrack(const Eigen::VectorXd& x) const {
  const auto scene = SceneRegistry::create(setup().scene.scene, setup().scene.params);
  InputTrack track;
  track.neutral = neutralInputs(scene->controls());
  for (int k = 0; k < segments(); ++k) {
    const Eigen::Vector2d stick = sticks(x, k);
    track.append(k, {stick[0], stick[1]});
  }
  track.append(segments(), track.neutral);
  return track;
}

}  // namespace

VARSIM_REGISTER_PLAN_PROBLEM(planProblemOf<SnakeboardPlan>("snakeboard", "Reach a target (the gait emerges)",
                                                           "problems/snakeboard_reach.json", snakeboardPlanSpecs));

}  // namespace varsim
