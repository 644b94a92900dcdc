// tests/test_app_help_keys.cpp — the Help menu's per-scene keys are generated from the scenes' control specs
// (ui/core/scene_help.h), so they cannot drift: every registered scene is listed, every control with a default key
// appears in its scene's help text with every one of its keys, and every scene's documentation page exists.
#include <doctest/doctest.h>

#include <string>

#include "scenes/scene.h"
#include "ui/core/scene_help.h"
#include "ui/input/control_binding.h"
#include "ui/input/key_names.h"

using namespace varsim;

TEST_CASE("help: every scene's control keys appear in the generated help, every scene has its page") {
  const std::vector<SceneHelp> all = allSceneHelp();
  REQUIRE(all.size() == SceneRegistry::all().size());
  REQUIRE(all.size() >= 15);  // the 15 scenes (and the tests' own scenes registered in this executable)
  int controlsSeen = 0, keysSeen = 0;
  for (const SceneHelp& h : all) {
    CAPTURE(h.name);
    CHECK(h.error.empty());
    if (h.name.rfind("test_", 0) != 0) CHECK_FALSE(h.docsPage.empty());  // docs/scenes/<name>.md (not test scenes)
    const std::string text = sceneHelpText(h);
    const auto controls = SceneRegistry::create(h.name, SceneRegistry::defaults(h.name))->controls();
    const auto bindings = defaultBindings(controls);
    for (size_t i = 0; i < controls.size(); ++i) {
      const ControlBinding& b = bindings[i];
      std::vector<int> keys = b.moreKeysPos;
      keys.insert(keys.end(), b.moreKeysNeg.begin(), b.moreKeysNeg.end());
      if (b.keyPos >= 0) keys.push_back(b.keyPos);
      if (b.keyNeg >= 0 && !isUnipolar(controls[i])) keys.push_back(b.keyNeg);
      if (keys.empty()) continue;
      ++controlsSeen;
      CAPTURE(controls[i].name);
      CHECK(text.find(controls[i].name) != std::string::npos);
      for (int k : keys) {
        const std::string label = keysLabel(k, {});
        CAPTURE(label);
        CHECK(text.find(label) != std::string::npos);
        ++keysSeen;
      }
    }
  }
  // The vehicles, the marionette, the space robot and the floating chain are driven by keys.
  CHECK(controlsSeen >= 12);
  CHECK(keysSeen >= 2 * controlsSeen);
  for (const char* driven : {"car", "helicopter", "boat", "snakeboard", "marionette", "space_robot"}) {
    const SceneHelp h = sceneHelp(driven);
    CAPTURE(driven);
    CHECK_FALSE(h.keys.empty());
  }
  CHECK(sceneHelpText(sceneHelp("car")).find("W/") != std::string::npos);
  CHECK_FALSE(docsPage("getting-started.md").empty());
}
