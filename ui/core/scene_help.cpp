// ui/core/scene_help.cpp — per-scene key help from the control specs and default bindings; see the header.
#include "ui/core/scene_help.h"

#include <cstdlib>
#include <filesystem>

#include "scenes/scene.h"
#include "ui/input/control_binding.h"

namespace varsim {

std::string docsPage(const std::string& relative) {
  const char* env = std::getenv("VARSIM_DOCS");
  const std::string path = std::string(env && *env ? env : VARSIM_DOCS_DIR) + "/" + relative;
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) ? path : std::string();
}

SceneHelp sceneHelp(const std::string& scene) {
  SceneHelp h;
  h.name = scene;
  const SceneInfo* info = SceneRegistry::find(scene);
  h.title = info ? info->title : scene;
  h.docsPage = docsPage("scenes/" + scene + ".md");
  std::vector<ControlSpec> controls;
  try {
    controls = SceneRegistry::create(scene, SceneRegistry::defaults(scene))->controls();
  } catch (const std::exception& e) {
    h.error = e.what();
    return h;
  }
  const std::vector<ControlBinding> bindings = defaultBindings(controls);
  for (size_t i = 0; i < controls.size() && i < bindings.size(); ++i) {
    const std::string keys = bindingKeysText(controls[i], bindings[i]);
    if (!keys.empty()) h.keys.push_back({controls[i].name, keys, controls[i].help});
  }
  return h;
}

std::vector<SceneHelp> allSceneHelp() {
  std::vector<SceneHelp> out;
  for (const SceneInfo& info : SceneRegistry::all()) out.push_back(sceneHelp(info.name));
  return out;
}

std::string sceneHelpText(const SceneHelp& h) {
  if (!h.error.empty()) return "(not built at its defaults: " + h.error + ")\n";
  if (h.keys.empty()) return "no keyboard controls (mouse: orbit, pan, zoom; the panels edit its parameters)\n";
  std::string out;
  for (const SceneKeyRow& r : h.keys) out += r.keys + "  " + r.control + (r.help.empty() ? "" : " — " + r.help) + "\n";
  return out;
}

}  // namespace varsim
