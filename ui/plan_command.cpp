// ui/plan_command.cpp — the headless planner for the car (seed 000 Sec. 6, Fig. 10 right): problem file =
// {"scene": "car", "params": {scene keys}, "plan": {plan keys}}; the scene part is validated like a scene file,
// the plan part against planSpecs(); the world and limits come from the scene's own parameters.
#include "ui/plan_command.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/control/car_dmoc.h"
#include "engine/sim/errors.h"
#include "engine/sim/input_track.h"
#include "engine/sim/number_text.h"
#include "plan/ipopt_solver.h"
#include "scenes/scene.h"
#include "scenes/scene_file.h"
#include "scenes/vehicle_scenery.h"

namespace varsim {
namespace {

const char* kPlanUsage = "usage: varsim plan PROBLEM.json [--set key=value]... --csv FILE --inputs FILE";

std::vector<ParamSpec> planSpecs() {
  return {
      ParamSpec::integer("N", 200, 1, 20000, "segments of the plan (horizon T = N dt)"),
      ParamSpec::real("target_x", 0.0, -1e4, 1e4, "m", "final rear-axle position x"),
      ParamSpec::real("target_y", 0.0, -1e4, 1e4, "m", "final rear-axle position y"),
      ParamSpec::real("target_heading", 0.0, -12.566370614359172, 12.566370614359172, "rad", "final heading theta"),
      ParamSpec::real("weight_steer", 1.0, 0.0, 1e6, "", "W on (u^sigma)^2 in h sum u^T W u"),
      ParamSpec::real("weight_torque", 0.1, 0.0, 1e6, "", "W on (f^psi)^2 in h sum u^T W u"),
      ParamSpec::real("weight_smooth", 0.0, 0.0, 1e6, "", "weight of sum |u_{k+1} - u_k|_W^2 / h"),
      ParamSpec::real("margin", 0.05, 0.0, 10.0, "m", "clearance every covering disc keeps from every obstacle"),
      ParamSpec::integer("discs", 4, 1, 64, "discs covering the car's footprint along its length"),
      ParamSpec::integer("max_iter", 500, 1, 100000, "Ipopt max_iter"),
  };
}

struct PlanOptions {
  SceneConfig scene;
  ParamSet plan{planSpecs()};
  std::string csvPath, inputsPath, source;
};

void loadProblem(const std::string& path, PlanOptions& o) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw BadInput(path + ": cannot open the problem file");
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.str());
  } catch (const std::exception& e) {
    throw BadInput(path + ": malformed JSON: " + shortText(e.what(), 200));
  }
  if (!j.is_object()) throw BadInput(path + ": expected an object {\"scene\", \"params\", \"plan\"}");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "scene" && it.key() != "params" && it.key() != "plan")
      throw BadInput(path + ": unknown key '" + shortText(it.key()) + "'; allowed: scene, params, plan");
  if (!j.contains("scene") || j["scene"] != "car")
    throw BadInput(path + ": key 'scene' = " + shortText(j.value("scene", nlohmann::json()).dump()) +
                   ": allowed: \"car\" (the planner's vehicles so far)");
  if (!j.contains("plan") || !j["plan"].is_object()) throw BadInput(path + ": missing object 'plan'");
  for (auto it = j["plan"].begin(); it != j["plan"].end(); ++it) {
    if (!it.value().is_number())
      throw BadInput(path + ": key 'plan." + shortText(it.key()) + "' = " + shortText(it.value().dump()) +
                     ": expected a number");
    o.plan.set(it.key(), ParamValue{{it.value().get<double>()}, {}}, path + ": plan");
  }
  nlohmann::json sceneJson = j;
  sceneJson.erase("plan");
  if (!sceneJson.contains("params")) sceneJson["params"] = nlohmann::json::object();
  o.scene = parseSceneJson(sceneJson.dump(), path);
}

PlanOptions parsePlanArgs(const std::vector<std::string>& args) {
  if (args.size() < 2) throw BadInput(kPlanUsage);
  PlanOptions o;
  o.source = args[1];
  loadProblem(args[1], o);
  for (size_t i = 2; i < args.size(); ++i) {
    if (i + 1 >= args.size()) throw BadInput(args[i] + ": missing value; " + kPlanUsage);
    const std::string &flag = args[i], &value = args[++i];
    if (flag == "--set") {
      const auto eq = value.find('=');
      if (eq == std::string::npos) throw BadInput("--set " + shortText(value) + ": expected key=value");
      const std::string key = value.substr(0, eq);
      if (o.plan.spec(key)) o.plan.setFromString(key, value.substr(eq + 1), "--set");
      else o.scene.params.setFromString(key, value.substr(eq + 1), "--set");
    } else if (flag == "--csv" && !value.empty()) {
      o.csvPath = value;
    } else if (flag == "--inputs" && !value.empty()) {
      o.inputsPath = value;
    } else {
      throw BadInput("option '" + shortText(flag) + "' with '" + shortText(value) + "': allowed --set, --csv, --inputs");
    }
  }
  if (o.csvPath.empty() || o.inputsPath.empty()) throw BadInput(std::string("--csv and --inputs are required; ") + kPlanUsage);
  return o;
}

