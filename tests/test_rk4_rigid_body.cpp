// Tests of the RK4 rigid-body baseline (seed 000 Sec. 3.3): agreement with the reference RK4 file and with
// the ground truth, observed order 4, the falling body, unit quaternion, divergence and save/load.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "engine/integrators/rk4_rigid_body.h"
#include "engine/sim/errors.h"
#include "tests/rigid_body_fixtures.h"

using namespace varsim;
using namespace varsim::test;

TEST_CASE("ReferenceRk4FileSameSchemeAndGroundTruth") {
  const auto ref = test::readCsv(VARSIM_TEST_DATA "/reference/rigid_body_free_rk4.csv");
  const auto gt = test::readCsv(VARSIM_TEST_DATA "/reference/rigid_body_free.csv");  // gt_* columns
  REQUIRE(ref.rows.size() == 1201);
  Rk4RigidBody rk(referenceBody());
  rk.initialize(se3::Pose{}, referenceXi(), 0.0);
  double dx = 0, drot = 0, dE = 0, gtRot = 0, gtX = 0, maxNormErr = 0;
  for (size_t k = 0; k < ref.rows.size(); ++k) {
    CHECK(rk.time() == ref.at(k, "t"));
    dx = std::max(dx, (rk.pose().x - posColumns(ref, k)).norm());
    drot = std::max(drot, quat::angleBetween(rk.quaternion(), quatColumns(ref, k)));
    dE = std::max(dE, std::abs(rk.energy() - ref.at(k, "energy")));
    gtRot = std::max(gtRot, quat::angleBetween(rk.quaternion(), quatColumns(gt, k, "gt_")));
    gtX = std::max(gtX, (rk.pose().x - posColumns(gt, k, "gt_")).norm());
    maxNormErr = std::max(maxNormErr, std::abs(rk.quaternion().norm() - 1.0));
    rk.step(0.05, {});
  }
  MESSAGE("RK4 vs reference RK4: max |dx| " << dx << " m, rot " << drot << " rad, |dE| " << dE << "; vs gt " << gtRot
                                            << " rad / " << gtX << " m; max ||q|-1| " << maxNormErr);
  CHECK(dx < 1e-11);
  CHECK(drot < 1e-11);
  CHECK(dE < 1e-12);
  CHECK(gtRot == doctest::Approx(6.8e-6).epsilon(0.05));  // README: 6.8e-6 rad / 6.0e-4 m
  CHECK(gtX == doctest::Approx(6.0e-4).epsilon(0.05));
  CHECK(maxNormErr < 1e-15);
  // README: momentum is not conserved by RK4: L drifts by 6.1e-4 over 60 s.
  const Vector3d L0(0.6, 6.0, -1.4);
  CHECK((rk.spatialMomentum().head<3>() - L0).norm() > 1e-4);
}

TEST_CASE("ObservedOrderFour") {
  // Error against the DOP853 ground truth (accurate to 3e-11) at T = 3 s.
  const auto gt = test::readCsv(VARSIM_TEST_DATA "/reference/rigid_body_free.csv");
  const size_t row = 60;  // t = 3 s
  const std::vector<double> hs = {0.1, 0.05, 0.025, 0.0125};
  std::vector<double> err;
  for (double h : hs) {
    Rk4RigidBody rk(referenceBody());
    rk.initialize(se3::Pose{}, referenceXi(), 0.0);
    for (long k = 0; k < std::lround(3.0 / h); ++k) rk.step(h, {});
    err.push_back(quat::angleBetween(rk.quaternion(), quatColumns(gt, row, "gt_")) +
                  (rk.pose().x - posColumns(gt, row, "gt_")).norm());
  }
  const double slope = logLogSlope(hs, err);
  MESSAGE("RK4 pose error at 3 s: " << err[0] << ", " << err[1] << ", " << err[2] << ", " << err[3] << "; slope " << slope);
  CHECK(slope == doctest::Approx(4.0).epsilon(0.05));
}

TEST_CASE("FallingBodyMatchesClosedForm") {
  // Gravity only: x(t) = v0 t + g t^2/2 in the world (README); attitude as in free flight.
  const auto ref = test::readCsv(VARSIM_TEST_DATA "/reference/rigid_body_falling.csv");
  const WrenchField g = gravityField(2.0, Vector3d(0, 0, -9.81));
  Rk4RigidBody rk(referenceBody());
  rk.initialize(se3::Pose{}, referenceXi(), 0.0);
  double dx = 0, drot = 0;
  for (size_t k = 0; k < ref.rows.size(); ++k) {
    dx = std::max(dx, (rk.pose().x - posColumns(ref, k, "gt_")).norm());
    drot = std::max(drot, quat::angleBetween(rk.quaternion(), quatColumns(ref, k, "gt_")));
    if (k + 1 < ref.rows.size()) rk.step(0.01, g);
  }
  MESSAGE("RK4 falling, h = 0.01, 4 s: max position error " << dx << " m, attitude " << drot << " rad");
  CHECK(dx < 1e-6);
  CHECK(drot < 1e-8);
  const Vector6d pi = rk.spatialMomentum();
  CHECK(pi[5] == doctest::Approx(0.4 - 2.0 * 9.81 * 4.0).epsilon(1e-8));  // body-frame RK4: O(h^4), not exact
}

TEST_CASE("DivergenceAndSaveLoad") {
  Rk4RigidBody rk(referenceBody());
  rk.initialize(se3::Pose{}, referenceXi(), 0.0);
  for (int k = 0; k < 50; ++k) rk.step(0.02, {});
  const auto mid = rk.saveState();
  const WrenchField nan = [](const se3::Pose&, const Vector6d&, double) { return Vector6d::Constant(NAN); };
  CHECK_THROWS_AS(rk.step(0.02, nan), SimulationDiverged);
  CHECK(rk.saveState() == mid);
  for (int k = 0; k < 50; ++k) rk.step(0.02, {});
  Rk4RigidBody other(referenceBody());
  other.loadState(mid);
  for (int k = 0; k < 50; ++k) other.step(0.02, {});
  CHECK(other.saveState() == rk.saveState());
  CHECK_THROWS_AS(rk.step(0.0, {}), BadInput);
  CHECK_THROWS_AS(other.loadState({1.0, 2.0}), BadInput);
  CHECK_THROWS_AS(Rk4RigidBody(principalInertia(-2.0, Vector3d(1, 1, 1))), BadInput);
}
