// tests/test_mpc_boat_snake_range_ends.cpp — `varsim mpc` on the boat (boat_follow) and the snakeboard
// (snakeboard_follow) at the ends of the horizon, period and iteration budget: each run completes with exit 0 (or 4
// when no re-plan was adopted: a budget of 1 iteration in the first second, the boat's with its presets' L-BFGS
// Hessian and the snakeboard's) and one CSV row per step
// (20 s of each in docs/mpc.md; 1 s here), and values past the ends exit 2 naming the option, the
// value and the range: the receding horizon of both is capped at 200 segments (a re-plan there takes 0.7 s of CPU;
// at the plans' own N limits a 20 s run took from minutes to hours).
#include <doctest/doctest.h>

#include <string>
#include <tuple>
#include <vector>

#include "tests/csv_table.h"
#include "tests/headless_capture.h"
#include "tests/plan_harness.h"

using namespace varsim;
using namespace varsim::test;

TEST_CASE("MpcBoatAndSnakeboardAtTheEndsOfEveryRange") {
  for (const auto& [problem, extra] : std::vector<std::tuple<std::string, std::vector<std::string>>>{
           {"boat_follow", {"--horizon", "2", "--period", "0.2"}},  // the shortest horizon, the period as long as it
           {"boat_follow", {"--horizon", "200", "--period", "0.2"}},  // the longest horizon, the shortest period
           {"boat_follow", {"--horizon", "30", "--period", "3"}},
           {"boat_follow", {"--horizon", "30", "--period", "0.2", "--iterations", "1"}},
           {"boat_follow", {"--horizon", "30", "--period", "0.2", "--iterations", "100000", "--restart", "0"}},
           {"snakeboard_follow", {"--horizon", "2", "--period", "0.1"}},
           {"snakeboard_follow", {"--horizon", "200"}},
           {"snakeboard_follow", {"--horizon", "30", "--period", "3"}},
           {"snakeboard_follow", {"--horizon", "30", "--iterations", "1"}},
           {"snakeboard_follow", {"--horizon", "30", "--iterations", "100000", "--restart", "0"}}}) {
    const std::string csv = testOut("mpc_ends_" + problem + ".csv");
    std::vector<std::string> args = {"mpc", problemFile(problem), "--duration", "1", "--csv", csv};
    args.insert(args.end(), extra.begin(), extra.end());
    const HeadlessResult r = runCaptured(args);
    std::string line;
    for (const std::string& a : extra) line += a + " ";
    INFO(problem << " " << line << ": exit " << r.exitCode << ": " << r.err);
    CHECK((r.exitCode == 0 || (r.exitCode == 4 && r.err.find("(0 adopted") != std::string::npos)));
    CHECK(readCsv(csv).rows.size() == 11);
  }
}

TEST_CASE("MpcBoatAndSnakeboardRefuseValuesPastTheirRanges") {
  for (const auto& [problem, flag, value, expected] : std::vector<std::tuple<const char*, const char*, const char*, const char*>>{
           {"boat_follow", "--horizon", "201", "horizon 201: allowed 2 to 200 (the boat's receding horizon"},
           {"boat_follow", "--horizon", "2000", "horizon 2000: allowed 2 to 200"},
           {"boat_follow", "--horizon", "1", "--horizon 1: allowed 2 to 2e+04"},
           {"boat_follow", "--period", "0.1", "period 0.1 s: allowed >= 2 steps"},  // one step of the boat's dt
           {"boat_follow", "--period", "3.1", "period 3.1 s: allowed the scene's dt (0.1 s) to the horizon (3 s)"},
           {"boat_follow", "--iterations", "0", "--iterations 0: allowed 1 to 1e+05"},
           {"snakeboard_follow", "--horizon", "201", "horizon 201: allowed 2 to 200 (the snakeboard's receding horizon"},
           {"snakeboard_follow", "--horizon", "20000", "horizon 20000: allowed 2 to 200"},
           {"snakeboard_follow", "--period", "0.05", "period 0.05 s: allowed the scene's dt (0.1 s)"},
           {"snakeboard_follow", "--iterations", "100001", "--iterations 100001: allowed 1 to 1e+05"}}) {
    const HeadlessResult r = runCaptured({"mpc", problemFile(problem), "--duration", "0.2", flag, value});
    const std::string what = std::string(problem) + " " + flag + " " + value + ": " + r.err;
    INFO(what);
    CHECK(r.exitCode == 2);
    CHECK(r.err.find(expected) != std::string::npos);
  }
}
