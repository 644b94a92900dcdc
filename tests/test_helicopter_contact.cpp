// tests/test_helicopter_contact.cpp — issue 15 items 5 and 10: the helicopter's ground and rock contact as
// the LGVI end-of-step wrench (exact partials vs finite differences), passive for every allowed mass, inertia
// and step when resting, dropped or hitting canyon walls, and the flight assist over the whole gravity range.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "engine/lie/so3.h"
#include "engine/models/helicopter.h"
#include "engine/models/helicopter_world.h"
#include "engine/sim/recorder.h"
#include "scenes/scene.h"
#include "tests/contact_passivity.h"
#include "tests/scene_harness.h"
#include "tests/wrench_partials.h"

using namespace varsim;
using varsim::test::at;
using varsim::test::exitCodeOf;
using varsim::test::recordScene;
using varsim::test::runPassivity;

namespace {

std::unique_ptr<Scene> makeScene(const std::vector<std::pair<std::string, std::string>>& sets) {
  return test::makeScene("helicopter", sets);
}

// Central differences of a vector function of a 3-vector (for the contact force partials).
template <class F>
Matrix3d numericJacobian3(const F& f, const Vector3d& x, double e) {
  Matrix3d J;
  for (int j = 0; j < 3; ++j) {
    Vector3d d = Vector3d::Zero();
    d[j] = e;
    J.col(j) = (f(x + d) - f(x - d)) / (2 * e);
  }
  return J;
}

double relativeError(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) { return (A - B).norm() / B.norm(); }

}  // namespace

TEST_CASE("ContactForceAndWrenchJacobiansMatchFiniteDifferences") {
  // The end-of-step wrench needs exact partials for Newton: point force (ground sliding, ground viscous
  // friction, inside the damping ramp, inside a canyon wall) and the body wrench of the seven points.
  const HelicopterWorld world = HelicopterWorld::standard();
  const ContactSettings c = ContactSettings::implicitFor(600.0, 4);
  const std::vector<std::pair<Vector3d, Vector3d>> points = {
      {{3.0, 2.0, -0.01}, {0.5, -0.2, -1.0}},    // sliding (mu F_n < c_t |v_t|)
      {{3.0, 2.0, -0.01}, {1e-5, 2e-5, -0.3}},   // viscous friction
      {{3.0, 2.0, -5e-5}, {0.3, 0.1, -2.0}},     // damping ramp (-d < 0.1 mm)
      {{185.0, 18.02, 10.0}, {0.2, 1.0, 0.1}}};  // inside the canyon wall y in [18, 28]
  for (const auto& [p, v] : points) {
    Matrix3d Fp, Fv;
    world.contactForce(p, v, c, &Fp, &Fv);
    const double e = 1e-9;
    const Matrix3d FpNum = numericJacobian3([&](const Vector3d& q) { return world.contactForce(q, v, c); }, p, e);
    const Matrix3d FvNum = numericJacobian3([&](const Vector3d& u) { return world.contactForce(p, u, c); }, v, e);
    MESSAGE("point " << p.transpose() << ": dF/dp " << relativeError(Fp, FpNum) << ", dF/dv "
                     << relativeError(Fv, FvNum));
    CHECK(relativeError(Fp, FpNum) < 1e-6);
    CHECK(relativeError(Fv, FvNum) < 1e-6);
  }
  // Body wrench: tilted, sunk 5 mm, moving and spinning (several skid ends inside the ground).
  Helicopter heli;
  se3::Pose g;
  g.R = so3::exp(Vector3d(0.02, -0.01, 0.4));
  g.x = Vector3d(3.0, 2.0, 1.095);
  const Vector6d xi = (Vector6d() << 0.1, -0.2, 0.3, 0.8, -0.4, -0.5).finished();
  Matrix6d dPose, dXi, dPoseNum, dXiNum;
  world.contactWrench(g, xi, heli.contactPoints(), c, &dPose, &dXi);
  test::numericWrenchPartials(
      [&](const se3::Pose& q, const Vector6d& x) { return world.contactWrench(q, x, heli.contactPoints(), c); }, g, xi,
      1e-9, dPoseNum, dXiNum);
  MESSAGE("body wrench: dPose " << relativeError(dPose, dPoseNum) << ", dXi " << relativeError(dXi, dXiNum));
  CHECK(dPose.norm() > 0.0);
  CHECK(relativeError(dPose, dPoseNum) < 1e-6);
  CHECK(relativeError(dXi, dXiNum) < 1e-6);
}

