// tests/rigid_body_fixtures.h — shared by the rigid-body tests: the body and start of
// reference/README.md, pose columns of the reference CSVs, and the log-log slope fit used for
// observed orders of convergence.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "engine/models/rigid_body.h"
#include "tests/csv_table.h"
#include "tests/log_log_slope.h"

namespace varsim::test {

// m = 2 kg, J = diag(2, 4, 7) kg m^2 (violates the triangle inequality; the integrators accept it),
// w0 = (0.3, 1.5, -0.2) rad/s, v0 = (0.5, 0, 0.2) m/s.
inline RigidBodyInertia referenceBody() { return principalInertia(2.0, Vector3d(2.0, 4.0, 7.0)); }
inline Vector6d referenceXi() { return (Vector6d() << 0.3, 1.5, -0.2, 0.5, 0.0, 0.2).finished(); }

inline Vector4d quatColumns(const CsvTable& t, size_t row, const std::string& prefix = "") {
  return Vector4d(t.at(row, prefix + "qw"), t.at(row, prefix + "qx"), t.at(row, prefix + "qy"), t.at(row, prefix + "qz"));
}
inline Vector3d posColumns(const CsvTable& t, size_t row, const std::string& prefix = "") {
  return Vector3d(t.at(row, prefix + "x"), t.at(row, prefix + "y"), t.at(row, prefix + "z"));
}

}  // namespace varsim::test
