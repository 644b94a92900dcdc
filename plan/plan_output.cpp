// plan/plan_output.cpp — the plan CSV writer and the node polyline shared by every vehicle's plan; see the header.
#include "plan/plan_output.h"

#include <cstdio>

#include "engine/sim/errors.h"

namespace varsim {

void writePlanCsv(const std::string& path, const std::string& header, int segments,
                  const std::function<std::vector<double>(int k)>& row) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw BadInput(path + ": cannot write the plan CSV");
  std::fprintf(f, "%s\n", header.c_str());
  for (int k = 0; k <= segments; ++k) {
    const std::vector<double> values = row(k);
    for (size_t i = 0; i < values.size(); ++i) std::fprintf(f, i == 0 ? "%.17g" : ",%.17g", values[i]);
    std::fprintf(f, "\n");
  }
  if (std::fclose(f) != 0) throw BadInput(path + ": write failed");
}

std::vector<Eigen::Vector3d> nodePath(int segments, const std::function<Eigen::Vector3d(int k)>& point) {
  std::vector<Eigen::Vector3d> path;
  path.reserve(size_t(segments + 1));
  for (int k = 0; k <= segments; ++k) path.push_back(point(k));
  return path;
}

}  // namespace varsim
