// Shared helpers of ConstrainedModel: row counts, kinetic energy and the divergence check all
// steppers apply before accepting a step.
#include "engine/models/constrained_model.h"

#include <cmath>
#include <cstdio>

#include "engine/sim/errors.h"

namespace varsim {

int ConstrainedModel::totalRows() const {
  int rows = 0;
  for (const auto& c : constraints()) rows += c.rows;
  return rows;
}

int ConstrainedModel::rowsOfKind(ConstraintKind kind) const {
  int rows = 0;
  for (const auto& c : constraints())
    if (c.kind == kind) rows += c.rows;
  return rows;
}

double ConstrainedModel::kineticEnergy(const Eigen::VectorXd& v) const {
  return 0.5 * v.dot(massDiagonal().cwiseProduct(v));
}

static std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

void checkDivergence(const ConstrainedModel& model, const MechanicalState& s, const DivergenceLimits& limits,
                     const std::string& who) {
  const std::string where = who + " step " + std::to_string(s.step) + " (t=" + number(s.t) + "): ";
  for (long i = 0; i < s.q.size(); ++i)
    if (!std::isfinite(s.q[i]) || !std::isfinite(s.v[i]))
      throw SimulationDiverged(where + "coordinate " + std::to_string(i) + " is not finite");
  const double speed = s.v.lpNorm<Eigen::Infinity>();
  if (speed > limits.maxSpeed)
    throw SimulationDiverged(where + "velocity component " + number(speed) + " exceeds " + number(limits.maxSpeed));
  double value[3], jac[3 * 64];
  const auto& cs = model.constraints();
  for (size_t i = 0; i < cs.size(); ++i) {
    if (cs[i].kind != ConstraintKind::Holonomic || cs[i].rows * cs[i].columns.size() > sizeof jac / sizeof jac[0])
      continue;
    model.evaluateConstraint(int(i), s.q, s.t, value, jac);
    for (int r = 0; r < cs[i].rows; ++r)
      if (!(std::abs(value[r]) <= limits.maxViolation))
        throw SimulationDiverged(where + "violation of " + cs[i].name + " is " + number(value[r]) + " (limit " +
                                 number(limits.maxViolation) + ")");
  }
}

}  // namespace varsim
