// Tests of the RK2 and implicit RK2 rigid-body baselines (seed 000 Sec. 3.3,
// Fig. 4 "RK2", "RK2i"): observed order 2 against the DOP853 ground truth (free
// and falling body), unit quaternion after renormalisation, blow-up reported as
// SimulationDiverged with the state unchanged, save/load, the factory's names.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "engine/integrators/rigid_body_baseline.h"
#include "engine/sim/errors.h"
#include "tests/rigid_body_fixtures.h"
#include "tests/scene_harness.h"

using namespace varsim;
using namespace varsim::test;

namespace {

// Pose error (rotation angle + position distance) at time T against the
// ground-truth row, for each h.
std::vector<double> poseErrors(const std::string& method, const std::vector<double>& hs, double T, const CsvTable& gt,
                               size_t row, const WrenchField& f) {
  std::vector<double> err;
  for (double h : hs) {
    auto body = makeRigidBodyBaseline(method, referenceBody());
    body->initialize(se3::Pose{}, referenceXi(), 0.0);
    for (long k = 0; k < std::lround(T / h); ++k) body->step(h, f);
    err.push_back(quat::angleBetween(body->quaternion(), quatColumns(gt, row, "gt_")) +
                  (body->pose().x - posColumns(gt, row, "gt_")).norm());
  }
  return err;
}

}  // namespace

TEST_CASE("ObservedOrderTwoFreeAndFalling") {
  const auto free = readCsv(VARSIM_TEST_DATA "/reference/rigid_body_free.csv");        // rows every 0.05 s
  const auto falling = readCsv(VARSIM_TEST_DATA "/reference/rigid_body_falling.csv");  // rows every 0.01 s
  const std::vector<double> hs = {0.1, 0.05, 0.025, 0.0125};
  const WrenchField gravity = gravityField(2.0, Vector3d(0, 0, -9.81));
  for (const char* method : {"rk2", "rk2i"}) {
    const auto eFree = poseErrors(method, hs, 3.0, free, 60, {});
    const auto eFall = poseErrors(method, hs, 3.0, falling, 300, gravity);
    const double sFree = logLogSlope(hs, eFree), sFall = logLogSlope(hs, eFall);
    MESSAGE(std::string(method) << " pose error at 3 s, free: " << eFree[0] << " ... " << eFree[3] << " slope " << sFree
                                << "; falling: " << eFall[0] << " ... " << eFall[3] << " slope " << sFall);
    CHECK(sFree == doctest::Approx(2.0).epsilon(0.05));
    CHECK(sFall == doctest::Approx(2.0).epsilon(0.05));
  }
}

TEST_CASE("UnitQuaternionAfterRenormalisation") {
  for (const char* method : {"rk2", "rk2i", "rk4", "newmark"}) {
    auto body = makeRigidBodyBaseline(method, referenceBody());
    body->initialize(se3::Pose{}, referenceXi(), 0.0);
    double worst = 0.0;
    for (int k = 0; k < 500; ++k) {
      body->step(0.2, {});  // h |w| = 0.3: large, still stable
      worst = std::max(worst, std::abs(body->quaternion().norm() - 1.0));
    }
    MESSAGE(std::string(method) << ": max ||q| - 1| over 500 steps at h = 0.2: " << worst);
    CHECK(worst < 4e-16);
    CHECK(std::string(body->name()) == method);
  }
}

TEST_CASE("BlowUpIsReportedNotACrash") {
  // A fast spin about the intermediate axis at h |w| = 20: the explicit methods
  // overflow within a few steps and throw with the state of the last good step;
  // the implicit ones (A-stable midpoint on the velocity, Newmark's trapezoidal
  // velocity update) converge and stay bounded (measured: |w| 10.0 and 7.2
  // after 2000 steps).
  const RigidBodyInertia body = principalInertia(1.0, Vector3d(0.1, 0.4, 0.45));
  Vector6d xi0;
  xi0 << 0.1, 10.0, 0.1, 0.0, 0.0, 0.0;
  for (const char* method : {"rk2", "rk2i", "rk4", "newmark"}) {
    auto b = makeRigidBodyBaseline(method, body);
    b->initialize(se3::Pose{}, xi0, 0.0);
    bool threw = false;
    int k = 0;
    for (; k < 2000 && !threw; ++k) {
      const auto before = b->saveState();
      try {
        b->step(2.0, {});
      } catch (const SimulationDiverged& e) {
        threw = true;
        CHECK(b->saveState() == before);
        MESSAGE(std::string(method) << " blew up at step " << k << ": " << e.what());
      }
    }
    const bool implicit = b->newtonIterations() > 0;
    MESSAGE(std::string(method) << (threw ? " threw" : " did not throw") << ", final |w| " << b->xi().head<3>().norm());
    CHECK(threw != implicit);
    CHECK(b->xi().allFinite());
    if (implicit) CHECK(b->xi().head<3>().norm() < 2.0 * xi0.head<3>().norm());
  }
}

TEST_CASE("SaveLoadAndNames") {
  auto a = makeRigidBodyBaseline("rk2i", referenceBody());
  a->initialize(se3::Pose{}, referenceXi(), 0.0);
  for (int k = 0; k < 10; ++k) a->step(0.05, gravityField(2.0, Vector3d(0, 0, -9.81)));
  auto b = makeRigidBodyBaseline("rk2i", referenceBody());
  b->loadState(a->saveState());
  a->step(0.05, {});
  b->step(0.05, {});
  CHECK(a->saveState() == b->saveState());
  CHECK(a->newtonIterations() >= 2);
  CHECK_THROWS_AS(makeRigidBodyBaseline("rk3", referenceBody()), BadInput);
  CHECK_THROWS_AS(a->step(-1.0, {}), BadInput);
  auto c = makeRigidBodyBaseline("rk2", referenceBody());
  CHECK_THROWS_AS(c->step(0.1, {}), BadInput);  // before initialize
}

TEST_CASE("EveryIntegratorSelectableInTheScenes") {
  // rigid_body's `integrator` and tumbling_body's `ghost`: each runs 5 s, keeps
  // a unit quaternion, and the baselines report II xi's energy (the implicit
  // midpoint conserves it, a quadratic invariant, to round-off).
  for (const char* method : {"lgvi", "rk2", "rk2i", "rk4", "newmark"}) {
    auto scene = test::makeScene("rigid_body", {{"integrator", method}});
    const auto rows = test::runScene(*scene, 300, [](long) { return InputVector{}; });
    const int e = test::columnOf(*scene, "energy"), qw = test::columnOf(*scene, "qw");
    const double dE = std::abs(rows.back()[size_t(e)] - rows.front()[size_t(e)]) / rows.front()[size_t(e)];
    const Eigen::Map<const Vector4d> q(rows.back().data() + qw);
    MESSAGE("rigid_body integrator=" << std::string(method) << ": |dE/E| after 5 s " << dE);
    CHECK(std::abs(q.norm() - 1.0) < 1e-15);
    CHECK(dE < 1e-3);
    if (std::string(method) == "rk2i") CHECK(dE < 1e-13);
  }
  for (const char* ghost : {"rk2", "rk2i", "newmark"}) {
    auto scene = test::makeScene("tumbling_body", {{"ghost", ghost}});
    CHECK_NOTHROW(test::runScene(*scene, 100, [](long) { return InputVector{}; }));
    CHECK(scene->panels(PanelContext{}).at(0).title.find("LGVI vs ") == 0);
  }
}
