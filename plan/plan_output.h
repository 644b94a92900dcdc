// plan/plan_output.h — the two per-node outputs every vehicle's plan writes the same way: the plan CSV (a header,
// then one row of numbers per node 0..N at %.17g, which reads back as the same doubles) and the ghost path (one
// world point per node, drawn by the app for any iterate). A vehicle supplies only what a node's row/point holds.
#pragma once

#include <Eigen/Core>
#include <functional>
#include <string>
#include <vector>

namespace varsim {

// Writes `header` (column names, no newline) and row(k) for k = 0..segments, comma-separated, each number %.17g.
// Throws BadInput naming `path` if the file cannot be opened or written.
void writePlanCsv(const std::string& path, const std::string& header, int segments,
                  const std::function<std::vector<double>(int k)>& row);

// point(k) for k = 0..segments: the polyline of PlanInstance::ghostPath.
std::vector<Eigen::Vector3d> nodePath(int segments, const std::function<Eigen::Vector3d(int k)>& point);

}  // namespace varsim
