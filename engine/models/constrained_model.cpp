// Shared helpers of ConstrainedModel: row counts, kinetic energy and the divergence check all
// steppers apply before accepting a step.
#include "engine/models/constrained_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

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

void ConstrainedModel::constraintValue(int i, const Eigen::VectorXd& q, double t, double* value) const {
  const ConstraintDesc& c = constraints()[size_t(i)];
  const size_t width = size_t(c.rows) * c.columns.size();
  double small[3 * 64];
  if (width <= sizeof small / sizeof small[0]) return evaluateConstraint(i, q, t, value, small);
  std::vector<double> jac(width);
  evaluateConstraint(i, q, t, value, jac.data());
}

void ConstrainedModel::constraintValues(const Eigen::VectorXd& q, double t, double* stacked) const {
  const auto& cs = constraints();
  for (size_t i = 0; i < cs.size(); stacked += cs[i].rows, ++i) constraintValue(int(i), q, t, stacked);
}

static std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

void checkDivergence(const ConstrainedModel& model, const MechanicalState& s, const DivergenceLimits& limits,
                     const std::string& who, int totalRows, double* scratch) {
  const auto where = [&] { return who + " step " + std::to_string(s.step) + " (t=" + number(s.t) + "): "; };
  if (!s.q.allFinite() || !s.v.allFinite())  // vectorised; the loop only names the first coordinate
    for (long i = 0; i < s.q.size(); ++i)
      if (!std::isfinite(s.q[i]) || !std::isfinite(s.v[i]))
        throw SimulationDiverged(where() + "coordinate " + std::to_string(i) + " is not finite");
  const double speed = s.v.lpNorm<Eigen::Infinity>();
  if (speed > limits.maxSpeed)
    throw SimulationDiverged(where() + "velocity component " + number(speed) + " exceeds " + number(limits.maxSpeed));
  // Every row in one pass (constraintValues), the nonholonomic ones' w(t) unused. Scratch per thread: steppers on
  // two threads may check at once; resized only when a model has more rows than any before on this thread.
  thread_local std::vector<double> values;
  const size_t rows = size_t(totalRows >= 0 ? totalRows : model.totalRows());
  if (!scratch) {
    values.resize(std::max(values.size(), rows));
    scratch = values.data();
  }
  model.constraintValues(s.q, s.t, scratch);
  // Every row within the limit (holonomic or not; NaN is not): nothing to name, no pass over the constraint list.
  const double* row = scratch;
  long outside = 0;
  for (size_t r = 0; r < rows; ++r) outside += !(std::abs(row[r]) <= limits.maxViolation);
  if (outside == 0) return;
  const auto& cs = model.constraints();
  const double* value = scratch;
  for (size_t i = 0; i < cs.size(); value += cs[i].rows, ++i) {
    if (cs[i].kind != ConstraintKind::Holonomic) continue;
    for (int r = 0; r < cs[i].rows; ++r)
      if (!(std::abs(value[r]) <= limits.maxViolation))
        throw SimulationDiverged(where() + "violation of " + cs[i].name + " is " + number(value[r]) + " (limit " +
                                 number(limits.maxViolation) + ")");
  }
}

}  // namespace varsim
