// plan/plan_problem.cpp — the plan-problem registry (scene name -> problem), problem-file loading and
// validation, and the parts of a plan instance every vehicle shares (replay command, inputs file, roll-out).
#include "plan/plan_problem.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/control/dmoc_costs.h"
#include "engine/sim/errors.h"
#include "engine/sim/file_read.h"
#include "engine/sim/number_text.h"
#include "scenes/live_edit.h"
#include "scenes/scene.h"
#include "scenes/scene_file.h"

namespace varsim {
namespace {

std::vector<PlanProblemInfo>& registryList() {  // function-local static: safe in static initialisation
  static std::vector<PlanProblemInfo> list;
  return list;
}

std::string registeredScenes() {
  std::string known;
  for (const auto& p : registryList()) known += (known.empty() ? "\"" : ", \"") + p.scene + "\"";
  return known;
}

}  // namespace

bool PlanProblemRegistry::add(PlanProblemInfo info) {
  auto& list = registryList();
  list.push_back(std::move(info));
  std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.scene < b.scene; });
  return true;
}

const std::vector<PlanProblemInfo>& PlanProblemRegistry::all() { return registryList(); }

const PlanProblemInfo* PlanProblemRegistry::find(const std::string& scene) {
  for (const auto& p : registryList())
    if (p.scene == scene) return &p;
  return nullptr;
}

PlanSetup loadPlanProblem(const std::string& path, const std::vector<std::string>& sets) {
  return parsePlanProblem(readUserFile(path, "plan file", kMaxJsonFileBytes), path, sets);
}

PlanSetup parsePlanProblem(const std::string& text, const std::string& path, const std::vector<std::string>& sets) {
  // The scene files' reader: the same refusals (NUL bytes, depth, repeated keys) with the same messages.
  const nlohmann::json j = parseStrictJson(text, path);
  if (!j.is_object()) throw BadInput(path + ": expected an object {\"scene\", \"params\", \"plan\"}");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "scene" && it.key() != "params" && it.key() != "plan")
      throw BadInput(path + ": unknown key '" + shortText(it.key()) + "'; allowed: scene, params, plan");
  const PlanProblemInfo* info =
      j.contains("scene") && j["scene"].is_string() ? PlanProblemRegistry::find(j["scene"].get<std::string>()) : nullptr;
  if (!info)
    throw BadInput(path + ": key 'scene' = " + shortText(j.value("scene", nlohmann::json()).dump()) +
                   ": allowed: " + registeredScenes() + " (the scenes with a plan problem)");
  if (!j.contains("plan") || !j["plan"].is_object()) throw BadInput(path + ": missing object 'plan'");
  PlanSetup s{{}, ParamSet(info->params()), path};
  // Each plan key with its JSON type and range, as a scene file's keys (a number given as "1" is refused).
  setParamsFromJson(s.plan, j["plan"], path + ": plan");
  nlohmann::json sceneJson = j;
  sceneJson.erase("plan");
  if (!sceneJson.contains("params")) sceneJson["params"] = nlohmann::json::object();
  s.scene = parseSceneJson(sceneJson.dump(), path);
  for (const std::string& kv : sets) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos) throw BadInput("--set " + shortText(kv) + ": expected key=value");
    const std::string key = kv.substr(0, eq);
    if (s.plan.spec(key)) s.plan.setFromString(key, kv.substr(eq + 1), "--set");
    else s.scene.params.setFromString(key, kv.substr(eq + 1), "--set");
  }
  SceneRegistry::create(s.scene.scene, s.scene.params);  // the scene's own cross checks (start clear of obstacles)
  return s;
}

double maxViolation(const Nlp& nlp, const Eigen::VectorXd& x) {
  Eigen::VectorXd xL, xU, gL, gU;
  nlp.bounds(xL, xU, gL, gU);
  const Eigen::VectorXd g = nlp.constraints(x);
  double v = 0.0;
  if (g.size() > 0) v = std::max({v, (gL - g).maxCoeff(), (g - gU).maxCoeff()});
  return std::max({v, (xL - x).maxCoeff(), (x - xU).maxCoeff()});
}

