// tests/test_boat.cpp — the thruster boat scene: ERRATA control matrix (c x e_x) and differential-thrust yaw, the
// analytic draft m / (rho L W), metacentric righting with a damped roll oscillation (and capsizing when
// GM < 0), coasting to rest under E, bounded energy without damping, the exact discrete momentum balance in
// waves with wind, current and thrust, the drawn water being the physical water, live parameters, input
// sanitizing, save/load and bad parameters through the headless binary. The hull wrench's derivatives are in
// test_boat_derivatives.cpp, passivity and energy accounting in test_boat_energy.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "engine/models/boat.h"
#include "engine/sim/recorder.h"
#include "scenes/scene.h"
#include "tests/boat_harness.h"
#include "tests/headless_capture.h"
#include "tests/scene_harness.h"

using namespace varsim;
using varsim::test::at;
using varsim::test::exitCodeOf;
using varsim::test::last;
using varsim::test::makeBoat;
using varsim::test::recordScene;
using varsim::test::sanitized;

namespace {

constexpr double kPi = 3.14159265358979323846;

double heading(const Recorder& r, size_t k) {
  const double w = at(r, k, "qw"), x = at(r, k, "qx"), y = at(r, k, "qy"), z = at(r, k, "qz");
  return std::atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z));
}

}  // namespace

TEST_CASE("ControlMatrixIsBuiltFromCTimesEx") {
  Boat boat;
  const Eigen::Matrix<double, 6, 2> F = boat.controlMatrix();
  const Vector3d c[2] = {boat.thrusterRight(), boat.thrusterLeft()};
  for (int j = 0; j < 2; ++j) {
    Vector6d expected;
    expected << 0.0, c[j].z(), -c[j].y(), 1.0, 0.0, 0.0;  // ERRATA: (c x e_x, e_x)
    CHECK((F.col(j) - expected).cwiseAbs().maxCoeff() < 1e-15);
  }
  CHECK(c[0].y() < 0.0);       // u_r is the starboard (right, -y) thruster
  CHECK(F(2, 0) == -F(2, 1));  // mirror-symmetric thrusters yaw in opposite senses
  CHECK(F(2, 0) > 0.0);        // right thruster alone turns left (+z)
}

TEST_CASE("DifferentialThrustTurnsTheBoat") {
  const long n = sanitized() ? 300 : 600;
  auto left = makeBoat({});
  auto right = makeBoat({});
  const Recorder rl = recordScene(*left, n, [](long) { return InputVector{1.0, 0.0}; });
  const Recorder rr = recordScene(*right, n, [](long) { return InputVector{0.0, 1.0}; });
  MESSAGE("heading after " << n / 60 << " s: port thruster only " << heading(rl, last(rl)) << " rad, starboard only "
                           << heading(rr, last(rr)) << " rad");
  CHECK(heading(rl, last(rl)) < -0.3);  // port (left) thrust turns to starboard: clockwise
  CHECK(heading(rr, last(rr)) > 0.3);
  CHECK(heading(rl, last(rl)) == doctest::Approx(-heading(rr, last(rr))).epsilon(1e-9));  // mirror image
  CHECK(at(rl, last(rl), "u_left") == 1500.0);
}

TEST_CASE("BoxHullFloatsAtTheAnalyticalDraft") {
  struct Case {
    const char* mass;
    const char* hull;
    const char* rho;
  };
  std::vector<Case> cases = {
      {"1200", "4,1.8,0.8", "1025"}, {"300", "2.5,1.2,0.6", "1000"}, {"5000", "8,2.5,1.5", "1025"}};
  if (sanitized()) cases.resize(1);  // memory checks: the same code for every hull; all three in Release
  for (const Case& c : cases) {
    auto boat = makeBoat({{"mass", c.mass},
                          {"hull", c.hull},
                          {"water_density", c.rho},
                          {"start_heave", "0.06"},
                          {"com_height", "-0.1"}});
    const Recorder r = recordScene(*boat, sanitized() ? 600 : 1200);
    ParamSet p = boat->params();
    const Vector3d hull = p.vec3("hull");
    const double analytic = p.real("mass") / (p.real("water_density") * hull.x() * hull.y());
    const size_t k = last(r);
    // Keel depth: centre of mass z minus (com_height + H/2).
    const double draft = -(at(r, k, "z") - p.real("com_height") - 0.5 * hull.z());
    MESSAGE("hull " << std::string(c.hull) << ", m = " << std::string(c.mass) << ": draft " << draft << " m, analytic "
                    << analytic << " m, relative error " << std::abs(draft / analytic - 1.0));
    CHECK(std::abs(draft / analytic - 1.0) < 0.01);
    CHECK(at(r, k, "submerged_volume") == doctest::Approx(p.real("mass") / p.real("water_density")).epsilon(1e-4));
    CHECK(at(r, k, "speed") < 1e-3);
  }
}

