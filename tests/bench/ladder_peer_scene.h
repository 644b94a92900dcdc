// tests/bench/ladder_peer_scene.h — "ours" in the ladder benches is the app's own rod scene, `ladder` (links = N) or
// `chain` (rods = N), made by SceneRegistry with every default (rod model, ε, τ, max_chord, max_relinearise, solver,
// the carried-force first solve) and stepped by RodScene::step: the benches measure what `varsim run` and the app run
// (one code path; trails off, drawing only).
#pragma once

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/integrators/spook_conventions.h"
#include "engine/models/rod_system.h"
#include "scenes/rods/rod_scene.h"
#include "scenes/scene.h"

namespace bench {

struct RodScenePeer {
  std::unique_ptr<varsim::Scene> owner;
  varsim::RodScene* scene = nullptr;
  double h = 0;  // s: the scene's dt

  // kind "ladder" or "chain"; n links or rods; overrides: (key, value) as on `varsim run --set`.
  RodScenePeer(const std::string& kind, int n, const std::vector<std::pair<std::string, std::string>>& overrides = {}) {
    // A count above the parameter's range is allowed here: the sweeps that decide the range run through this.
    const std::string countKey = kind == "chain" ? "rods" : "links";
    std::vector<varsim::ParamSpec> specs = varsim::SceneRegistry::defaults(kind).specs();
    for (varsim::ParamSpec& s : specs)
      if (s.key == countKey && n > s.maxValue) s.maxValue = n;
    varsim::ParamSet p(specs);
    p.setFromString(countKey, std::to_string(n), "bench");
    p.setFromString("trails", "false", "bench");
    for (const auto& [key, value] : overrides) p.setFromString(key, value, "bench");
    owner = varsim::SceneRegistry::create(kind, p);
    scene = dynamic_cast<varsim::RodScene*>(owner.get());
    if (!scene) throw std::runtime_error("scene '" + kind + "' is not a rod scene");
    h = p.real("dt");
  }
  void step() { scene->step(h, {}); }
  varsim::RodDiagnostics diagnostics() const { return varsim::rodDiagnostics(scene->system(), scene->state()); }
  // (ε, τ) of the scene's joints under its one ε/τ rule (rod_scene_params.h): what the peers are mapped from.
  varsim::SpookParameters joints() const { return scene->groupRelaxation("joints"); }
  std::string setting() const {
    const auto& prm = scene->params();
    return "rod_model " + prm.choice("rod_model") + ", solver " + prm.choice("solver") + ", eps " +
           shortNumber(prm.real("epsilon")) + ", tau " + shortNumber(prm.real("tau")) + " s, max_chord " +
           shortNumber(prm.real("max_chord")) + " m, max_relinearise " +
           std::to_string(prm.integer("max_relinearise")) + ", dt " + shortNumber(h) + " s";
  }
  static std::string shortNumber(double x) {
    char b[32];
    std::snprintf(b, sizeof b, "%.4g", x);
    return b;
  }
};

}  // namespace bench
