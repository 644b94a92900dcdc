// False energy flags on documented-safe paths (issue 37 item 6): a live wave edit on the boat and the floating
// chain at the edge of its own dt rule run unflagged, and the numbers say why (the edit's energy jump booked
// once as work; the chain's bounded LGVI error against its turn-rate scale).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "csv_table.h"
#include "headless_capture.h"

using varsim::test::readCsv;
using varsim::test::runCaptured;
using varsim::test::testOut;
using varsim::test::writeFile;

namespace {

double maxOf(const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }

}  // namespace

TEST_CASE("hostile energy: a live wave_amplitude edit on the boat is work, booked once") {
  const std::string events = testOut("hostile_energy_boat.csv"), csv = testOut("hostile_energy_boat_out.csv");
  writeFile(events, "step,thrust_left\nevent,50,param,wave_amplitude,0.5\n");
  const auto r = runCaptured({"run", "boat", "--input", events, "--steps", "300", "--csv", csv});
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  CHECK(r.err.find("energy gained") == std::string::npos);
  const auto t = readCsv(csv);
  // The edit puts the hull into a 0.5 m sea: E drops by ~4 kJ at fixed state (measured 2980 J -> -994 J). Both
  // the scene (inputWork) and the run (edit work) booked that jump, so W fell by twice it and G rose by +3332 J
  // against 455 J allowed at step 51. Booked once, G stays below zero and E follows the booked work.
  const double jump = t.at(51, "energy") - t.at(50, "energy");
  MESSAGE("boat: E jumps by " << jump << " J at the edit; max energy_gain over 300 steps " << maxOf(t.column("energy_gain"))
                              << " J");
  CHECK(jump < -3000);
  CHECK(maxOf(t.column("energy_gain")) < 10.0);
  CHECK(maxOf(t.column("energy_flag")) == 0.0);
}

TEST_CASE("hostile energy: the floating chain inside its dt rule is not flagged") {
  // dt (|omega| + |rdot_1| + |rdot_2|) = 0.1 * 11.87 = 1.19 <= 1.2 (accepted): the LGVI's error is bounded and
  // oscillates with the fast joint; the scale now uses the distal body's turn rate, as the dt rule does.
  for (const char* rates : {"joint_rates=10,-1.5", "joint_rates=-10,1.5", "joint_rates=1.5,10"}) {
    CAPTURE(rates);
    const std::string csv = testOut("hostile_energy_chain.csv");
    const auto r = runCaptured({"run", "floating_chain", "--set", rates, "--duration", "20", "--csv", csv});
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const auto t = readCsv(csv);
    const auto e = t.column("energy");
    const double e0 = e.front(), spread = maxOf(e) - *std::min_element(e.begin(), e.end());
    MESSAGE(std::string(rates) << ": E0 " << e0 << " J, E spread over 20 s " << spread << " J ("
                  << 100 * spread / std::abs(e0) << " %), max gain " << maxOf(t.column("energy_gain")) << " J");
    CHECK(maxOf(t.column("energy_flag")) == 0.0);
    CHECK(spread < 0.25 * std::abs(e0));  // bounded (validateChain's measurement: <= 22 % at the limit)
  }
}

TEST_CASE("hostile energy: the helicopter spinning on its pad runs unflagged up to its turn rule, refused past it") {
  // 100 rad/s about x at dt 1/60 turned a skid end ~95 degrees into the ground in one step: +5.1e5 J at step 1.
  const auto over = runCaptured({"run", "helicopter", "--set", "start_omega=100,0,0", "--steps", "1"});
  CHECK(over.exitCode == 2);
  CHECK(over.err.find("key 'start_omega' = 100,0,0 with dt = ") != std::string::npos);
  CHECK(over.err.find("allowed dt |start_omega| <= 1.2 rad (|start_omega| <= 72 rad/s at this dt)") != std::string::npos);
  for (const char* spin : {"start_omega=72,0,0", "start_omega=0,0,72", "start_omega=50.9,50.9,0"}) {
    CAPTURE(spin);
    const std::string csv = testOut("hostile_energy_heli.csv");
    const auto r = runCaptured({"run", "helicopter", "--set", spin, "--duration", "5", "--csv", csv});
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const auto t = readCsv(csv);
    MESSAGE(std::string(spin) << ": E0 " << t.at(0, "energy") << " J, max energy_gain " << maxOf(t.column("energy_gain"))
                              << " J");
    CHECK(maxOf(t.column("energy_flag")) == 0.0);
    CHECK(maxOf(t.column("energy_gain")) <= 0.0);  // contact and drag only take energy out (measured: 0 J)
  }
}
