// tests/test_boat_energy.cpp — passivity and energy accounting of the boat's hull forces (issue 15 item 11): calm
// water never gains energy for any mass and step, the heave of a box hull decays exactly as backward Euler's
// 1/(1 + h^2 w^2), the undamped implicit boat only loses energy, E - W stays bounded in waves, wind, current and
// thrust, and the baseline schemes book the media's work so the energy monitor stays quiet.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "engine/models/boat.h"
#include "engine/sim/errors.h"
#include "engine/sim/recorder.h"
#include "scenes/scene.h"
#include "tests/boat_harness.h"
#include "tests/csv_table.h"
#include "tests/headless_capture.h"
#include "tests/scene_harness.h"

using namespace varsim;
using varsim::test::at;
using varsim::test::last;
using varsim::test::makeBoat;
using varsim::test::recordScene;
using varsim::test::sanitized;
using varsim::test::Sets;

namespace {

struct Sweep {
  double maxRise = 0.0;  // max_t (E - W)(t) - E(0), J
  double scale = 0.0;    // |E(0)| + m g H: the size of the energies that cancel (round-off reference)
  double finalSpeed = 0.0, finalHeel = 0.0;
  long steps = 0;
  bool diverged = false;
};

// Runs `boat` for `steps` steps with the inputs, tracking energy - inputWork against its initial value.
Sweep passivity(Scene& boat, long steps, const std::function<InputVector(long)>& inputs = {}) {
  const int e = test::columnOf(boat, "energy"), speed = test::columnOf(boat, "speed"),
            heel = test::columnOf(boat, "heel");
  std::vector<double> row;
  boat.diagnostics(row);
  const double e0 = row[size_t(e)] - boat.inputWork();
  const ParamSet& p = boat.params();
  Sweep out;
  out.scale = std::abs(e0) + p.real("mass") * 9.81 * p.vec3("hull").z();
  const InputVector neutral(boat.controls().size(), 0.0);
  try {
    for (long k = 0; k < steps; ++k) {
      boat.step(boat.dt(), inputs ? inputs(k) : neutral);
      boat.diagnostics(row);
      out.maxRise = std::max(out.maxRise, row[size_t(e)] - boat.inputWork() - e0);
      ++out.steps;
    }
  } catch (const SimulationDiverged&) {
    out.diverged = true;
  }
  out.finalSpeed = row[size_t(speed)];
  out.finalHeel = row[size_t(heel)];
  return out;
}

}  // namespace

TEST_CASE("CalmWaterIsPassiveForEveryAllowedMassAndStep") {
  // Still water, no wind, no thrust: the energy (kinetic of the node momentum + m g z - rho g int z dV, the
  // exact potential here) never rises above its start, from rest and from 0.2 m above the rest height with
  // 10 deg heel, over the whole mass range [1e-3, 1e6] kg (1 kg: the x229 000 reproducer; above 5.9 t the
  // default hull sinks) and the dt range (0, 0.1] s. 20 s of simulated time at the large steps; 2 s at 1 ms
  // (the stiffness per step, h^2 omega^2, only shrinks there). Tolerance: round-off, 1e-12 of the energies.
  const bool quick = sanitized();
  const double dts[3] = {0.1, 1.0 / 60.0, 1e-3};
  double worst = 0.0;
  for (const char* mass : {"1e-3", "1", "30", "1200", "1e6"})
    for (double dt : dts)
      for (int off = 0; off < 2; ++off) {
        Sets sets{{"mass", mass}, {"dt", std::to_string(dt)}, {"hull_forces", "implicit"}};
        if (off) {
          sets.push_back({"start_heave", "0.2"});
          sets.push_back({"start_attitude", "0.17453292519943295,0,0"});
        }
        auto boat = makeBoat(sets);
        const double duration = dt < 0.01 ? 2.0 : 20.0;
        // Sanitizers check memory over 1/20 of each run (>= 100 steps; the whole runs are checked in Release).
        const long steps = long(std::lround((quick ? 0.05 : 1.0) * duration / dt));
        const Sweep r = passivity(*boat, steps);
        worst = std::max(worst, r.maxRise / r.scale);
        const std::string what =
            "mass " + std::string(mass) + " kg, dt " + std::to_string(dt) + (off ? ", off" : ", rest");
        CHECK_MESSAGE(!r.diverged, what);
        CHECK_MESSAGE(r.maxRise <= 1e-12 * r.scale, what << ": rise " << r.maxRise << " J");
        if (std::stod(mass) < 5000.0 && !quick && duration > 10.0) {  // floats: back at rest, upright
          CHECK_MESSAGE(r.finalSpeed < 1e-3, what << ": speed " << r.finalSpeed);
          CHECK_MESSAGE(std::abs(r.finalHeel) < 1e-3, what << ": heel " << r.finalHeel);
        }
      }
  MESSAGE("calm water, 5 masses x 3 steps x 2 starts: max (E - E0) / (|E0| + m g H) = " << worst);
}

