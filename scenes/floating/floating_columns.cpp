// scenes/floating/floating_columns.cpp — standard CSV columns shared by floating_chain and space_robot.
#include "scenes/floating/floating_columns.h"

namespace varsim {

std::vector<std::string> floatingStandardColumns() {
  return {"t", "energy", "L_x", "L_y", "L_z", "p_x", "p_y", "p_z", "x", "y", "z", "qw", "qx", "qy", "qz"};
}

void floatingStandardRow(const floating::FloatingStepper& s, double energy, std::vector<double>& row) {
  const se3::Pose& g = s.pose();
  const Vector6d J = s.momentumMap();
  const Vector4d q = g.quaternion();  // w >= 0
  row = {s.time(), energy, J[0], J[1], J[2], J[3], J[4], J[5], g.x[0], g.x[1], g.x[2], q[0], q[1], q[2], q[3]};
}

}  // namespace varsim