std::string PlanInstance::replayCommand(const std::string& inputsPath, const Eigen::VectorXd& x) const {
  const std::string& name = setup_.scene.scene;
  const ParamSet params = replayParams(x), defaults = sceneDefaults(name);
  std::string replay = "varsim run " + name;
  for (const ParamSpec& sp : params.specs())
    if (params.valueText(sp.key) != defaults.valueText(sp.key))
      replay += " --set " + sp.key + "=" + params.valueText(sp.key);
  return replay + " --steps " + std::to_string(segments()) + " --input " + inputsPath;
}

void PlanInstance::writeInputs(const std::string& path, const Eigen::VectorXd& x) const {
  const auto scene = SceneRegistry::create(setup_.scene.scene, replayParams(x));
  inputTrack(x).save(path, scene->controls(), "plan of " + setup_.source + "; replay: " + replayCommand(path, x));
}

bool PlanInstance::rollOut(Eigen::VectorXd& x) const {
  if (!hasRollOut()) return false;
  ParamSet edited = replayParams(x);
  const InputTrack track = inputTrack(x);
  Eigen::VectorXd out = x;
  try {
    const auto scene = SceneRegistry::create(setup_.scene.scene, edited);
    storeNode(*scene, 0, out);
    for (int k = 0; k < segments(); ++k) {
      const auto [first, last] = track.eventsAt(k);
      for (size_t i = first; i < last; ++i) applyInputEvent(*scene, setup_.scene.scene, edited, track.events()[i]);
      scene->step(scene->dt(), track.at(k));
      storeNode(*scene, k + 1, out);
    }
  } catch (const BadInput&) {
    return false;  // an event the scene refused
  } catch (const SimulationDiverged&) {
    return false;  // the controls drove the model scene to a step it could not take
  }
  x = std::move(out);
  return true;
}

std::vector<ParamSpec> dmocCostSpecs() {
  return {
      ParamSpec::real("weight_smooth", 0.0, 0.0, 1e6, "", "weight of sum |u_{k+1} - u_k|_W^2 / h (smoothness of u)"),
      ParamSpec::real("terminal_weight", 0.0, 0.0, 1e9, "",
                      "0: the target is an equality; > 0: free end state, + weight |x_N - target|^2"),
      ParamSpec::integer("free_time", 0, 0, 1, "1: the step h (final time N h) is a variable in [dt_min, dt_max]"),
      ParamSpec::real("weight_time", 0.0, 0.0, 1e6, "1/s", "+ weight N h (the final time; needs free_time = 1)"),
      ParamSpec::real("dt_min", 1e-3, 0.0, 10.0, "s", "smallest h with free_time = 1", true),
      ParamSpec::real("dt_max", 0.1, 0.0, 10.0, "s", "largest h with free_time = 1", true),
  };
}

bool dmocFreeTime(const PlanSetup& setup) { return setup.plan.integer("free_time") == 1; }

void requireSceneValue(const PlanSetup& setup, const char* key, const std::string& allowed, const char* why) {
  const std::string v = setup.scene.params.valueText(key);
  if (v != allowed)
    throw BadInput(setup.source + ": key '" + key + "' = " + v + ": allowed: " + allowed + " (" + why + ")");
}

DmocCostOptions dmocCostOptions(const PlanSetup& setup) {
  const ParamSet& q = setup.plan;
  if (dmocFreeTime(setup)) {
    const double lo = q.real("dt_min"), hi = q.real("dt_max"), dt = setup.scene.params.real("dt");
    const ParamSpec* dtSpec = setup.scene.params.spec("dt");
    if (!(lo <= dt && dt <= hi) || (dtSpec && hi > dtSpec->maxValue))
      throw BadInput(setup.source + ": keys 'dt_min' = " + formatNumber(lo) + ", 'dt_max' = " + formatNumber(hi) +
                     ": allowed dt_min <= dt (" + formatNumber(dt) + ") <= dt_max <= " +
                     formatNumber(dtSpec ? dtSpec->maxValue : hi) + " (the scene's dt range: the plan replays at h)");
  }
  return {q.real("weight_smooth"), q.real("terminal_weight"), q.real("weight_time")};
}

}  // namespace varsim