TEST_CASE("HeaveOfTheBoxHullIsALinearSpringDampedAsOneOverOnePlusH2W2") {
  // A wall-sided hull with a wet bottom and a dry deck is an exact linear spring in heave, k = rho g L W. The
  // end-of-step buoyancy is backward Euler: (omega x_k, v_{k-1}) turns and shrinks by 1/sqrt(1 + h^2 w^2) per
  // step, so the energy above rest (the scene's energy, E = 0 damping) falls by exactly 1/(1 + h^2 w^2).
  for (const char* mass : {"1", "1200"}) {
    const Boat model([&] {
      BoatSettings s;
      s.mass = std::stod(mass);
      return s;
    }());
    const double heave = -0.5 * model.equilibriumDraft();  // stays wet below, dry above
    auto rest = makeBoat({{"mass", mass}, {"damping", "0,0,0"}});
    auto boat = makeBoat({{"mass", mass}, {"damping", "0,0,0"}, {"start_heave", std::to_string(heave)}});
    const double k = 1025.0 * 9.81 * 4.0 * 1.8, h = 1.0 / 60.0;
    const double decay = 1.0 / (1.0 + h * h * k / std::stod(mass));
    const Recorder r0 = recordScene(*rest, 1), r = recordScene(*boat, 12);
    const double eRest = at(r0, 0, "energy");
    // |excess_k - decay excess_{k-1}| in units of (1e-6 excess_{k-1} + 1e-12 E): relative accuracy while the
    // excess is large, the round-off floor of the energy (~1e-13 E, measured) once it has decayed.
    double worst = 0.0;
    int checked = 0;
    for (size_t j = 1; j < r.rows().size(); ++j) {
      const double excess = at(r, j, "energy") - eRest, before = at(r, j - 1, "energy") - eRest;
      if (before < 1e-9 * eRest) break;
      worst = std::max(worst, std::abs(excess - decay * before) / (1e-6 * before + 1e-12 * eRest));
      ++checked;
    }
    MESSAGE("heave, m = " << std::string(mass) << " kg: energy ratio per step 1/(1 + h^2 w^2) = " << decay
                          << ", worst error / tolerance " << worst << " over " << checked << " steps");
    CHECK(checked >= 3);
    CHECK(worst <= 1.0);
  }
}

TEST_CASE("UndampedImplicitBoatOnlyLosesEnergy") {
  // The same undamped start as UndampedBoatKeepsItsEnergyBounded, with the default implicit hull forces: the
  // energy never rises from one step to the next (backward Euler dissipates O(h^2 w^2) per step instead of
  // conserving), and it stays above the rest energy.
  auto boat = makeBoat({{"damping", "0,0,0"}, {"start_attitude", "0.2,0.05,0"}, {"start_heave", "0.05"}});
  auto rest = makeBoat({{"damping", "0,0,0"}});
  const Recorder r = recordScene(*boat, sanitized() ? 600 : 1800), r0 = recordScene(*rest, 1);
  double rise = 0.0;
  for (size_t k = 1; k < r.rows().size(); ++k) rise = std::max(rise, at(r, k, "energy") - at(r, k - 1, "energy"));
  const double e0 = at(r, 0, "energy"), eEnd = at(r, last(r), "energy"), eRest = at(r0, 0, "energy");
  MESSAGE("undamped, implicit: excess energy " << e0 - eRest << " J -> " << eEnd - eRest
                                               << " J after 30 s, largest rise per step " << rise << " J");
  CHECK(rise <= 1e-12 * e0);
  CHECK(eEnd < e0);
  CHECK(eEnd > eRest);
}