TEST_CASE("TiltedHullRightsItselfWithADecayingRollOscillation") {
  // Metacentric stability: GM = KB + BM - KG = T/2 + W^2/(12 T) - (H/2 + com_height) > 0 rights the hull
  // with period ~ 2 pi sqrt(J1 / (rho g V GM)); E damps the oscillation.
  auto boat = makeBoat({{"start_attitude", "0.3,0,0"}});
  const Recorder r = recordScene(*boat, sanitized() ? 360 : 600);
  std::vector<double> peaks, times;
  for (size_t k = 1; k + 1 < r.rows().size(); ++k) {
    const double a = at(r, k - 1, "heel"), b = at(r, k, "heel"), c = at(r, k + 1, "heel");
    if (std::abs(b) > 1e-6 && std::abs(b) >= std::abs(a) && std::abs(b) > std::abs(c)) {
      peaks.push_back(b);
      times.push_back(at(r, k, "t"));
    }
  }
  REQUIRE(peaks.size() >= 3);
  for (size_t i = 1; i < 3; ++i) {
    CHECK(peaks[i] * peaks[i - 1] < 0.0);                      // it swings through upright
    CHECK(std::abs(peaks[i]) < 0.5 * std::abs(peaks[i - 1]));  // and the swing decays
  }
  CHECK(std::abs(at(r, last(r), "heel")) < 2e-3);
  const Boat model;
  const double T = model.equilibriumDraft(), W = 1.8, H = 0.8, com = -0.1;
  const double GM = 0.5 * T + W * W / (12.0 * T) - (0.5 * H + com);
  const double V = 1200.0 / 1025.0, J1 = model.principalInertia().x();
  const double predicted = 2.0 * kPi * std::sqrt(J1 / (1025.0 * 9.81 * V * GM));
  const double observed = 2.0 * (times[2] - times[1]);
  MESSAGE("roll period observed " << observed << " s, metacentric (undamped, no added mass) " << predicted
                                  << " s; peaks " << peaks[0] << " " << peaks[1] << " " << peaks[2]);
  CHECK(observed == doctest::Approx(predicted).epsilon(0.15));
}

TEST_CASE("HighCentreOfMassCapsizes") {
  // Narrow deep hull: GM = 0.146 + 0.285 - (0.5 + com) is +0.23 m with com = -0.3 and -0.37 m with com = +0.3.
  auto stable = makeBoat({{"hull", "4,1,1"}, {"com_height", "-0.3"}, {"start_attitude", "0.2,0,0"}});
  auto unstable = makeBoat({{"hull", "4,1,1"}, {"com_height", "0.3"}, {"start_attitude", "0.2,0,0"}});
  const Recorder rs = recordScene(*stable, 480), ru = recordScene(*unstable, 480);
  double maxStable = 0.0, maxUnstable = 0.0;
  for (size_t k = 0; k < rs.rows().size(); ++k) {
    maxStable = std::max(maxStable, std::abs(at(rs, k, "heel")));
    maxUnstable = std::max(maxUnstable, std::abs(at(ru, k, "heel")));
  }
  CHECK(maxStable <= 0.2 + 1e-9);
  CHECK(maxUnstable > 1.0);
}

TEST_CASE("ThrustersOffInStillWaterTheBoatCoastsToRest") {
  auto boat = makeBoat({{"start_velocity", "2,0.5,0"}, {"start_attitude", "0,0,0.4"}});
  const Recorder r = recordScene(*boat, sanitized() ? 1200 : 1800);
  const double e0 = at(r, 0, "energy");
  double rise = 0.0;
  for (size_t k = 1; k < r.rows().size(); ++k) rise = std::max(rise, at(r, k, "energy") - at(r, k - 1, "energy"));
  const size_t k = last(r);
  MESSAGE("coasting: speed " << at(r, 0, "speed") << " -> " << at(r, k, "speed")
                             << " m/s, largest energy rise per step " << rise << " J");
  CHECK(at(r, k, "speed") < 1e-3 * at(r, 0, "speed") * (sanitized() ? 50.0 : 1.0));
  CHECK(at(r, k, "energy") < e0);
  CHECK(rise < 1e-6 * e0);
  CHECK(at(r, k, "x") > 1.0);  // it did glide forward first
}

