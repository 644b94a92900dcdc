// tests/test_mpc_disturbances.cpp — the disturbances a controller must reject (issue 34 item 2): the seeded gust
// model (engine/models/wind_gusts.h: same seed, same gusts; its spread is the strength), the helicopter's push key
// (the impulse arrives in full over one step), the plan refusing wind it does not model, and the receding-horizon
// controller bringing the helicopter back to a hover point after a sideways push it does not know about.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>

#include "engine/models/wind_gusts.h"
#include "tests/csv_table.h"
#include "tests/headless_capture.h"
#include "tests/plan_harness.h"

using namespace varsim;
using namespace varsim::test;

TEST_CASE("GustsAreSeededAndSpreadAsTheStrength") {
  const GustSettings a{2.0, 7, 1.0}, b{2.0, 8, 1.0};
  CHECK(gustVelocity(a, 3.25) == gustVelocity(a, 3.25));
  CHECK((gustVelocity(a, 3.25) - gustVelocity(b, 3.25)).norm() > 1e-3);
  CHECK(gustVelocity({0.0, 7, 1.0}, 3.25) == Vector3d::Zero());
  // Linear between the samples at whole seconds.
  const Vector3d mid = gustVelocity(a, 4.5), ends = 0.5 * (gustVelocity(a, 4.0) + gustVelocity(a, 5.0));
  CHECK((mid - ends).norm() < 1e-12);
  Vector3d sum = Vector3d::Zero(), squares = Vector3d::Zero();
  const int n = 4000;
  for (int i = 0; i < n; ++i) {
    const Vector3d g = gustVelocity(a, double(i));
    sum += g, squares += g.cwiseProduct(g);
  }
  const Vector3d mean = sum / n, sd = (squares / n - mean.cwiseProduct(mean)).cwiseSqrt();
  MESSAGE("gust samples: mean " << mean.transpose() << ", sd " << sd.transpose() << " (strength 2)");
  CHECK(mean.head<2>().norm() < 0.15);
  CHECK(std::abs(sd.x() - 2.0) < 0.15);
  CHECK(std::abs(sd.y() - 2.0) < 0.15);
  CHECK(std::abs(sd.z() - 0.6) < 0.05);
}

TEST_CASE("HelicopterPushArrivesInFullOverOneStep") {
  // At step 3 (an input file's param event): the momentum after that step has the whole impulse, less a step of
  // drag; the energy bookkeeping counts it as input work (no flag even at the range end, 1e5 N s per axis).
  const std::string input = testOut("heli_push_events.csv"), csv = testOut("heli_push.csv");
  {
    std::ofstream f(input);
    f << "step,yaw,throttle,roll,pitch\n0,0,0,0,0\nevent,3,param,push,0,3000,0\nevent,5,param,push,1e5,1e5,1e5\n";
  }
  const HeadlessResult r = runCaptured({"run", "helicopter", "--set", "start_position=0,0,10", "--input", input,
                                        "--steps", "8", "--csv", csv});
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  CHECK(r.err.find("gained") == std::string::npos);
  const CsvTable t = readCsv(csv);
  CHECK(t.at(3, "p_y") == 0.0);
  CHECK(t.at(4, "p_y") > 2990.0);  // measured 2992.4
  CHECK(t.at(4, "p_y") < 3000.0);
  // Set at the start it is part of the start velocity.
  const std::string csv0 = testOut("heli_push_start.csv");
  REQUIRE(runCaptured({"run", "helicopter", "--set", "start_position=0,0,10", "--set", "push=0,3000,0", "--steps",
                       "1", "--csv", csv0})
              .exitCode == 0);
  CHECK(readCsv(csv0).at(0, "p_y") == doctest::Approx(3000.0).epsilon(1e-12));
}

TEST_CASE("HeliPlanRefusesWindItDoesNotModel") {
  const HeadlessResult r = runPlan(problemFile("heli_follow"), {"gust_strength=2"}, testOut("heli_gust_plan.csv"),
                                   testOut("heli_gust_plan.inputs"));
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("'gust_strength' = 2: allowed 0") != std::string::npos);
  const HeadlessResult p = runCaptured({"mpc", problemFile("heli_follow"), "--duration", "0.1", "--push", "1,2"});
  CHECK(p.exitCode == 2);
  CHECK(p.err.find("allowed T,PX,PY,PZ") != std::string::npos);
}

TEST_CASE("MpcHelicopterRecoversFromAPush") {
  // Hovering at the goal (112, 0, 8); at 0.5 s a 3000 N s sideways push (5 m/s for the 600 kg helicopter).
  const std::string csv = testOut("mpc_heli_push.csv");
  const HeadlessResult r = runCaptured({"mpc", problemFile("heli_follow"), "--set", "start_position=112,0,8",
                                        "--duration", "3", "--push", "0.5,0,3000,0", "--csv", csv});
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  const CsvTable t = readCsv(csv);
  double before = 0.0, peak = 0.0;
  int adopted = 0;
  for (size_t k = 0; k < t.rows.size(); ++k) {
    (t.at(k, "t") < 0.5 ? before : peak) = std::max(t.at(k, "t") < 0.5 ? before : peak, t.at(k, "tracking_error"));
    adopted += t.at(k, "mpc_status") == 1.0;
  }
  const double final = t.at(t.rows.size() - 1, "tracking_error");
  MESSAGE("push: error " << before << " m before, peak " << peak << " m, " << final << " m at 3 s; " << adopted
                         << " of 30 re-plans adopted");
  // The helicopter's defaults (horizon 30, at most 12 iterations, budgeted solves rolled out); with 12 iterations and
  // no roll-out (--rollout false --dynamics-tolerance 1e-3) it was 11 of 30 adopted and 12.7 m off at 3 s.
  CHECK(before < 0.05);  // measured 1.7e-11 m
  CHECK(peak > 2.0);     // measured 2.34 m: the push carried it away
  CHECK(peak < 4.0);
  CHECK(final < 0.75);   // measured 0.31 m (round-off in the KKT solves moves it: 0.10 m with other orders)
  CHECK(adopted >= 27);  // measured 30
}
