// Registry of scenes (name → factory). Static-initialisation order safe: the list is a function-local
// static.
#include <algorithm>

#include "engine/sim/errors.h"
#include "scenes/scene.h"

namespace varsim {

static std::vector<SceneInfo>& registryList() {
  static std::vector<SceneInfo> list;
  return list;
}

bool SceneRegistry::add(SceneInfo info) {
  auto& list = registryList();
  list.push_back(std::move(info));
  std::sort(list.begin(), list.end(), [](const SceneInfo& a, const SceneInfo& b) { return a.name < b.name; });
  return true;
}

const std::vector<SceneInfo>& SceneRegistry::all() { return registryList(); }

const SceneInfo* SceneRegistry::find(const std::string& name) {
  for (const auto& s : registryList())
    if (s.name == name) return &s;
  return nullptr;
}

static const SceneInfo& findOrThrow(const std::string& name) {
  const SceneInfo* info = SceneRegistry::find(name);
  if (!info) {
    std::string known;
    for (const auto& s : registryList()) known += (known.empty() ? "" : ", ") + s.name;
    throw BadInput("unknown scene '" + name + "'; available: " + known);
  }
  return *info;
}

ParamSet SceneRegistry::defaults(const std::string& name) { return ParamSet(findOrThrow(name).params()); }

std::unique_ptr<Scene> SceneRegistry::create(const std::string& name, const ParamSet& params) {
  const SceneInfo& info = findOrThrow(name);
  if (info.validate) info.validate(params);
  return info.create(params);
}

}  // namespace varsim