TEST_CASE("UndampedBoatKeepsItsEnergyBounded") {
  // E = 0, P = 0, still water, hull_forces=explicit: gravity + buoyancy is a potential force evaluated at the
  // nodes, so the scheme is variational and the energy (kinetic + m g z - rho g int z dV) oscillates without
  // drift. (The default, implicit, dissipates instead: UndampedImplicitBoatOnlyLosesEnergy.)
  auto boat = makeBoat(
      {{"damping", "0,0,0"}, {"start_attitude", "0.2,0.05,0"}, {"start_heave", "0.05"}, {"hull_forces", "explicit"}});
  const long n = sanitized() ? 600 : 1800;
  const Recorder r = recordScene(*boat, n);
  const double e0 = at(r, 0, "energy");
  double worst = 0.0, early = 0.0, late = 0.0;
  for (size_t k = 0; k < r.rows().size(); ++k) {
    worst = std::max(worst, std::abs(at(r, k, "energy") - e0));
    if (k < 120) early += at(r, k, "energy") / 120.0;
    if (k + 120 >= r.rows().size()) late += at(r, k, "energy") / 120.0;
  }
  MESSAGE("undamped: max |E - E0| = " << worst << " J, mean drift (first vs last 2 s) = " << late - early << " J");
  CHECK(worst < 5.0);
  CHECK(std::abs(late - early) < 1.0);
}

TEST_CASE("MomentumBalanceInWavesWithWindCurrentAndThrust") {
  double rel[2] = {0.0, 0.0};
  int idx = 0;
  for (const char* integrator : {"lgvi", "rk4"}) {
    auto boat = makeBoat({{"wave_amplitude", "0.2"},
                          {"wind", "8,-3,0"},
                          {"current", "0.5,0.3,0"},
                          {"pressure", "200"},
                          {"integrator", integrator},
                          {"patch_size", "0.6"}});
    const Recorder r = recordScene(*boat, sanitized() ? 120 : 600, [](long k) {
      return InputVector{0.5 + 0.5 * std::sin(k / 50.0), 0.8};
    });
    double worst = 0.0, scale = 0.0;
    for (size_t k = 0; k < r.rows().size(); ++k) {
      worst = std::max(worst, at(r, k, "balance_error"));
      for (const char* c : {"impulse_L_x", "impulse_L_y", "impulse_L_z", "impulse_p_x", "impulse_p_y", "impulse_p_z"})
        scale = std::max(scale, std::abs(at(r, k, c)));
    }
    rel[idx++] = worst / scale;
  }
  MESSAGE("boat momentum balance max |M - M0 - J| / max|J|: LGVI " << rel[0] << ", RK4 " << rel[1]);
  CHECK(rel[0] < 1e-9);
  CHECK(rel[1] > 1e3 * rel[0]);
}

TEST_CASE("TheDrawnWaterIsThePhysicalWater") {
  auto boat =
      makeBoat({{"wave_amplitude", "0.3"}, {"wave_length", "9"}, {"wave_direction", "0.5"}, {"water_grid", "0.4"}});
  recordScene(*boat, 30);
  DrawList dl;
  boat->draw(dl);
  REQUIRE(dl.meshes.size() == 1);
  const TriangleMesh& mesh = dl.meshes[0];
  WaveSettings ws;
  ws.amplitude = 0.3;
  ws.wavelength = 9.0;
  ws.direction = 0.5;
  ws.gridSpacing = 0.4;
  const WaterSurface water(ws);
  const double t = boat->time();
  double worstNode = 0.0, worstInterior = 0.0;
  for (const auto& p : mesh.positions) worstNode = std::max(worstNode, std::abs(p[2] - water.height(p[0], p[1], t)));
  for (size_t i = 0; i + 2 < mesh.indices.size(); i += 3) {  // triangle centroids: same diagonal split
    Vector3d c = Vector3d::Zero();
    for (int j = 0; j < 3; ++j) {
      const auto& p = mesh.positions[mesh.indices[i + size_t(j)]];
      c += Vector3d(p[0], p[1], p[2]) / 3.0;
    }
    worstInterior = std::max(worstInterior, std::abs(c.z() - water.height(c.x(), c.y(), t)));
  }
  CHECK(mesh.positions.size() > 1000);
  CHECK(worstNode < 1e-6);  // float storage of the drawn vertices
  CHECK(worstInterior < 1e-6);
}