TEST_CASE("RestingAndDroppedOnThePadNeverGainEnergyForEveryMassAndStep") {
  // Issue 15 item 10: rotor off (assist=false, collective=0), resting on the pad or dropped from 2 m, 20 s.
  // Mass over its range [1, 1e5] kg, h over dt's range (1e-3, default 1/60, 0.1 s), inertia at both ends.
  // Energy never above its start (input work is zero here) by more than the stated tolerance h^2 m g^2 / 8
  // (+ 1e-9 E0 round-off): gravity is the explicit node force f_k (exact free fall), contact the end-of-step
  // wrench c, and a body starting exactly on the pad is caught one step late, a transient of at most the half
  // gravity impulse's kinetic energy 1/2 m (h g / 2)^2 (measured: 0.25 of it at h = 0.1, 0.18 at 1/60, 0 for
  // every drop; at rest the reading returns below E0, the velocity mu^- + (h/2)(f_k + c_k) being 0). Penetration
  // <= 1 cm at rest
  // (sag 0.16 mm), no divergence, no jitter (speed < 1e-3 m/s at the end). The full table, with the old
  // explicit contact beside it, is bench_contact_passivity.
  struct Case {
    std::string mass, dt, inertia, group = "so3xr3";
  };
  std::vector<Case> cases;
  for (const char* m : {"1", "30", "600", "100000"})
    for (const char* dt : {"0.001", "0.016666666666666666", "0.1"}) cases.push_back({m, dt, "300,1200,1000"});
  cases.push_back({"1", "0.016666666666666666", "0.001,0.001,0.001"});
  cases.push_back({"1", "0.1", "10000000,10000000,10000000"});
  cases.push_back({"100000", "0.016666666666666666", "0.001,0.001,0.001"});
  cases.push_back({"100000", "0.1", "10000000,10000000,10000000"});
  cases.push_back({"1", "0.1", "300,1200,1000", "se3"});  // the SE(3) group (eq. (9)) as well
  cases.push_back({"100000", "0.016666666666666666", "300,1200,1000", "se3"});
  // Sanitizers check memory: there the 1 ms runs (20 000 steps each, 90 % of the steps here) stop after 2 s, before
  // a drop has settled (a 1 kg body still bounces at 2 s); where they come to rest is checked in Release.
  const bool sanitized = std::getenv("VARSIM_SANITIZED") != nullptr;
  for (const Case& c : cases)
    for (const char* start : {"0,0,1.1", "0,0,3.1"}) {
      const double h = std::stod(c.dt), m = std::stod(c.mass);
      const double duration = sanitized && h < 0.01 ? 2.0 : 20.0;
      const auto r = runPassivity("helicopter",
                                  {{"assist", "false"},
                                   {"collective", "0"},
                                   {"mass", c.mass},
                                   {"inertia", c.inertia},
                                   {"dt", c.dt},
                                   {"group", c.group},
                                   {"start_position", start}},
                                  duration);
      INFO("mass " << c.mass << " inertia " << c.inertia << " dt " << c.dt << " group " << c.group << " start "
                   << std::string(start));
      CHECK(r.status == "ok");
      CHECK(r.seconds == doctest::Approx(duration));
      CHECK(r.maxExcess <= h * h * m * 9.81 * 9.81 / 8.0 + 1e-9 * r.e0);
      CHECK(r.maxPenetration <= 0.02);
      if (duration < 20.0) continue;
      CHECK(r.finalPenetration <= 0.01);
      CHECK(r.finalSpeed < 1e-3);
    }
}

