// Rods and particles with joints, pins, unit-length rows, plane points and no-side-slip blades
// (see rod_system.h). Every Jacobian here is exact (joints, pins and planes are linear in q; the
// unit row's is uᵀ; the blade's A(q) is (n × u)ᵀ[I, s(l/2)I]); test_rod_system checks them against
// finite differences.
#include "engine/models/rod_system.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

#include "engine/sim/errors.h"

namespace varsim {

// Checked before the coordinates grow, so a refused body leaves the system as it was.
void RodSystem::checkBody(const Body& b) {
  if (!(b.mass > 0) || !std::isfinite(b.mass)) throw BadInput("RodSystem: body mass must be > 0");
  if (b.isRod && !(b.length > 0)) throw BadInput("RodSystem: rod length must be > 0");
}

int RodSystem::addBody(const Body& body, const double* q, const double* v) {
  checkBody(body);
  growCoordinates(body.isRod ? 6 : 3);
  return placeBody(body, q, v);
}

void RodSystem::growCoordinates(long dofs) {
  const long n = massDiag_.size() + dofs;
  massDiag_.conservativeResize(n);
  q0_.conservativeResize(n);
  v0_.conservativeResize(n);
}

int RodSystem::placeBody(Body b, const double* q, const double* v) {
  const int dofs = b.isRod ? 6 : 3;
  // The next free coordinate follows the last body's (inside addRods the vectors are already longer).
  b.offset = bodies_.empty() ? 0 : bodies_.back().offset + (bodies_.back().isRod ? 6 : 3);
  for (int k = 0; k < dofs; ++k) {
    massDiag_[b.offset + k] = k < 3 ? b.mass : b.mass * b.length * b.length / 12.0;  // ERRATA: m l²/12
    q0_[b.offset + k] = q[k];
    v0_[b.offset + k] = v[k];
  }
  bodies_.push_back(b);
  return int(bodies_.size()) - 1;
}

int RodSystem::addRod(double mass, double length, const Eigen::Vector3d& centre, const Eigen::Vector3d& direction,
                      const Eigen::Vector3d& velocity, const Eigen::Vector3d& directionRate) {
  return addRods(mass, length, {RodPose{centre, direction, velocity, directionRate}});
}

int RodSystem::addRods(double mass, double length, const std::vector<RodPose>& rods) {
  checkBody(Body{true, mass, length, 0});
  growCoordinates(6 * long(rods.size()));
  const int first = int(bodies_.size());
  for (const RodPose& r : rods) {
    const double q[6] = {r.centre.x(), r.centre.y(), r.centre.z(), r.direction.x(), r.direction.y(), r.direction.z()};
    const double v[6] = {r.velocity.x(), r.velocity.y(), r.velocity.z(),
                         r.directionRate.x(), r.directionRate.y(), r.directionRate.z()};
    const int body = placeBody(Body{true, mass, length, 0}, q, v);
    const int off = bodies_.back().offset;
    ConstraintDesc d{"unit length: rod " + std::to_string(body + 1), ConstraintKind::Holonomic, kGroupUnit, 1,
                     {off + 3, off + 4, off + 5}, {}};
    add(Record{Kind::Unit, {body, 0}, {body, 0}}, std::move(d));
  }
  return first;
}

int RodSystem::addParticle(double mass, const Eigen::Vector3d& position, const Eigen::Vector3d& velocity) {
  return addBody(Body{false, mass, 0.0, 0}, position.data(), velocity.data());
}

std::vector<int> RodSystem::pointColumns(BodyPoint p) const {
  if (p.body < 0 || p.body >= int(bodies_.size())) throw BadInput("RodSystem: body index " + std::to_string(p.body) + " does not exist");
  const Body& b = bodies_[size_t(p.body)];
  std::vector<int> cols{b.offset, b.offset + 1, b.offset + 2};
  if (b.isRod && p.s != 0)
    for (int k = 3; k < 6; ++k) cols.push_back(b.offset + k);
  return cols;
}

std::string RodSystem::pointName(BodyPoint p) const {
  const bool rod = bodies_[size_t(p.body)].isRod;
  std::string name = (rod ? "rod " : "particle ") + std::to_string(p.body + 1);
  if (rod) name += p.s > 0 ? " head" : p.s < 0 ? " tail" : " centre";
  return name;
}

// Joint and pin rows n = e_k: pointJacobianRow writes n into each 3-column block (x, and u for a rod end), so
// row k is nonzero only in its blocks' k-th columns.
static std::vector<char> pointRowZeros(int rows, size_t width) {
  std::vector<char> zero(size_t(rows) * width);
  for (int r = 0; r < rows; ++r)
    for (size_t c = 0; c < width; ++c) zero[size_t(r) * width + c] = int(c % 3) != r;
  return zero;
}

int RodSystem::add(Record r, ConstraintDesc d) {
  const Eval e{r.kind, int(records_.size()), resolve(r.a), resolve(r.b)};
  evals_.push_back(e);
  if (e.kind != Kind::Unit) rigidEvals_.push_back(e);
  if (r.kind == Kind::Joint || r.kind == Kind::Pin) d.structuralZero = pointRowZeros(d.rows, d.columns.size());
  records_.push_back(std::move(r));
  descs_.push_back(std::move(d));
  return int(descs_.size()) - 1;
}

int RodSystem::addJoint(BodyPoint a, BodyPoint b, const std::string& name) {
  if (a.body == b.body) throw BadInput("RodSystem: a joint needs two different bodies");
  std::vector<int> cols = pointColumns(a);
  for (int c : pointColumns(b)) cols.push_back(c);
  const int index = int(descs_.size());
  ConstraintDesc d{name.empty() ? "joint " + std::to_string(index + 1) + ": " + pointName(a) + " - " + pointName(b) : name,
                   ConstraintKind::Holonomic, kGroupJoints, 3, std::move(cols), {}};
  return add(Record{Kind::Joint, a, b}, std::move(d));
}

int RodSystem::addPin(BodyPoint a, const Eigen::Vector3d& worldPoint, const std::string& name) {
  const int index = int(descs_.size());
  ConstraintDesc d{name.empty() ? "pin " + std::to_string(index + 1) + ": " + pointName(a) : name, ConstraintKind::Holonomic,
                   kGroupPins, 3, pointColumns(a), {}};
  Record r{Kind::Pin, a, a};
  r.vec = worldPoint;
  return add(r, std::move(d));
}

int RodSystem::addPlanePoint(BodyPoint a, const Eigen::Vector3d& normal, double offset, const std::string& name) {
  if (!(normal.norm() > 0)) throw BadInput("RodSystem: plane normal must be nonzero");
  const int index = int(descs_.size());
  ConstraintDesc d{name.empty() ? "plane " + std::to_string(index + 1) + ": " + pointName(a) : name, ConstraintKind::Holonomic,
                   kGroupPlane, 1, pointColumns(a), {}};
  Record r{Kind::Plane, a, a};
  r.vec = normal.normalized();
  r.scalar = offset;
  return add(r, std::move(d));
}

int RodSystem::addNoSideSlip(BodyPoint a, const Eigen::Vector3d& normal, double sideSlip, const std::string& name) {
  if (!bodies_.at(size_t(a.body)).isRod) throw BadInput("RodSystem: a blade needs a rod (its direction is the blade)");
  if (!(normal.norm() > 0)) throw BadInput("RodSystem: blade plane normal must be nonzero");
  std::vector<int> cols = pointColumns(a);
  const int off = bodies_[size_t(a.body)].offset;
  if (cols.size() == 3)
    for (int k = 3; k < 6; ++k) cols.push_back(off + k);  // A depends on u even at the centre
  const int index = int(descs_.size());
  ConstraintDesc d{name.empty() ? "no side slip " + std::to_string(index + 1) + ": " + pointName(a) : name,
                   ConstraintKind::Nonholonomic, kGroupNoSlip, 1, std::move(cols), {}};
  Record r{Kind::NoSlip, a, a};
  r.vec = normal.normalized();
  r.scalar = sideSlip;
  return add(r, std::move(d));
}

void RodSystem::setSideSlip(int constraint, double sideSlip) {
  Record& r = records_.at(size_t(constraint));
  if (r.kind != Kind::NoSlip) throw BadInput("RodSystem: constraint " + std::to_string(constraint) + " is not a blade");
  r.scalar = sideSlip;
}

Eigen::Vector3d RodSystem::pointVelocity(BodyPoint p, const Eigen::VectorXd& v) const { return point(p, v); }

Eigen::Vector3d RodSystem::direction(int body, const Eigen::VectorXd& q) const {
  return q.segment<3>(bodies_.at(size_t(body)).offset + 3);
}

// pointJacobianRow for n = sign·e_k on a zeroed row: only the entries structuralZero leaves (k-th of each block).
void RodSystem::pointAxisRow(BodyPoint p, int k, double sign, double* jacRow, int col0) const {
  jacRow[col0 + k] = sign;
  const Body& b = bodies_[size_t(p.body)];
  if (b.isRod && p.s != 0) jacRow[col0 + 3 + k] = halfLength(p) * sign;
}

void RodSystem::pointJacobianRow(BodyPoint p, const Eigen::Vector3d& n, double* jacRow, int col0) const {
  for (int k = 0; k < 3; ++k) jacRow[col0 + k] = n[k];
  const Body& b = bodies_[size_t(p.body)];
  if (b.isRod && p.s != 0)
    for (int k = 0; k < 3; ++k) jacRow[col0 + 3 + k] = halfLength(p) * n[k];
}

void RodSystem::valueOf(const Eval& e, const Eigen::VectorXd& q, double* value) const {
  Eigen::Map<Eigen::Vector3d> gap(value);  // 3 rows for joints and pins only
  switch (e.kind) {
    case Kind::Joint: gap = pointAt(e.a, q) - pointAt(e.b, q); return;
    case Kind::Pin: gap = pointAt(e.a, q) - records_[size_t(e.record)].vec; return;
    case Kind::Unit: value[0] = 0.5 * (q.segment<3>(e.a.x + 3).squaredNorm() - 1.0); return;
    case Kind::Plane: {
      const Record& r = records_[size_t(e.record)];
      value[0] = r.vec.dot(pointAt(e.a, q)) - r.scalar;
      return;
    }
    case Kind::NoSlip: value[0] = records_[size_t(e.record)].scalar; return;  // w of a(q, q̇) = w
  }
}

void RodSystem::constraintValue(int i, const Eigen::VectorXd& q, double, double* value) const {
  valueOf(evals_[size_t(i)], q, value);
}

void RodSystem::stackedValues(const Eigen::VectorXd& q, double* stacked, bool unitRows) const {
  for (const Eval& e : unitRows ? evals_ : rigidEvals_) {
    valueOf(e, q, stacked);
    stacked += rowsOf(e.kind);
  }
}

void RodSystem::constraintValues(const Eigen::VectorXd& q, double, double* stacked) const {
  stackedValues(q, stacked, true);
}

void RodSystem::evaluateConstraint(int i, const Eigen::VectorXd& q, double, double* value, double* jac) const {
  valueOf(evals_[size_t(i)], q, value);  // constraintValue, without its virtual call
  const Record& r = records_[size_t(i)];
  const int width = int(descs_[size_t(i)].columns.size());
  switch (r.kind) {
    case Kind::Joint: {
      const int colB = bodies_[size_t(r.a.body)].isRod && r.a.s != 0 ? 6 : 3;  // pointColumns(a).size()
      for (int row = 0; row < 3; ++row) {
        std::fill(jac + row * width, jac + (row + 1) * width, 0.0);
        pointAxisRow(r.a, row, 1.0, jac + row * width, 0);
        pointAxisRow(r.b, row, -1.0, jac + row * width, colB);
      }
      return;
    }
    case Kind::Pin: {
      for (int row = 0; row < 3; ++row) {
        std::fill(jac + row * width, jac + (row + 1) * width, 0.0);
        pointAxisRow(r.a, row, 1.0, jac + row * width, 0);
      }
      return;
    }
    case Kind::Unit: {
      const Eigen::Vector3d u = direction(r.a.body, q);
      for (int k = 0; k < 3; ++k) jac[k] = u[k];
      return;
    }
    case Kind::Plane: pointJacobianRow(r.a, r.vec, jac, 0); return;
    case Kind::NoSlip: {
      // a(q, q̇) = (n × u)·(ẋ + s(l/2)u̇) = w: A = (n × u)ᵀ[I, s(l/2) I].
      const Eigen::Vector3d side = r.vec.cross(direction(r.a.body, q));
      std::fill(jac, jac + width, 0.0);
      pointJacobianRow(r.a, side, jac, 0);
      return;
    }
  }
}

void RodSystem::constraintCurvature(int i, const Eigen::VectorXd&, const Eigen::VectorXd& v, double, double* out) const {
  const Record& r = records_[size_t(i)];
  switch (r.kind) {
    case Kind::Joint:
    case Kind::Pin: out[0] = out[1] = out[2] = 0.0; return;  // linear in q
    case Kind::Plane: out[0] = 0.0; return;
    case Kind::Unit: out[0] = direction(r.a.body, v).squaredNorm(); return;  // d/dt(uᵀ) u̇
    case Kind::NoSlip:  // d/dt(n × u)·ṗ, w constant in time
      out[0] = r.vec.cross(direction(r.a.body, v)).dot(pointVelocity(r.a, v));
      return;
  }
}

void RodSystem::appliedForce(const Eigen::VectorXd&, const Eigen::VectorXd&, double, Eigen::VectorXd& f) const {
  f.setZero(massDiag_.size());
  for (const Body& b : bodies_) f.segment<3>(b.offset) = b.mass * gravity_;
}

double RodSystem::potentialEnergy(const Eigen::VectorXd& q) const {
  double V = 0.0;
  for (const Body& b : bodies_) V -= bodyPotential(b, q);
  return V;
}

std::vector<int> RodSystem::jointConstraintIndices() const {
  std::vector<int> out;
  for (size_t i = 0; i < records_.size(); ++i)
    if (records_[i].kind == Kind::Joint || records_[i].kind == Kind::Pin) out.push_back(int(i));
  return out;
}

int RodSystem::closedLoops() const {
  const int ground = int(bodies_.size());
  std::vector<int> parent(bodies_.size() + 1);
  for (size_t i = 0; i < parent.size(); ++i) parent[i] = int(i);
  auto root = [&](int a) {
    while (parent[size_t(a)] != a) a = parent[size_t(a)] = parent[size_t(parent[size_t(a)])];
    return a;
  };
  int loops = 0;  // an edge between two nodes already connected closes a loop (union–find)
  for (const Record& r : records_) {
    if (r.kind != Kind::Joint && r.kind != Kind::Pin) continue;
    const int a = root(r.a.body), b = root(r.kind == Kind::Pin ? ground : r.b.body);
    if (a == b) ++loops;
    else parent[size_t(a)] = b;
  }
  return loops;
}

// The gap of a joint or pin, as jointGaps() reports it.
static double gapOf(const Eigen::Vector3d& a, const Eigen::Vector3d& b) { return (a - b).norm(); }

std::vector<double> RodSystem::jointGaps(const Eigen::VectorXd& q) const {
  std::vector<double> gaps;
  for (const Eval& e : evals_) {
    if (e.kind == Kind::Joint) gaps.push_back(gapOf(pointAt(e.a, q), pointAt(e.b, q)));
    else if (e.kind == Kind::Pin) gaps.push_back(gapOf(pointAt(e.a, q), records_[size_t(e.record)].vec));
  }
  return gaps;
}

static double unitResidualOf(const Eigen::VectorXd& q, int x) { return 0.5 * std::abs(q.segment<3>(x + 3).squaredNorm() - 1.0); }

std::vector<double> RodSystem::unitResiduals(const Eigen::VectorXd& q) const {
  std::vector<double> out;
  for (const Eval& e : evals_)
    if (e.kind == Kind::Unit) out.push_back(unitResidualOf(q, e.a.x));
  return out;
}

namespace {
// RMS and max of a sequence of values ≥ 0, accumulated in order (0 and 0 for none).
struct RmsMax {
  double sum = 0, max = 0;
  long count = 0;
  void add(double x) {
    sum += x * x;
    max = std::max(max, x);
    ++count;
  }
  double rms() const { return count == 0 ? 0.0 : std::sqrt(sum / double(count)); }
};
}  // namespace

void RodSystem::gapStatistics(const Eigen::VectorXd& q, double& gapRms, double& gapMax, double& unitRms,
                              double& unitMax) const {
  RmsMax gaps, units;
  for (const Eval& e : evals_) {
    if (e.kind == Kind::Joint) gaps.add(gapOf(pointAt(e.a, q), pointAt(e.b, q)));
    else if (e.kind == Kind::Pin) gaps.add(gapOf(pointAt(e.a, q), records_[size_t(e.record)].vec));
    else if (e.kind == Kind::Unit) units.add(unitResidualOf(q, e.a.x));
  }
  gapRms = gaps.rms();
  gapMax = gaps.max;
  unitRms = units.rms();
  unitMax = units.max;
}

double RodSystem::endSpeed(int body, const Eigen::VectorXd& v) const {
  const Body& b = bodies_.at(size_t(body));
  if (!b.isRod) return pointVelocity({body, 0}, v).norm();
  return std::max(pointVelocity({body, 1}, v).norm(), pointVelocity({body, -1}, v).norm());
}

// endSpeed's max over the bodies on squared speeds and one square root: √ is monotone and correctly rounded, so
// √(max a_i) = max √a_i, the same bits (every step of a scene: rodDiagnostics).
double RodSystem::maxEndSpeed(const Eigen::VectorXd& v) const {
  double s2 = 0.0;
  for (size_t b = 0; b < bodies_.size(); ++b) s2 = std::max(s2, squaredEndSpeed(int(b), v));
  return std::sqrt(s2);
}

double RodSystem::squaredEndSpeed(int b, const Eigen::VectorXd& v) const {
  if (!bodies_[size_t(b)].isRod) return pointAt(resolve({b, 0}), v).squaredNorm();
  const double head = pointAt(resolve({b, 1}), v).squaredNorm();
  return std::max(head, pointAt(resolve({b, -1}), v).squaredNorm());
}

// potentialEnergy and maxEndSpeed in one pass over the bodies, each summed or maxed in the same order (same bits).
void RodSystem::bodyStatistics(const Eigen::VectorXd& q, const Eigen::VectorXd& v, double& potential,
                               double& maxSpeed) const {
  double V = 0.0, s2 = 0.0;
  for (size_t b = 0; b < bodies_.size(); ++b) {
    V -= bodyPotential(bodies_[b], q);
    s2 = std::max(s2, squaredEndSpeed(int(b), v));
  }
  potential = V;
  maxSpeed = std::sqrt(s2);
}

double RodSystem::constraintViolation(int i, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double t) const {
  const ConstraintDesc& d = descs_.at(size_t(i));
  double value[3], jac[3 * 12];
  evaluateConstraint(i, q, t, value, jac);
  if (d.kind == ConstraintKind::Holonomic) return Eigen::Map<Eigen::VectorXd>(value, d.rows).norm();
  // Nonholonomic: |A v − w|.
  double a = 0.0;
  for (size_t c = 0; c < d.columns.size(); ++c) a += jac[c] * v[d.columns[c]];
  return std::abs(a - value[0]);
}

RodDiagnostics rodDiagnostics(const RodSystem& system, const MechanicalState& state) {
  RodDiagnostics d;
  d.kinetic = system.kineticEnergy(state.v);
  system.bodyStatistics(state.q, state.v, d.potential, d.maxSpeed);
  d.energy = d.kinetic + d.potential;
  system.gapStatistics(state.q, d.constraintRms, d.constraintMax, d.unitRms, d.unitMax);
  return d;
}

}  // namespace varsim