TEST_CASE("LiveParametersTakeEffectWithoutReset") {
  auto boat = makeBoat({});
  recordScene(*boat, 60);
  const std::vector<std::string> cols = boat->columns();
  auto value = [&](const std::vector<double>& row, const char* name) {
    return row[size_t(std::find(cols.begin(), cols.end(), name) - cols.begin())];
  };
  std::vector<double> before, after;
  boat->diagnostics(before);
  ParamSet p = boat->params();
  p.setFromString("wave_amplitude", "0.4", "test");
  p.setFromString("wind", "10,0,0", "test");
  p.setFromString("damping", "80,800,900", "test");
  for (const char* key : {"wave_amplitude", "wind", "damping", "current", "pressure", "wave_length"})
    CHECK(p.spec(key)->live);
  boat->applyLive(p);
  boat->diagnostics(after);
  for (const char* name : {"t", "x", "y", "z", "qw", "qx"}) CHECK(value(after, name) == value(before, name));
  CHECK(std::abs(value(after, "submerged_volume") - value(before, "submerged_volume")) > 1e-3);  // now in waves
  // Only the wind changed (still water): it pushes the boat along +x, unlike an unchanged copy.
  auto calm = makeBoat({}), windy = makeBoat({});
  recordScene(*calm, 60);
  recordScene(*windy, 60);
  ParamSet w = windy->params();
  w.setFromString("wind", "10,0,0", "test");
  windy->applyLive(w);
  const Recorder rc = recordScene(*calm, 240), rw = recordScene(*windy, 240);
  MESSAGE("4 s after a live 10 m/s wind: x moved " << at(rw, last(rw), "x") - at(rw, 0, "x") << " m (calm copy "
                                                   << at(rc, last(rc), "x") - at(rc, 0, "x") << " m)");
  CHECK(at(rw, last(rw), "x") - at(rw, 0, "x") > 0.05);
  CHECK(at(rw, last(rw), "balance_error") < 1e-9 * std::abs(at(rw, last(rw), "impulse_p_x")));
  CHECK(std::abs(at(rc, last(rc), "x") - at(rc, 0, "x")) < 1e-9);
}

TEST_CASE("NanOrOutOfRangeTriggersNeverReachThePhysics") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto a = makeBoat({}), b = makeBoat({});
  const Recorder ra = recordScene(*a, 240, [&](long k) { return InputVector{k % 5 ? 0.7 : nan, k % 3 ? 0.2 : 4.0}; });
  const Recorder rb = recordScene(*b, 240, [&](long k) { return InputVector{k % 5 ? 0.7 : 0.0, k % 3 ? 0.2 : 1.0}; });
  CHECK(ra.rows() == rb.rows());
  DrawList dl;
  a->draw(dl);
  bool notice = false;
  for (const auto& line : dl.hud) notice = notice || line.find("repaired") != std::string::npos;
  CHECK(notice);
}

TEST_CASE("SaveAndLoadStateContinuesBitIdenticallyInWaves") {
  const long n = sanitized() ? 20 : 60;  // bit-identity does not depend on the length; sanitizers: memory
  for (const char* integrator : {"lgvi", "rk4"}) {
    auto boat = makeBoat({{"wave_amplitude", "0.2"}, {"wind", "5,2,0"}, {"integrator", integrator}});
    recordScene(*boat, n, [](long) { return InputVector{0.3, 0.6}; });
    const std::vector<double> state = boat->saveState();
    const double workAtSave = boat->inputWork();
    const Recorder first = recordScene(*boat, n, [](long k) { return InputVector{0.1 * (k % 4), 0.5}; });
    const double workFirst = boat->inputWork();
    boat->loadState(state);
    CHECK(boat->inputWork() == workAtSave);  // thrust, wind, water and wave work are saved state
    const Recorder second = recordScene(*boat, n, [](long k) { return InputVector{0.1 * (k % 4), 0.5}; });
    CHECK(first.rows() == second.rows());
    CHECK(boat->inputWork() == workFirst);
    CHECK(workFirst != workAtSave);
  }
}

TEST_CASE("BadBoatParametersExitWithCodeTwo") {
  CHECK(exitCodeOf("describe boat") == 0);
  CHECK(exitCodeOf("run boat --steps 2") == 0);
  for (const char* set : {"hull=0,1,1", "hull=4,1.8", "mass=0", "water_density=-1", "thrust_left=2000",
                          "thrust_right=-5", "com_height=0.5", "water_grid=0", "patch_size=0", "wave_amplitude=-0.1",
                          "damping=-1,0,0", "start_attitude=0,0", "wind=1,2,nan", "integrator=euler", "mass=9e-4",
                          "hull_forces=explicit --set mass=30", "hull_forces=rk4", "integrator=rk4 --set mass=1"})
    CHECK_MESSAGE(exitCodeOf(std::string("run boat --steps 2 --set ") + set) == 2, set);
}
