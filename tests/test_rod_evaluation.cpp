// The batched constraint evaluation of rods (issue 16): RodSystem / RigidRodModel constraintValues and
// evaluateStacked (the one-pass paths ConstraintJacobian uses) against the per-constraint definitions
// (constraintValue, evaluateConstraint) bit for bit, and RigidRodModel::rotationStiffness from its
// copied constant blocks against the director Jacobian evaluated at q, on every constraint kind.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "engine/integrators/constraint_jacobian.h"
#include "engine/integrators/rigid_rod_model.h"
#include "engine/models/rod_system.h"

using namespace varsim;

namespace {

// Every constraint kind and point kind: rod ends, a rod centre, a particle; joints, pins, a plane, a blade.
struct AllKinds {
  RodSystem system;
  AllKinds() {
    system.addRod(0.3, 0.7, {0, 0, 0}, {1, 0, 0});
    system.addRod(0.5, 1.1, {1, 0, 0}, {0, 0, 1});
    system.addRod(0.2, 0.4, {0, 1, 0}, {0, 1, 0});
    system.addParticle(0.4, {2, 0, 0});
    system.addPin({0, -1}, {-0.35, 0, 0});
    system.addJoint({0, +1}, {1, -1});
    system.addJoint({1, +1}, {3, 0});
    system.addJoint({2, 0}, {0, +1});
    system.addPlanePoint({2, -1}, {0.2, 0.3, 1.0}, 0.1);
    system.addPin({3, 0}, {2, 0, 0.5});
    system.addNoSideSlip({1, -1}, {0, 0, 1}, 0.2);
    system.addNoSideSlip({2, 0}, {0, 1, 1});
  }
};

// A random pose (unit directions) of the system, as the stepper meets it.
Eigen::VectorXd randomPose(const RodSystem& system, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0.0, 1.0);
  Eigen::VectorXd q = system.initialState().q;
  for (const auto& b : system.bodies()) {
    for (int k = 0; k < 3; ++k) q[b.offset + k] += n(rng);
    if (b.isRod) q.segment<3>(b.offset + 3) = Eigen::Vector3d(n(rng), n(rng), n(rng)).normalized();
  }
  return q;
}

