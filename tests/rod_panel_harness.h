// tests/rod_panel_harness.h — the app's scene panel without GL, for the rod panel tests
// (test_rod_panel_data, test_rod_panel_readouts): a SimDriver loaded with parameter overrides, a
// ScenePanelState following it after every step and acting through it, the running scene as a RodScene.
// Header-only, test use.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "scenes/rods/rod_scene.h"
#include "ui/core/scene_panel_state.h"

namespace varsim::test {

inline const RodScene& rodScene(SimDriver& d) { return dynamic_cast<const RodScene&>(d.scene()); }

inline SimDriver loadedDriver(const std::string& scene,
                              const std::vector<std::pair<std::string, std::string>>& set = {}) {
  SimDriver d(100, 1024);
  ParamSet p = SceneRegistry::defaults(scene);
  for (const auto& [k, v] : set) p.setFromString(k, v, "test");
  d.load(scene, p);
  return d;
}

// The app's panel state following the driver's scene, sampled after every step.
struct Panel {
  explicit Panel(SimDriver& d) : driver(d) {
    state.follow(&d.scene(), d.sceneName());
    d.afterStep = [this](long, const Scene& s) {
      state.follow(&s, driver.sceneName());
      state.afterStep(s);
    };
  }
  bool act(const std::string& action, const std::string& value) { return state.act(driver, action, value, action); }
  std::string error(const std::string& action) const { return state.errors.count(action) ? state.errors.at(action) : ""; }
  SimDriver& driver;
  ScenePanelState state;
};

inline double relDiff(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

}  // namespace varsim::test
