// tests/test_mpc_boat.cpp — assets/problems/boat_hold.json under `varsim mpc`: the boat holds station at the dock
// against a wind 50 % stronger than the controller's model (horizon 3 s, a re-plan every 0.2 s), where the same boat
// without its thrusters drifts off downwind; unset, the period is two steps (0.2 s) and a re-plan every step is
// refused (the plan's first thrust is the held one).
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "tests/csv_table.h"
#include "tests/headless_capture.h"
#include "tests/plan_harness.h"

using namespace varsim;
using namespace varsim::test;

TEST_CASE("MpcBoatHoldsStationInAStrongerWindThanItsModel") {
  const std::string problem = problemFile("boat_hold"), csv = testOut("mpc_boat_hold.csv");
  const HeadlessResult r = runCaptured({"mpc", problem, "--horizon", "30", "--period", "0.2", "--duration", "10",
                                        "--disturb", "wind=9,4.5,0", "--csv", csv});
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  const CsvTable t = readCsv(csv);
  REQUIRE(t.rows.size() == 101);
  int solves = 0, adopted = 0;
  double worst = 0.0;
  for (size_t k = 0; k < t.rows.size(); ++k) {
    solves += t.at(k, "mpc_status") >= 0.0, adopted += t.at(k, "mpc_status") == 1.0;
    worst = std::max(worst, t.at(k, "tracking_error"));
  }
  const size_t last = t.rows.size() - 1;
  // The drift of the same boat in the same wind with its thrusters idle.
  const std::string drift = testOut("boat_hold_drift.csv");
  REQUIRE(runCaptured({"run", "boat", "--set", "dt=0.1", "--set", "wave_amplitude=0", "--set", "patch_size=0.5", "--set",
                       "start_attitude=0,0,-2.677945044588987", "--set", "wind=9,4.5,0", "--duration", "10", "--csv",
                       drift})
              .exitCode == 0);
  const CsvTable d = readCsv(drift);
  const double drifted = std::hypot(d.at(d.rows.size() - 1, "x"), d.at(d.rows.size() - 1, "y"));
  MESSAGE("boat_hold 10 s in wind 9,4.5 (model 6,3): " << adopted << "/" << solves << " adopted, error <= " << worst
                                                      << " m, thrust " << t.at(last, "u_left") << " / "
                                                      << t.at(last, "u_right") << " N; idle drift " << drifted << " m");
  CHECK(solves == 50);
  CHECK(adopted == 50);
  CHECK(worst < 0.06);  // measured 0.048 m: the offset where the model's wind and the terminal penalty balance
  CHECK(t.at(last, "u_left") > 20.0);
  CHECK(drifted > 10.0 * worst);
}

TEST_CASE("MpcBoatDefaultPeriodIsTwoStepsAndOneStepIsRefused") {
  // Unset, the boat's period is two steps of its dt (0.2 s at h = 0.1 s): re-plans before the steps from t = 0, 0.2
  // and 0.4 s, none between (a step's re-plan is on the row after it: 1 adopted, -1 none).
  const std::string problem = problemFile("boat_hold"), csv = testOut("mpc_boat_default_period.csv");
  const HeadlessResult r = runCaptured({"mpc", problem, "--duration", "0.5", "--csv", csv});
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  const CsvTable t = readCsv(csv);
  REQUIRE(t.rows.size() == 6);
  std::vector<double> replanned;
  for (size_t k = 0; k < t.rows.size(); ++k) {
    INFO("row " << k << ", t = " << t.at(k, "t"));
    CHECK(t.at(k, "mpc_status") == (k % 2 == 1 ? 1.0 : -1.0));
    if (t.at(k, "mpc_status") == 1.0) replanned.push_back(t.at(k, "t"));
  }
  REQUIRE(replanned.size() == 3);
  CHECK(replanned[1] - replanned[0] == doctest::Approx(0.2).epsilon(1e-12));
  CHECK(replanned[2] - replanned[1] == doctest::Approx(0.2).epsilon(1e-12));
  // A re-plan every step (an explicit period of one step) would never change the thrust: refused.
  const HeadlessResult every = runCaptured({"mpc", problem, "--period", "0.1", "--duration", "0.2"});
  CHECK(every.exitCode == 2);
  CHECK(every.err.find("period 0.1 s: allowed >= 2 steps of the scene's dt (0.2 s) for the boat: a plan's first "
                       "thrust is the held one") != std::string::npos);
}
