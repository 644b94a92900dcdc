// tests/test_floating_space_robot.cpp — scene `space_robot` (issue 12 item 3): zero momentum kept to round-off
// while stick-driven joint cycles turn the base (falling-cat effect), the Reorient maneuver (closed joint loops
// planned by simulation) reaching theta about an axis with the arm back at its rest shape, input work accounted,
// exact save/load mid-maneuver, refused edits and parameters, and a sweep of every parameter range end.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/sim/errors.h"
#include "scenes/scene.h"
#include "tests/headless_capture.h"
#include "tests/scene_harness.h"

using namespace varsim;
using varsim::test::runCaptured;

namespace {

// Under ASan/UBSan (scripts/test.sh) the range sweep runs 2 s per case instead of 20 s.
const bool kSanitized = std::getenv("VARSIM_SANITIZED") != nullptr;
const double kSweepSeconds = kSanitized ? 2.0 : 20.0;

// A closed stick cycle on joints 2 and 3 (rates cos, sin): the shape returns, the base does not.
InputVector cycle(long k, double h) {
  const double t = k * h, w = 2 * M_PI / 4.0;
  return {0.0, std::cos(w * t), std::sin(w * t)};
}

double column(const Scene& s, const std::vector<double>& row, const char* name) {
  return row.at(size_t(test::columnOf(s, name)));
}

// Momentum scale of the run: sqrt(2 E_max M) bounds the sum of the bodies' linear momenta (Cauchy-Schwarz);
// times (1 + reach) for the angular part about the origin. |J| must stay at round-off of it.
double momentumScale(const Scene& s, double maxEnergy) {
  const ParamSet& p = s.params();
  double mass = p.real("base_mass"), reach = 0.5 * p.vec3("base_size").maxCoeff();
  for (int i = 0; i < 3; ++i) mass += p.vector("link_masses")[size_t(i)], reach += p.vector("link_lengths")[size_t(i)];
  return std::sqrt(2.0 * maxEnergy * mass) * (1.0 + reach) + 1e-300;
}

}  // namespace

TEST_CASE("SpaceRobotStickCyclesTurnTheBaseWithZeroMomentum") {
  auto s = test::makeScene("space_robot");
  const double h = s->dt();
  const auto rows = test::runScene(*s, long(8.0 / h), [&](long k) { return cycle(k, h); });
  double worstJ = 0, Emax = 0;
  for (const auto& row : rows)
    worstJ = std::max(worstJ, column(*s, row, "momentum_norm")), Emax = std::max(Emax, column(*s, row, "energy"));
  const auto& last = rows.back();
  std::printf(
      "space_robot: two stick cycles turn the base by %.4f rad (about y: %.4f); max |J| = %.2e (%.1e of scale)\n",
      column(*s, last, "att_angle"), column(*s, last, "att_y"), worstJ, worstJ / momentumScale(*s, Emax));
  CHECK(worstJ < 1e-13 * momentumScale(*s, Emax));
  CHECK(column(*s, last, "att_angle") > 0.02);
  CHECK(std::abs(column(*s, last, "att_y")) > 0.9 * column(*s, last, "att_angle"));  // planar arm: about y
  const double E = column(*s, last, "energy"), W = s->inputWork();
  CHECK(std::abs(E - W) < 0.05 * std::abs(W) + 1e-3);  // energy = servo work (trapezoidal error only)
}