CarDmocSpec carSpec(const PlanOptions& o) {
  const ParamSet &p = o.scene.params, &q = o.plan;
  CarDmocSpec s;
  s.car = {p.real("m"), p.real("I"), p.real("K"), p.real("l"), p.real("rho")};
  if (p.choice("integrator") != "variational")
    throw BadInput(o.source + ": key 'integrator' = " + p.choice("integrator") +
                   ": allowed: variational (the plan's constraints are the variational update)");
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
  s.weightSmooth = q.real("weight_smooth");
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

void writeCsv(const std::string& path, const CarDmoc& dmoc, const Eigen::VectorXd& x, const std::vector<PlanarBox>& lot) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw BadInput(path + ": cannot write the plan CSV");
  const CarDmocSpec& s = dmoc.spec();
  std::fprintf(f, "t,x,y,theta,energy,sigma,mu,steer_angle,steer_rate,torque,dyn_residual,clearance,disc_clearance\n");
  for (int k = 0; k <= s.N; ++k) {
    const CarState n = dmoc.node(x, k);
    const double w = k < s.N ? dmoc.steerRate(x, k) : 0.0, tq = k < s.N ? dmoc.torque(x, k) : 0.0;
    const double res = k > 0 ? dmoc.dynResidual(x, k - 1) : 0.0;
    const double gap = lot.empty() ? 0.0 : clearance(s.footprint, n.g, lot);
    const double disc = s.obstacles.empty() ? 0.0 : dmoc.discClearance(x, k);
    std::fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", k * s.h, n.g.x,
                 n.g.y, n.g.theta, s.car.energyOfMomentum(n.pMinus, n.sigma), n.sigma, n.pMinus, std::atan(n.sigma), w,
                 tq, res, gap, disc);
  }
  if (std::fclose(f) != 0) throw BadInput(path + ": write failed");
}

// The controls as live parameter events (torque, steer_rate) per step, sticks neutral: the car scene's
// carCommand then passes them to carStep unchanged (return_to_centre off; sigma stays inside the clip).
std::string writeInputs(const PlanOptions& o, const CarDmoc& dmoc, const Eigen::VectorXd& x) {
  const auto scene = SceneRegistry::create(o.scene.scene, o.scene.params);
  InputTrack track;
  track.neutral = neutralInputs(scene->controls());
  track.addEvent({0, InputEvent::Kind::Param, "return_to_centre", "false", ""});
  for (int k = 0; k < dmoc.spec().N; ++k) {
    track.addEvent({k, InputEvent::Kind::Param, "torque", formatNumber(dmoc.torque(x, k)), ""});
    track.addEvent({k, InputEvent::Kind::Param, "steer_rate", formatNumber(dmoc.steerRate(x, k)), ""});
  }
  std::string replay = "varsim run car";
  const ParamSet defaults = sceneDefaults("car");
  for (const ParamSpec& sp : o.scene.params.specs())
    if (!sp.live && o.scene.params.valueText(sp.key) != defaults.valueText(sp.key))
      replay += " --set " + sp.key + "=" + o.scene.params.valueText(sp.key);
  replay += " --steps " + std::to_string(dmoc.spec().N) + " --input " + o.inputsPath;
  track.save(o.inputsPath, scene->controls(), "plan of " + o.source + "; replay: " + replay);
  return replay;
}

// Largest violation of any constraint or bound at x (dynamics rows, clearances, fixed start and target).
double maxViolation(const Nlp& nlp, const Eigen::VectorXd& x) {
  Eigen::VectorXd xL, xU, gL, gU;
  nlp.bounds(xL, xU, gL, gU);
  const Eigen::VectorXd g = nlp.constraints(x);
  const double vg = std::max((gL - g).maxCoeff(), (g - gU).maxCoeff()), vx = std::max((xL - x).maxCoeff(), (x - xU).maxCoeff());
  return std::max({0.0, vg, vx});
}

}  // namespace

int planCommand(const std::vector<std::string>& args, PlanStats* stats) {
  const PlanOptions o = parsePlanArgs(args);
  SceneRegistry::create(o.scene.scene, o.scene.params);  // the scene's own cross checks (start clear of obstacles)
  const CarDmoc dmoc(carSpec(o));
  IpoptSettings settings;
  settings.maxIterations = int(o.plan.integer("max_iter"));
  std::fprintf(stderr, "plan %s: %d variables, %d constraints\n", o.source.c_str(), dmoc.numVariables(),
               dmoc.numConstraints());
  const auto t0 = std::chrono::steady_clock::now();
  const IpoptResult r = solveWithIpopt(dmoc, settings, [](const IpoptIteration& it) {
    std::fprintf(stderr, "iter %4d  objective %.9e  inf_pr %.3e  inf_du %.3e\n", it.iteration, it.objective,
                 it.primalInfeasibility, it.dualInfeasibility);
    return true;
  });
  if (stats) {
    std::vector<Eigen::Triplet<double>> t;
    dmoc.jacobian(r.x, t);
    *stats = {dmoc.numVariables(), dmoc.numConstraints(), int(t.size()), r.iterations,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), r.objective, 0.0,
              maxViolation(dmoc, r.x), r.status};
    for (int k = 0; k < dmoc.spec().N; ++k) stats->maxDynResidual = std::max(stats->maxDynResidual, dmoc.dynResidual(r.x, k));
  }
  if (!r.solved) {
    std::fprintf(stderr, "varsim: not solved: Ipopt status %s after %d iterations\n", r.status.c_str(), r.iterations);
    return kExitUnsolved;
  }
  writeCsv(o.csvPath, dmoc, r.x,
           o.scene.params.choice("world") == "parking_lot" ? carParkingLot(dmoc.spec().car.l, dmoc.spec().car.rho).obstacles
                                                            : std::vector<PlanarBox>{});
  const std::string replay = writeInputs(o, dmoc, r.x);
  std::fprintf(stderr, "solved (%s): %d iterations, cost %.9g; replay: %s\n", r.status.c_str(), r.iterations,
               r.objective, replay.c_str());
  return 0;
}

}  // namespace varsim