// Every entry of the stacked J equals the model's dense block, bit for bit; structural zeros are 0 there.
// The Jacobian is evaluated at `before` first: entries fixed for all q (kept from that call) must still be right.
void checkAgainstBlocks(const ConstrainedModel& model, const Eigen::VectorXd& before, const Eigen::VectorXd& q) {
  ConstraintJacobian J(model);
  J.evaluate(before, 0.1);
  J.evaluate(q, 0.3);
  Eigen::VectorXd values(J.rows());
  model.constraintValues(q, 0.3, values.data());
  const auto& cs = model.constraints();
  long mismatches = 0, checked = 0;
  for (int i = 0; i < int(cs.size()); ++i) {
    const ConstraintDesc& d = cs[size_t(i)];
    const size_t width = d.columns.size();
    double value[3] = {0, 0, 0}, single[3] = {0, 0, 0}, block[3 * 12];
    if (d.rows == 0) continue;
    model.evaluateConstraint(i, q, 0.3, value, block);
    model.constraintValue(i, q, 0.3, single);
    for (int r = 0; r < d.rows; ++r) {
      const int row = J.rowOffset(i) + r;
      mismatches += J.value()[row] != value[r] || values[row] != value[r] || single[r] != value[r];
      for (size_t c = 0; c < width; ++c, ++checked) {
        const size_t e = size_t(r) * width + c;
        if (!d.structuralZero.empty() && d.structuralZero[e])
          mismatches += block[e] != 0.0;
        else
          mismatches += J.matrix().coeff(row, d.columns[c]) != block[e];
      }
    }
  }
  CHECK(checked > 100);
  CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("rod evaluation: stacked values and Jacobian equal the per-constraint definitions bit for bit") {
  AllKinds all;
  const RigidRodModel rigid(all.system);
  for (unsigned seed : {1u, 2u, 3u}) {
    const Eigen::VectorXd q = randomPose(all.system, seed), before = randomPose(all.system, seed + 10);
    checkAgainstBlocks(all.system, before, q);  // director model: ConstraintJacobian's per-constraint path
    checkAgainstBlocks(rigid, before, q);  // rigid view: its one-pass entries and the blades through evaluateConstraint
  }
}

TEST_CASE("rod evaluation: rotationStiffness from the constant blocks equals h max(u . sum lambda dg/du, 0) at q") {
  AllKinds all;
  const RigidRodModel rigid(all.system);
  const auto& cs = rigid.constraints();
  std::mt19937 rng(11);
  std::normal_distribution<double> n(0.0, 1.0);
  const double h = 1.0 / 60;
  for (unsigned seed : {4u, 5u}) {
    const Eigen::VectorXd q = randomPose(all.system, seed);
    Eigen::VectorXd lambda(rigid.totalRows());
    for (long k = 0; k < lambda.size(); ++k) lambda[k] = n(rng);
    Eigen::VectorXd c;
    rigid.rotationStiffness(q, lambda, h, 0.3, c);
    // The definition, evaluated here at q: φ_rod = Σ_i Σ_r λ_{i,r} ∂g_{i,r}/∂u_rod over holonomic rows.
    Eigen::VectorXd expected = Eigen::VectorXd::Zero(q.size());
    int row = 0;
    for (int i = 0; i < int(cs.size()); row += cs[size_t(i)].rows, ++i) {
      const ConstraintDesc& d = cs[size_t(i)];
      if (d.rows == 0 || d.kind != ConstraintKind::Holonomic) continue;
      double value[3], jac[3 * 12];
      all.system.evaluateConstraint(i, q, 0.3, value, jac);
      for (size_t col = 0; col < d.columns.size(); ++col) {
        const int coordinate = d.columns[col];
        const auto rod = std::find_if(all.system.bodies().begin(), all.system.bodies().end(),
                                      [&](const RodSystem::Body& b) { return b.isRod && coordinate == b.offset + 3; });
        if (rod == all.system.bodies().end()) continue;
        Eigen::Vector3d phi = Eigen::Vector3d::Zero();
        for (int r = 0; r < d.rows; ++r)
          phi += lambda[row + r] * Eigen::Map<const Eigen::Vector3d>(jac + size_t(r) * d.columns.size() + col);
        expected.segment<3>(coordinate).array() += h * q.segment<3>(coordinate).dot(phi);
      }
    }
    expected = expected.cwiseMax(0.0);
    CHECK(expected.lpNorm<Eigen::Infinity>() > 0);
    CHECK((c - expected).lpNorm<Eigen::Infinity>() == 0.0);
  }
}

TEST_CASE("rod evaluation: gapStatistics equals the RMS and max of jointGaps() and unitResiduals() bit for bit") {
  AllKinds all;
  const Eigen::VectorXd q = randomPose(all.system, 6) * 1.01;  // |u| ≠ 1: unit residuals nonzero
  const auto rmsMax = [](const std::vector<double>& x, double& rms, double& max) {
    double sum = 0;
    max = 0;
    for (double v : x) sum += v * v, max = std::max(max, v);
    rms = std::sqrt(sum / double(x.size()));
  };
  double gapRms, gapMax, unitRms, unitMax, rms, max;
  all.system.gapStatistics(q, gapRms, gapMax, unitRms, unitMax);
  rmsMax(all.system.jointGaps(q), rms, max);
  CHECK(max > 0);
  CHECK((gapRms == rms && gapMax == max));
  rmsMax(all.system.unitResiduals(q), rms, max);
  CHECK(max > 0);
  CHECK((unitRms == rms && unitMax == max));
}

TEST_CASE("rod evaluation: maxEndSpeed is the largest endSpeed bit for bit") {
  AllKinds all;
  const Eigen::VectorXd v = randomPose(all.system, 7);  // any numbers serve as velocities
  double largest = 0;
  for (int b = 0; b < int(all.system.bodies().size()); ++b) largest = std::max(largest, all.system.endSpeed(b, v));
  CHECK(largest > 0);
  CHECK(all.system.maxEndSpeed(v) == largest);
}
