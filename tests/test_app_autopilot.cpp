// The app's Autopilot (MPC) (ui/core/autopilot.h) through the driver's input path, as the app flies it: the
// autopilot's input source sits where the devices' does (ui/core/autopilot_input.h), its re-plans run on its worker
// thread (waited for: synchronous, as in the app's smoke test), and its controls reach the car as the plan's events.
// The closed loop is the one `varsim mpc` runs: the same controller on the same scene gives the same trajectory.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "engine/sim/errors.h"
#include "plan/mpc_controller.h"
#include "plan/plan_problem.h"
#include "ui/core/asset_files.h"
#include "ui/core/autopilot.h"
#include "ui/core/autopilot_input.h"
#include "ui/core/sim_driver.h"
#include "ui/input/live_input.h"

using namespace varsim;

namespace {

double columnOf(const SimDriver& d, const char* name) {
  for (size_t i = 0; i < d.columns().size(); ++i)
    if (d.columns()[i] == name) return d.lastRow()[i];
  return NAN;
}

}  // namespace

TEST_CASE("AutopilotFliesTheCarToItsGoalThroughTheDriversInputAsVarsimMpcDoes") {
  SimDriver driver;
  driver.load("car", SceneRegistry::defaults("car"));
  // The car runs at 1/60 s; the autopilot flies it at its controller's step (car_follow: 0.05 s), from where it is.
  const ParamSet flight = Autopilot::flightParams("car", driver.scene(), driver.params());
  CHECK(flight.real("dt") == 0.05);
  driver.load("car", flight);
  LiveInput live;
  live.configure(driver.controls(), {});
  Autopilot pilot;
  AutopilotInput input(driver, pilot, live);
  driver.setLiveInput(&input);
  pilot.engage("car", driver.scene(), 6.0, 0.0, true);
  const int steps = 100;  // 5 s
  std::vector<double> xs;
  for (int k = 0; k < steps; ++k) {
    REQUIRE(driver.stepOnce());
    xs.push_back(columnOf(driver, "x"));
  }
  const double x = columnOf(driver, "x"), y = columnOf(driver, "y");
  const AutopilotView v = pilot.view();
  std::printf("autopilot car -> (6, 0) in 5 s: at (%.4f, %.4f), %.3f m away, impacts %g, %d re-plans (%d stale), "
              "predicted path %zu points\n",
              x, y, std::hypot(x - 6.0, y), columnOf(driver, "impacts"), v.solves, v.stale, v.predicted.size());
  CHECK(std::hypot(x - 6.0, y) < 0.3);
  CHECK(columnOf(driver, "impacts") == 0.0);
  CHECK(v.stale <= 2);
  CHECK(v.solves == steps / 2 + v.stale);  // one re-plan per 0.1 s period, and every step until one is adopted
  CHECK(v.predicted.size() >= 2);
  // The plan's events set the car's live keys on the scene, not on the user's parameters (restored on hand-back).
  const std::vector<std::string> keys = pilot.disengage();
  CHECK(std::find(keys.begin(), keys.end(), "torque") != keys.end());
  CHECK(driver.params().real("torque") == flight.real("torque"));

  // `varsim mpc`'s loop (ui/mpc_command.cpp) with the same controller settings on the same scene: bit-identical.
  PlanSetup setup = loadPlanProblem(assetPath("problems/car_follow.json"));
  setup.scene = {"car", flight};
  MpcSettings settings;
  settings.horizon = 60;
  MpcController mpc(setup, settings);
  mpc.setGoal({{"target_x", 6.0}, {"target_y", 0.0}});
  ParamSet edited = flight;
  auto scene = SceneRegistry::create("car", flight);
  std::vector<double> row;
  int differing = 0;
  for (long k = 0; k < steps; ++k) {
    scene->step(scene->dt(), mpc.beforeStep(*scene, edited, k));
    scene->diagnostics(row);
    differing += row[1] != xs[size_t(k)];  // x, step by step
  }
  CHECK(differing == 0);
  scene->diagnostics(row);
  const std::vector<std::string> cols = scene->columns();
  const auto at = [&](const char* name) { return row[size_t(std::find(cols.begin(), cols.end(), name) - cols.begin())]; };
  CHECK(at("x") == x);
  CHECK(at("y") == y);
}

TEST_CASE("AutopilotFliesTheCarAsynchronouslyTheSameWayEveryTime") {
  // The app's way: the driver's frames never wait; a step whose re-plan is still running is not run this frame
  // (readyForStep), and each re-plan starts one period ahead, on the plan the car flies meanwhile. However long a
  // solve takes, the trajectory by step is the same: two runs agree bit for bit.
  std::vector<double> finals;
  for (int run = 0; run < 2; ++run) {
    SimDriver driver;
    driver.load("car", SceneRegistry::defaults("car"));
    driver.load("car", Autopilot::flightParams("car", driver.scene(), driver.params()));
    LiveInput live;
    live.configure(driver.controls(), {});
    Autopilot pilot;
    AutopilotInput input(driver, pilot, live);
    driver.setLiveInput(&input);
    pilot.engage("car", driver.scene(), 6.0, 0.0, false);
    long frames = 0, idle = 0;
    while (driver.step() < 100 && frames < 2000000) {
      const int ran = driver.frame(0.05);  // one step per frame when its inputs are ready
      ++frames;
      if (ran == 0) {
        ++idle;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
    }
    const double x = columnOf(driver, "x"), y = columnOf(driver, "y");
    std::printf("autopilot car, asynchronous, run %d: (%.4f, %.4f) after 5 s, %.3f m from (6, 0), impacts %g, "
                "%ld of %ld frames waited for a re-plan\n",
                run, x, y, std::hypot(x - 6.0, y), columnOf(driver, "impacts"), idle, frames);
    REQUIRE(driver.step() == 100);
    CHECK(std::hypot(x - 6.0, y) < 0.5);  // a period later than the synchronous loop's 0.271 m
    CHECK(columnOf(driver, "impacts") == 0.0);
    finals.push_back(x);
    finals.push_back(y);
  }
  CHECK(finals[0] == finals[2]);
  CHECK(finals[1] == finals[3]);
}

TEST_CASE("AutopilotRefusesASceneWithoutAProblem") {
  SimDriver driver;
  driver.load("pendulum", SceneRegistry::defaults("pendulum"));
  CHECK_FALSE(Autopilot::available("pendulum"));
  CHECK(Autopilot::available("car"));
  CHECK(Autopilot::available("helicopter"));
  Autopilot pilot;
  CHECK_THROWS_AS(pilot.engage("pendulum", driver.scene(), 0.0, 0.0, true), BadInput);
  CHECK_FALSE(pilot.active());
}
