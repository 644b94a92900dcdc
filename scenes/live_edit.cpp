// Live edits of a running scene; see live_edit.h.
#include "scenes/live_edit.h"

#include <exception>

#include "engine/sim/errors.h"

namespace varsim {

EditTiming applyParamEdit(Scene& scene, const std::string& sceneName, ParamSet& edited, const std::string& key,
                          const ParamValue& value) {
  const ParamSpec* spec = edited.spec(key);
  if (!spec) throw BadInput("unknown parameter '" + key + "' for scene '" + sceneName + "'");
  ParamSet candidate = edited;
  candidate.set(key, value, "parameter");  // throws BadInput with the allowed range
  if (const SceneInfo* info = SceneRegistry::find(sceneName); info && info->validate) info->validate(candidate);
  if (!spec->live) {
    edited = candidate;
    return EditTiming::OnReset;
  }
  // Only this key changes in the running scene; other edits still wait for a rebuild.
  ParamSet running = scene.params();
  running.set(key, value, "parameter");
  const std::vector<double> before = scene.saveState();
  try {
    scene.applyLive(running);
  } catch (const std::exception& e) {
    scene.loadState(before);
    throw BadInput(std::string("parameter '") + key + "': " + e.what());
  }
  edited = candidate;
  return EditTiming::Live;
}

EditTiming applyInputEvent(Scene& scene, const std::string& sceneName, ParamSet& edited, const InputEvent& event) {
  const std::string prefix = event.where.empty() ? std::string() : event.where + ": ";
  try {
    switch (event.kind) {
      case InputEvent::Kind::Param: {
        ParamSet parsed = edited;
        parsed.setFromString(event.key, event.value, "param event");
        return applyParamEdit(scene, sceneName, edited, event.key, parsed.value(event.key));
      }
      case InputEvent::Kind::Edit:
        scene.applyEdit(event.key, event.value);
        return EditTiming::Live;
      case InputEvent::Kind::Reset:
        break;
    }
  } catch (const BadInput& e) {
    throw BadInput(prefix + e.what());
  }
  throw BadInput(prefix + "a reset event rebuilds the scene; the caller handles it");
}

}  // namespace varsim
