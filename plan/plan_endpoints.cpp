// plan/plan_endpoints.cpp — the registry of plan start/goal hooks; see the header.
#include "plan/plan_endpoints.h"

#include "engine/sim/errors.h"

namespace varsim {
namespace {
std::vector<PlanEndpointsInfo>& registryList() {  // function-local static: safe in static initialisation
  static std::vector<PlanEndpointsInfo> list;
  return list;
}
}  // namespace

bool PlanEndpointsRegistry::add(PlanEndpointsInfo info) {
  registryList().push_back(std::move(info));
  return true;
}

const PlanEndpointsInfo* PlanEndpointsRegistry::find(const std::string& scene) {
  for (const auto& e : registryList())
    if (e.scene == scene) return &e;
  return nullptr;
}

double sceneColumn(const Scene& running, const std::string& name) {
  const std::vector<std::string> columns = running.columns();
  std::vector<double> row;
  running.diagnostics(row);
  for (size_t i = 0; i < columns.size() && i < row.size(); ++i)
    if (columns[i] == name) return row[i];
  throw BadInput("plan start: the running scene has no column '" + name + "'");
}

}  // namespace varsim