TEST_CASE("SpaceRobotReorientsByThetaWithClosedJointLoops") {
  // About y (the arm's plane, loops of joints 2-3 turn the base about y only) to 0.01 rad; about x the loops that
  // involve the shoulder also turn the base about z, which no loop from this rest shape undoes: 0.04 rad.
  // The sanitizer pass runs the first maneuver only, for 5 s of its 45 (memory checks, same code path): |J| and the
  // exact save/load there; where the maneuver ends (33 s) is checked in Release.
  const std::vector<std::pair<std::string, int>> maneuvers =
      kSanitized ? std::vector<std::pair<std::string, int>>{{"30,y", 1}}
                 : std::vector<std::pair<std::string, int>>{{"30,y", 1}, {"-20,x", 0}};
  for (const auto& [value, axis] : maneuvers) {
    CAPTURE(value);
    auto s = test::makeScene("space_robot");
    s->applyEdit("reorient", value);
    const double h = s->dt();
    std::vector<double> row;
    double worstJ = 0, Emax = 0;
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<double> saved;
    for (long k = 0; k < long((kSanitized ? 5.0 : 45.0) / h); ++k) {  // 30 deg about y: 9 loops end at 33 s
      s->step(h, {0, 0, 0});
      s->diagnostics(row);
      worstJ = std::max(worstJ, column(*s, row, "momentum_norm"));
      Emax = std::max(Emax, column(*s, row, "energy"));
      if (k == 200) saved = s->saveState();
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double deg = std::stod(value) * M_PI / 180.0;
    std::printf(
        "space_robot reorient %s: %g loops, error %.4f rad, att (%.4f, %.4f, %.4f), max |J| %.2e, %.1f s wall\n",
        value.c_str(), column(*s, row, "loops"), column(*s, row, "maneuver_error"), column(*s, row, "att_x"),
        column(*s, row, "att_y"), column(*s, row, "att_z"), worstJ, wall);
    CHECK(worstJ < 1e-13 * momentumScale(*s, Emax));
    if (!kSanitized) {
      CHECK(column(*s, row, "maneuver_error") < (axis == 1 ? 0.01 : 0.05));
      CHECK(std::abs(column(*s, row, axis == 0 ? "att_x" : "att_y") - deg) < (axis == 1 ? 0.01 : 0.03));
      // The arm is back at its rest shape (0, -0.5, 1.0).
      CHECK(std::abs(column(*s, row, "r_1") - 0.0) < 1e-3);
      CHECK(std::abs(column(*s, row, "r_2") + 0.5) < 1e-3);
      CHECK(std::abs(column(*s, row, "r_3") - 1.0) < 1e-3);
    }
    // Exact save / load mid-maneuver.
    auto b = test::makeScene("space_robot");
    b->loadState(saved);
    auto c = test::makeScene("space_robot");
    c->applyEdit("reorient", value);
    for (long k = 0; k <= 200; ++k) c->step(h, {0, 0, 0});
    for (long k = 0; k < 300; ++k) b->step(h, {0, 0, 0}), c->step(h, {0, 0, 0});
    CHECK(b->saveState() == c->saveState());
  }
}

TEST_CASE("SpaceRobotRefusesBadEditsAndParameters") {
  auto s = test::makeScene("space_robot");
  for (const char* bad : {"", "30", "30,w", "200,x", "abc,y", "nan,z"})
    CHECK_THROWS_AS(s->applyEdit("reorient", bad), BadInput);
  CHECK_THROWS_AS(s->applyEdit("unknown", "1"), BadInput);
  CHECK_THROWS_AS(s->loadState({1.0, 2.0}), BadInput);
  std::vector<double> bad = s->saveState();
  bad.back() = std::nan("");
  CHECK_THROWS_AS(s->loadState(bad), BadInput);
  for (const char* bad : {"base_mass=0", "base_mass=-1", "link_masses=1,-1,1", "link_lengths=1,1", "dt=0", "dt=0.2",
                          "rest_angles=0,0,3", "servo_frequency=0"}) {
    const auto r = runCaptured({"run", "space_robot", "--set", bad, "--steps", "1"});
    INFO(bad << " -> " << r.err);
    CHECK(r.exitCode == 2);
    CHECK(r.err.find(std::string(bad).substr(0, std::string(bad).find('='))) != std::string::npos);
  }
}

TEST_CASE("SpaceRobotSweepOfTheAcceptedRanges") {
  // Every parameter at both ends (others default), 20 s of stick cycles: exit normally, |J| at round-off.
  const std::vector<std::pair<std::string, std::string>> cases = {{"base_mass", "0.01"},
                                                                  {"base_mass", "10000"},
                                                                  {"base_size", "0.01,0.01,0.01"},
                                                                  {"base_size", "100,100,100"},
                                                                  {"link_masses", "0.01,0.01,0.01"},
                                                                  {"link_masses", "10000,10000,10000"},
                                                                  {"link_lengths", "0.01,0.01,0.01"},
                                                                  {"link_lengths", "100,100,100"},
                                                                  {"rest_angles", "-2.8,-2.8,-2.8"},
                                                                  {"rest_angles", "2.8,2.8,2.8"},
                                                                  {"max_rate", "0"},
                                                                  {"max_rate", "5"},
                                                                  {"servo_frequency", "0.1"},
                                                                  {"servo_frequency", "20"},
                                                                  {"loop_period", "0.5"},
                                                                  {"loop_period", "20"},
                                                                  {"loop_amplitude", "0.05"},
                                                                  {"loop_amplitude", "1.5"},
                                                                  {"dt", "0.001"},
                                                                  {"dt", "0.05"}};
  for (const auto& [key, value] : cases) {
    auto s = test::makeScene("space_robot", {{key, value}});
    const double h = s->dt();
    // The loop parameters and the step act through the Reorient maneuver: run it instead of the sticks.
    const bool maneuver = key.rfind("loop_", 0) == 0 || key == "dt";
    if (maneuver) s->applyEdit("reorient", "30,y");
    std::vector<double> row;
    double worstJ = 0, Emax = 0;
    long k = 0;
    std::string failure;
    try {
      for (; k < long(kSweepSeconds / h); ++k) {
        s->step(h, maneuver ? InputVector{0, 0, 0} : cycle(k, h));
        s->diagnostics(row);
        worstJ = std::max(worstJ, column(*s, row, "momentum_norm"));
        Emax = std::max(Emax, column(*s, row, "energy"));
      }
    } catch (const SimulationDiverged& e) {
      failure = e.what();
    }
    const double scale = momentumScale(*s, Emax);
    std::printf(
        "  space_robot %s=%s: %s, max |J| %.2e = %.1e of scale%s\n", key.c_str(), value.c_str(),
        failure.empty() ? (std::to_string(int(kSweepSeconds)) + " s").c_str() : failure.c_str(), worstJ, worstJ / scale,
        maneuver ? (", reorient 30 deg about y: error " + std::to_string(column(*s, row, "maneuver_error"))).c_str()
                 : "");
    INFO(key << "=" << value << ": " << failure);
    CHECK(failure.empty());
    CHECK(worstJ <= 1e-13 * scale);
  }
}