TEST_CASE("HittingCanyonWallsSidewaysNeverGainsEnergy") {
  // 15 m/s sideways (and nose first) into the wall of the first canyon leg (inner face y = 18): without
  // gravity and thrust no energy may appear; with gravity and hover thrust E - E0 - inputWork stays <= 0.
  // Inertia scales with the mass (the default shape): measured identical for 1 kg .. 100 t (the contact is
  // mass-proportional), penetration <= 13 mm. (With the default 300..1200 kg m^2 at 100 t, a tail hit spins
  // the body at ~7500 rad/s: the step falls back to up to 512 substeps and still never gains; a side hit reads
  // +6.5e-4 E0 in the one impact step (roll from rest to ~300 rad/s within it: the backward-Euler energy
  // argument is exact for linear kinematics only) and is dissipated the next: bench_contact_passivity.)
  for (const char* mass : {"1", "600", "100000"})
    for (const char* dt : {"0.016666666666666666", "0.1"})
      for (const char* heading : {"0", "1.5707963267948966"})
        for (bool gravity : {false, true}) {
          const double m = std::stod(mass);
          const auto r = runPassivity(
              "helicopter",
              {{"assist", "false"},
               {"mass", mass},
               {"inertia", std::to_string(0.5 * m) + "," + std::to_string(2.0 * m) + "," + std::to_string(m / 0.6)},
               {"dt", dt},
               {"gravity", gravity ? "9.81" : "0"},
               {"actuator_max", "1000000,2000,0.25"},
               {"collective", gravity ? std::to_string(m * 9.81) : "0"},
               {"start_position", "185,5,20"},
               {"start_heading", heading},
               {"start_velocity", "0,15,0"},
               {"drag_linear", "0"},
               {"drag_angular", "0"}},
              4.0);
          INFO("mass " << std::string(mass) << " dt " << std::string(dt) << " heading " << std::string(heading)
                       << " gravity " << gravity);
          CHECK(r.status == "ok");
          CHECK(r.maxPenetration > 0.0);  // it did hit the wall
          CHECK(r.maxPenetration < 0.02);
          CHECK(r.maxExcess <= 1e-9 * r.e0);
        }
  // The extreme body: 100 t with the default 300..1200 kg m^2, tail first (substep fallback).
  for (const char* dt : {"0.016666666666666666", "0.1"}) {
    const auto r = runPassivity("helicopter",
                                {{"assist", "false"},
                                 {"mass", "100000"},
                                 {"dt", dt},
                                 {"gravity", "0"},
                                 {"collective", "0"},
                                 {"drag_linear", "0"},
                                 {"drag_angular", "0"},
                                 {"start_position", "185,5,20"},
                                 {"start_heading", "1.5707963267948966"},
                                 {"start_velocity", "0,15,0"}},
                                4.0);
    INFO("100 t, default inertia, tail first, dt " << std::string(dt));
    CHECK(r.status == "ok");
    CHECK(r.maxExcess <= 1e-9 * r.e0);
  }
}

TEST_CASE("FlightAssistWorksWithoutGravityAndOverTheWholeGravityRange") {
  // Issue 15 item 5: gravity = 0 used to give exit 3 (the assist divided by g). Over [0, 100] m/s^2 the
  // assist runs; where the rotor can carry the weight with margin (m g <= 0.8 x 12000 N) it holds the altitude.
  CHECK(exitCodeOf("run helicopter --set gravity=0 --steps 50") == 0);
  CHECK(exitCodeOf("run helicopter --set gravity=0 --set hub_height=1e-9 --set tail_arm=1e-9 --steps 50") == 0);
  for (double g : {0.0, 0.3, 1.0, 9.81, 20.0, 55.0, 100.0}) {
    auto scene = makeScene({{"world", "none"}, {"gravity", std::to_string(g)}, {"start_position", "0,0,20"}});
    const Recorder r = recordScene(*scene, 300, [](long k) {
      return InputVector{0.0, 0.0, k < 120 ? 0.5 : 0.0, k < 120 ? -0.4 : 0.0};  // bank, pitch, then release
    });
    double drop = 0.0;
    bool finite = true;
    for (size_t k = 0; k < r.rows().size(); ++k) {
      for (double v : r.rows()[k]) finite = finite && std::isfinite(v);
      drop = std::max(drop, std::abs(at(r, k, "z") - 20.0));
    }
    INFO("gravity " << g);
    CHECK(finite);
    if (600.0 * g <= 0.8 * 12000.0) CHECK(drop < 0.5);
  }
}
