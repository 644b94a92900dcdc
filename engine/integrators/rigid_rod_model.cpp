// Rigid-rod view of a RodSystem for SPOOK (see rigid_rod_model.h): the twist Jacobian is the
// director Jacobian with its u-blocks mapped through u̇ = ω × u, so every constraint kind of the
// RodSystem (joints, pins, planes, blades) keeps its one definition there.
#include "engine/integrators/rigid_rod_model.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

#include "engine/lie/so3_rotate.h"

namespace varsim {

// c if the 3-row u-block at `a` (row stride `width`) is c·I with +0.0 off the diagonal, and the ω-block's mask
// stores exactly the j ≠ r entries; NaN otherwise.
static double scaledIdentity(const ConstraintDesc& d, const double* a, size_t width, int position) {
  if (d.rows != 3 || d.structuralZero.empty()) return std::nan("");
  for (int r = 0; r < 3; ++r)
    for (int m = 0; m < 3; ++m) {
      const double x = a[size_t(r) * width + size_t(m)];
      const bool diagonal = m == r;
      if (diagonal ? x != a[0] : (x != 0.0 || std::signbit(x))) return std::nan("");
      if (bool(d.structuralZero[size_t(r) * width + size_t(position + m)]) != diagonal) return std::nan("");
    }
  return a[0];
}

RigidRodModel::RigidRodModel(const RodSystem& system) : system_(system), descs_(system.constraints()) {
  std::vector<int> rodOf(size_t(system.coordinateCount()), -1);  // coordinate → offset of its rod's u, if a u column
  for (const auto& b : system.bodies()) {
    (b.isRod ? rodOffsets_ : particleOffsets_).push_back(b.offset);
    if (b.isRod)
      for (int k = 3; k < 6; ++k) rodOf[size_t(b.offset + k)] = b.offset;
  }
  uBlocks_.resize(descs_.size());
  for (size_t i = 0; i < descs_.size(); ++i) {
    ConstraintDesc& d = descs_[i];
    if (d.group == kGroupUnit) {  // u·u = 1 holds on S² by construction
      d.rows = 0;
      d.columns.clear();
      continue;
    }
    for (size_t c = 0; c < d.columns.size(); ++c)
      if (rodOf[size_t(d.columns[c])] >= 0 && d.columns[c] == rodOf[size_t(d.columns[c])] + 3)
        uBlocks_[i].push_back({int(c), rodOf[size_t(d.columns[c])]});
    mapStructuralZeros(d, uBlocks_[i]);
  }
  // Joints, pins and planes: their director blocks (x-block ±I or n, u-block s(l/2)·the same) once for all q.
  constantStart_.assign(descs_.size(), -1);
  const Eigen::VectorXd q0 = system.initialState().q;
  double value[3], jac[3 * 12];
  for (size_t i = 0; i < descs_.size(); ++i) {
    if (descs_[i].rows == 0 || !system.constantJacobian(int(i))) continue;
    system.evaluateConstraint(int(i), q0, 0.0, value, jac);
    constantStart_[i] = int(constantBlocks_.size());
    constantBlocks_.insert(constantBlocks_.end(), jac, jac + size_t(descs_[i].rows) * descs_[i].columns.size());
  }
  buildStackedEntries();
  int row = 0;  // constraint i's first multiplier: rows stacked in constraint order (ConstraintJacobian)
  for (size_t i = 0; i < descs_.size(); row += descs_[i].rows, ++i) {
    const ConstraintDesc& d = descs_[i];
    if (d.rows == 0 || d.kind != ConstraintKind::Holonomic) continue;
    const int width = int(d.columns.size());
    for (const UBlock& ub : uBlocks_[i]) {
      StiffnessTerm term{int(i), row, d.rows, ub.position, ub.offset, -1, width, std::nan("")};
      if (constantStart_[i] >= 0)
        term.scale =
            scaledIdentity(d, constantBlocks_.data() + constantStart_[i] + ub.position, size_t(width), ub.position);
      if (constantStart_[i] >= 0 && std::isnan(term.scale)) {  // its rows' u-blocks, packed: read in sequence
        term.block = int(stiffnessBlocks_.size());
        term.stride = 3;
        for (int r = 0; r < d.rows; ++r) {
          const double* a = constantBlocks_.data() + constantStart_[i] + r * width + ub.position;
          stiffnessBlocks_.insert(stiffnessBlocks_.end(), a, a + 3);
        }
      }
      stiffnessTerms_.push_back(term);
    }
  }
}

// evaluateConstraint's block of a constant-block constraint, entry by entry in evaluateStacked's order: an entry in
// a u-block at column j of the block is (u × a)_j with a the director row there, every other entry the constant.
void RigidRodModel::buildStackedEntries() {
  int k = 0;
  for (size_t i = 0; i < descs_.size(); ++i) {
    const ConstraintDesc& d = descs_[i];
    const size_t width = d.columns.size();
    const size_t count = size_t(d.rows) * width;
    const auto stored = [&](size_t e) { return d.structuralZero.empty() || !d.structuralZero[e]; };
    if (constantStart_[i] < 0) {
      if (d.rows > 0) otherBlocks_.push_back({int(i), k});
      for (size_t e = 0; e < count; ++e) k += stored(e);
      continue;
    }
    const double* block = constantBlocks_.data() + constantStart_[i];
    std::vector<int> group(uBlocks_[i].size(), -1);  // per u-block: its ScaledGroup, if c·I
    for (size_t b = 0; b < group.size(); ++b) {
      const double c = scaledIdentity(d, block + uBlocks_[i][b].position, width, uBlocks_[i][b].position);
      if (std::isnan(c)) continue;
      group[b] = int(scaledGroups_.size());
      scaledGroups_.push_back({uBlocks_[i][b].offset + 3, c, {}});
    }
    std::vector<int> filled(group.size(), 0);
    for (size_t e = 0; e < count; ++e) {
      if (!stored(e)) continue;
      const int column = int(e % width);
      const double* row = block + (e / width) * width;
      const UBlock* ub = nullptr;
      for (const UBlock& b : uBlocks_[i])
        if (column >= b.position && column < b.position + 3) ub = &b;
      if (!ub) {
        fixedEntries_.push_back({k++, block[e]});
        continue;
      }
      const size_t b = size_t(ub - uBlocks_[i].data());
      if (group[b] >= 0) {  // row-major: (r, j ≠ r) in the order evaluateStacked computes them
        scaledGroups_[size_t(group[b])].k[filled[b]++] = k++;
        continue;
      }
      const int j = column - ub->position, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const double* a = row + ub->position;
      crossEntries_.push_back({k++, ub->offset + 3 + j1, ub->offset + 3 + j2, a[j2], a[j1]});
    }
  }
}

bool RigidRodModel::evaluateStacked(const Eigen::VectorXd& q, double t, double* stacked, double* jac, const int* slot,
                                    bool keepFixed) const {
  system_.stackedValues(q, stacked, false);
  if (!keepFixed)
    for (const FixedEntry& e : fixedEntries_) jac[slot[e.k]] = e.value;
  const double* x = q.data();
  for (const CrossEntry& e : crossEntries_) jac[slot[e.k]] = x[e.i1] * e.c1 - x[e.i2] * e.c2;
  for (const ScaledGroup& g : scaledGroups_) {
    const double* u = x + g.u;
    int n = 0;
    for (int r = 0; r < 3; ++r) {
      double a[3] = {0.0, 0.0, 0.0};
      a[r] = g.c;
      for (int j = 0; j < 3; ++j)
        if (j != r) jac[slot[g.k[n++]]] = u[(j + 1) % 3] * a[(j + 2) % 3] - u[(j + 2) % 3] * a[(j + 1) % 3];
    }
  }
  double value[3], block[3 * 12];
  for (const OtherBlock& o : otherBlocks_) {
    const ConstraintDesc& d = descs_[size_t(o.constraint)];
    evaluateConstraint(o.constraint, q, t, value, block);
    const int* s = slot + o.k;
    for (size_t e = 0; e < size_t(d.rows) * d.columns.size(); ++e)
      if (d.structuralZero.empty() || !d.structuralZero[e]) jac[*s++] = block[e];
  }
  return true;
}

const double* RigidRodModel::directorBlock(int i, const Eigen::VectorXd& q, double t, double* scratch) const {
  if (constantStart_[size_t(i)] >= 0) return constantBlocks_.data() + constantStart_[size_t(i)];
  double value[3];
  system_.evaluateConstraint(i, q, t, value, scratch);
  return scratch;
}

// (u × a)_k = u_{k+1} a_{k+2} − u_{k+2} a_{k+1}: structurally zero iff a_{k+1} and a_{k+2} are.
void RigidRodModel::mapStructuralZeros(ConstraintDesc& d, const std::vector<UBlock>& blocks) {
  if (d.structuralZero.empty()) return;
  const size_t width = d.columns.size();
  for (const UBlock& ub : blocks)
    for (int r = 0; r < d.rows; ++r) {
      char* z = d.structuralZero.data() + size_t(r) * width + size_t(ub.position);
      const char a[3] = {z[0], z[1], z[2]};
      for (int k = 0; k < 3; ++k) z[k] = a[(k + 1) % 3] && a[(k + 2) % 3];
    }
}

// Per body: every coordinate written once (no copy of the whole vector first), from the packed offsets.
void RigidRodModel::toTwist(const Eigen::VectorXd& q, const Eigen::VectorXd& rates, Eigen::VectorXd& out) const {
  out.resize(rates.size());
  for (const int o : particleOffsets_) out.segment<3>(o) = rates.segment<3>(o);
  for (const int o : rodOffsets_) {
    const Eigen::Vector3d u = q.segment<3>(o + 3);
    out.segment<3>(o) = rates.segment<3>(o);
    out.segment<3>(o + 3) = u.cross(rates.segment<3>(o + 3));
  }
}

void RigidRodModel::toRates(const Eigen::VectorXd& q, const Eigen::VectorXd& twist, Eigen::VectorXd& out) const {
  out.resize(twist.size());
  for (const int o : particleOffsets_) out.segment<3>(o) = twist.segment<3>(o);
  for (const int o : rodOffsets_) {
    const Eigen::Vector3d u = q.segment<3>(o + 3);
    out.segment<3>(o) = twist.segment<3>(o);
    out.segment<3>(o + 3) = twist.segment<3>(o + 3).cross(u);
  }
}

// The director is rotated as a vector (so3::rotate), not through exp's 3×3 matrix: a third of the work.
void RigidRodModel::retract(const Eigen::VectorXd& q, const Eigen::VectorXd& twist, double h, Eigen::VectorXd& qNext) const {
  qNext.resize(q.size());
  for (const int o : particleOffsets_) qNext.segment<3>(o) = q.segment<3>(o) + h * twist.segment<3>(o);
  for (const int o : rodOffsets_) {
    qNext.segment<3>(o) = q.segment<3>(o) + h * twist.segment<3>(o);
    const Eigen::Vector3d u = so3::rotate(h * twist.segment<3>(o + 3), q.segment<3>(o + 3));
    qNext.segment<3>(o + 3) = u.normalized();
  }
}

// Bit for bit retract(h) and retract(−h): −(hẋ) and −(hω) are exact negations, and rotate(−w) is
// rotateBothWays' backward (so3.cpp).
void RigidRodModel::retractBothWays(const Eigen::VectorXd& q, const Eigen::VectorXd& twist, double h,
                                    Eigen::VectorXd& forward, Eigen::VectorXd& backward) const {
  forward.resize(q.size());
  backward.resize(q.size());
  const auto translate = [&](int o) {
    const Eigen::Vector3d x = q.segment<3>(o), dx = h * twist.segment<3>(o);
    forward.segment<3>(o) = x + dx;
    backward.segment<3>(o) = x - dx;
  };
  for (const int o : particleOffsets_) translate(o);
  Eigen::Vector3d uf, ub;
  for (const int o : rodOffsets_) {
    translate(o);
    so3::rotateBothWays(h * twist.segment<3>(o + 3), q.segment<3>(o + 3), uf, ub);
    forward.segment<3>(o + 3) = uf.normalized();
    backward.segment<3>(o + 3) = ub.normalized();
  }
}

double RigidRodModel::endLinearisationError(const Eigen::VectorXd& q, const Eigen::VectorXd& twist,
                                            const Eigen::VectorXd& qNext, const Eigen::VectorXd& twistNext, double h,
                                            Eigen::VectorXd& predicted) const {
  retract(q, twist, h, predicted);
  return endLinearisationErrorAbout(predicted, twist, qNext, twistNext, h);
}

double RigidRodModel::endLinearisationErrorAbout(const Eigen::VectorXd& qTilde, const Eigen::VectorXd& twist,
                                                 const Eigen::VectorXd& qNext, const Eigen::VectorXd& twistNext,
                                                 double h) const {
  double worst = 0;
  for (const auto& b : system_.bodies()) {
    if (!b.isRod) continue;
    const Eigen::Vector3d uTilde = qTilde.segment<3>(b.offset + 3);
    const Eigen::Vector3d dw = twistNext.segment<3>(b.offset + 3) - twist.segment<3>(b.offset + 3);
    const Eigen::Vector3d miss = qNext.segment<3>(b.offset + 3) - uTilde - h * dw.cross(uTilde);
    worst = std::max(worst, 0.5 * b.length * miss.norm());
  }
  return worst;
}

void RigidRodModel::rotationStiffness(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda, double h, double t,
                                      Eigen::VectorXd& c) const {
  c.setZero(coordinateCount());
  double scratch[3 * 12];
  for (const StiffnessTerm& s : stiffnessTerms_) {
    const double* u = q.data() + s.offset + 3;
    double uPhi;
    if (s.scale == s.scale) {  // a = c·I (a ball joint's rod end): the sum below with a_r = c e_r, term for term
      const double c0 = s.scale, l0 = lambda[s.row], l1 = lambda[s.row + 1], l2 = lambda[s.row + 2];
      const double p0 = ((0.0 + l0 * c0) + l1 * 0.0) + l2 * 0.0, p1 = ((0.0 + l0 * 0.0) + l1 * c0) + l2 * 0.0,
                   p2 = ((0.0 + l0 * 0.0) + l1 * 0.0) + l2 * c0;
      uPhi = (u[0] * p0 + u[1] * p1) + u[2] * p2;  // in scalars, as Eigen's 3-vector dot sums (no store-forward stall)
    } else {
      const double* a = s.block >= 0 ? stiffnessBlocks_.data() + s.block
                                     : directorBlock(s.constraint, q, t, scratch) + s.position;  // a = ∂g/∂u
      Eigen::Vector3d phi = Eigen::Vector3d::Zero();
      for (int r = 0; r < s.rows; ++r) phi += lambda[s.row + r] * Eigen::Map<const Eigen::Vector3d>(a + r * s.stride);
      uPhi = q.segment<3>(s.offset + 3).dot(phi);
    }
    c.segment<3>(s.offset + 3).array() += h * uPhi;
  }
  c = c.cwiseMax(0.0);
}

void RigidRodModel::evaluateConstraint(int i, const Eigen::VectorXd& q, double t, double* value, double* jac) const {
  const ConstraintDesc& d = descs_[size_t(i)];
  if (d.rows == 0) return;
  const int width = int(d.columns.size());
  if (constantStart_[size_t(i)] >= 0) {
    system_.RodSystem::constraintValue(i, q, t, value);
    const double* block = constantBlocks_.data() + constantStart_[size_t(i)];
    std::copy(block, block + d.rows * width, jac);
  } else {
    system_.evaluateConstraint(i, q, t, value, jac);
  }
  for (const UBlock& ub : uBlocks_[size_t(i)]) {
    const Eigen::Vector3d u = q.segment<3>(ub.offset + 3);
    for (int r = 0; r < d.rows; ++r) {
      Eigen::Map<Eigen::Vector3d> a(jac + r * width + ub.position);
      a = u.cross(Eigen::Vector3d(a));
    }
  }
}

void RigidRodModel::constraintValue(int i, const Eigen::VectorXd& q, double t, double* value) const {
  if (descs_[size_t(i)].rows > 0) system_.constraintValue(i, q, t, value);
}

void RigidRodModel::constraintValues(const Eigen::VectorXd& q, double, double* stacked) const {
  system_.stackedValues(q, stacked, false);  // the unit rows are the ones with 0 rows here
}

void RigidRodModel::constraintCurvature(int i, const Eigen::VectorXd& q, const Eigen::VectorXd& twist, double t,
                                        double* out) const {
  const ConstraintDesc& d = descs_[size_t(i)];
  if (d.rows == 0) return;
  Eigen::VectorXd rates;
  toRates(q, twist, rates);
  system_.constraintCurvature(i, q, rates, t, out);
  double scratch[3 * 12];
  const double* jac = directorBlock(i, q, t, scratch);  // the director u-blocks a = ∂g/∂u
  const int width = int(d.columns.size());
  for (const UBlock& ub : uBlocks_[size_t(i)]) {
    const Eigen::Vector3d u = q.segment<3>(ub.offset + 3), w = twist.segment<3>(ub.offset + 3);
    const Eigen::Vector3d uDotDot = w.cross(w.cross(u));  // ü at constant ω
    for (int r = 0; r < d.rows; ++r) out[r] += Eigen::Map<const Eigen::Vector3d>(jac + r * width + ub.position).dot(uDotDot);
  }
}

}  // namespace varsim
