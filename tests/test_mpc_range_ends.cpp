// tests/test_mpc_range_ends.cpp — `varsim mpc` at the ends of every option's range (horizon, period, iteration
// budget, restart, mismatch factor; the helicopter's disturbances and receding-horizon keys) on the car (car_goto) and
// the helicopter (heli_follow): each run completes with exit 0, or exit 4 naming the cause when no re-plan could be
// adopted, and writes one CSV row per step; never a crash. Values outside the ranges exit 2 naming the key.
#include <doctest/doctest.h>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tests/csv_table.h"
#include "tests/headless_capture.h"
#include "tests/plan_harness.h"

using namespace varsim;
using namespace varsim::test;

namespace {

void runEnds(const std::string& problem, const std::string& duration, size_t rows,
             const std::vector<std::vector<std::string>>& cases) {
  for (const std::vector<std::string>& extra : cases) {
    const std::string csv = testOut("mpc_ends_" + problem + ".csv");
    std::vector<std::string> args = {"mpc", problemFile(problem), "--duration", duration, "--csv", csv};
    args.insert(args.end(), extra.begin(), extra.end());
    const HeadlessResult r = runCaptured(args);
    std::string line;
    for (const std::string& a : extra) line += a + " ";
    INFO(problem << " " << line << ": exit " << r.exitCode << ": " << r.err);
    CHECK((r.exitCode == 0 || r.exitCode == 4));
    if (r.exitCode == 4) CHECK(r.err.find("0 adopted") != std::string::npos);
    CHECK(r.err.find("solves") != std::string::npos);  // the closing summary line
    CHECK(readCsv(csv).rows.size() == rows);
  }
}

}  // namespace

TEST_CASE("MpcCarAtTheEndsOfEveryRange") {
  runEnds("car_goto", "1", 21,
          {{"--horizon", "2", "--period", "0.05"},    // the shortest horizon, a re-plan every step
           {"--horizon", "2", "--period", "0.1"},     // the period as long as the horizon
           {"--iterations", "1"},                     // a budget no solve finishes in
           {"--iterations", "100000", "--restart", "0"},
           {"--restart", "0.05"},                     // a cold restart at every re-plan
           {"--restart", "3600"},
           {"--cold", "--restart", "0"},
           {"--mismatch", "m=0.01"},                  // the real car 100 times lighter, then 100 times heavier
           {"--mismatch", "m=100", "--mismatch", "I=100"}});
}

TEST_CASE("MpcHelicopterAtTheEndsOfEveryRange") {
  runEnds("heli_follow", "0.5", 6,
          {{"--horizon", "2"},
           {"--horizon", "30", "--period", "3"},
           {"--horizon", "30", "--iterations", "1"},
           {"--horizon", "30", "--mismatch", "mass=0.01"},
           {"--horizon", "30", "--mismatch", "mass=100"},
           // the disturbances and the receding-horizon keys at their range ends
           {"--horizon", "30", "--disturb", "gust_strength=20"},
           {"--horizon", "30", "--disturb", "wind=50,50,50"},
           {"--horizon", "30", "--push", "0.2,1e5,1e5,1e5"},
           {"--horizon", "30", "--set", "weight_track=1e6"},
           {"--horizon", "30", "--set", "target_vx=100", "--set", "target_vy=-100", "--set", "target_vz=100"},
           {"--horizon", "30", "--set", "end_at_rest=true", "--set", "weight_track=0"}});
}

TEST_CASE("MpcSolverOptionsOutsideTheirRangesAreRefused") {
  // --dynamics-tolerance from 1e-6 to 1, --kkt one of two names: refused before any solve, naming the flag.
  for (const auto& [flag, value] : {std::pair<const char*, const char*>{"--dynamics-tolerance", "9e-7"},
                                    {"--dynamics-tolerance", "1.5"},
                                    {"--dynamics-tolerance", "nan"},
                                    {"--kkt", "ma57"}}) {
    const HeadlessResult r = runCaptured({"mpc", problemFile("car_goto"), "--duration", "0.1", flag, value});
    INFO(flag << " " << value << ": " << r.err);
    CHECK(r.exitCode == 2);
    CHECK(r.err.find(flag) != std::string::npos);
    CHECK(r.err.find(value) != std::string::npos);
  }
  // The ends themselves run (the car's first re-plan adopted either way; 0.1 s = 2 steps, one re-plan).
  for (const char* tol : {"1e-6", "1"}) {
    const HeadlessResult r =
        runCaptured({"mpc", problemFile("car_goto"), "--duration", "0.1", "--kkt", "ldl", "--dynamics-tolerance", tol});
    INFO(tol << ": " << r.err);
    CHECK(r.exitCode == 0);
  }
}

TEST_CASE("MpcDisturbancesOutsideTheirRangesAreRefused") {
  const std::string problem = problemFile("heli_follow");
  for (const auto& [flag, value, expected] :
       {std::tuple<const char*, const char*, const char*>{"--disturb", "gust_strength=20.5", "gust_strength"},
        {"--disturb", "wind=0,0,51", "wind"},
        {"--push", "0.2,2e5,0,0", "push"},
        {"--push", "-1,0,0,0", "--push time"},
        {"--disturb", "colour=1", "colour"}}) {
    const HeadlessResult r = runCaptured({"mpc", problem, "--duration", "0.1", flag, value});
    INFO(flag << " " << value << ": " << r.err);
    CHECK(r.exitCode == 2);
    CHECK(r.err.find(expected) != std::string::npos);
  }
}