TEST_CASE("EnergyMinusInputWorkIsBoundedInWavesWindCurrentAndThrust") {
  // Waves, wind, current and thrust are sources: inputWork() books their work (thrust and P by the scheme's
  // trapezoid, wind and water as h f . source velocity of the implicit drag, moving waves as the hydrostatic
  // energy change their wrench's work does not explain). E - W may exceed E(0) only by the bounded telescoping
  // term of the explicit node force in the node momentum, (h^2 / 8 m) |F|^2 (lgvi_se3.h segmentWork).
  for (const char* mass : {"1", "1200"})
    for (const char* dt : {"0.1", "0.016666666666666666"}) {
      auto boat = makeBoat({{"mass", mass},
                            {"dt", dt},
                            {"wave_amplitude", "0.3"},
                            {"wind", "8,-3,0"},
                            {"current", "0.5,0.3,0"},
                            {"thrust_max", "20"}});
      const double h = std::stod(dt), m = std::stod(mass);
      const long steps = long(std::lround((sanitized() ? 1.0 : 20.0) / h));  // sanitizers: memory, >= 10 steps
      const Sweep r = passivity(*boat, steps, [](long k) { return InputVector{0.5 + 0.5 * std::sin(k / 50.0), 0.8}; });
      const double telescoping = h * h / (8.0 * m) * 2.0 * 20.0 * 20.0;
      MESSAGE("waves, wind, current, thrust: m = " << std::string(mass) << " kg, dt = " << std::string(dt)
                                                   << ": max (E - W) - E(0) = " << r.maxRise
                                                   << " J, W = " << boat->inputWork() << " J");
      CHECK(!r.diverged);
      CHECK(r.maxRise <= telescoping + 1e-9 * r.scale);
      CHECK(boat->inputWork() != 0.0);
    }
}

TEST_CASE("BaselineSchemesBookWindWaterAndWaveWorkSoTheEnergyMonitorStaysQuiet") {
  // hull_forces=explicit and rk4 book the media power of the drag and the sea's work not explained by the
  // hydrostatic wrench (like the implicit scheme), so the energy monitor judges them on physics: at defaults
  // and in the rough-sea preset they were flagged at t = 0.08-0.5 s with W = thrust only.
  const std::string duration = sanitized() ? "1" : "20";  // the old flags came at t = 0.08-0.5 s
  const std::string rough = std::string(VARSIM_ASSET_DIR) + "/scenes/boat_rough_sea.json";
  // Sanitizers check memory: the rough sea (waves, wind, current, thrust) has every code path the default has.
  const std::vector<std::string> sources =
      sanitized() ? std::vector<std::string>{rough} : std::vector<std::string>{"boat", rough};
  for (const std::string& source : sources)
    for (const char* scheme : {"hull_forces=explicit", "integrator=rk4"}) {
      const std::string csv = test::testOut("boat_baseline_monitor.csv");
      const auto r = test::runCaptured({"run", source, "--set", scheme, "--duration", duration, "--csv", csv});
      INFO(source << " " << scheme << ": " << r.err);
      REQUIRE(r.exitCode == 0);
      CHECK(r.err.find("energy gained") == std::string::npos);
      const auto table = test::readCsv(csv);
      const auto flags = table.column("energy_flag");
      CHECK(*std::max_element(flags.begin(), flags.end()) == 0.0);
    }
}
