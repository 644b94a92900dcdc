// The headless runner (`varsim list | describe | run | plan | mpc | study | help`): the contract tests and outside checks rely
// on. Never touches a display. Exit codes: 0 ok, 2 bad input, 3 the simulation diverged; no exception
// leaves runHeadless.
#pragma once
#include <string>
#include <vector>

namespace varsim {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;
constexpr int kExitDiverged = 3;

// Most physics steps one `varsim run` may take (--steps, or --duration / dt). 1e8 steps is 19 days of
// simulated time at the default h = 1/60 s: ~2 min for the cheapest scene (car, ~1 us/step measured)
// and hours for the rod scenes. Longer is a typo (1e17) or a wrapped conversion, not a run anyone
// waits for; soaks that need more run in-process (bench_ladder --soak).
constexpr double kMaxRunSteps = 1e8;

extern const char* const kRunUsage;  // `varsim run`'s usage (ui/headless_help.h lists every subcommand's)

// args[0] is for the headless runner (a subcommand word or a help flag), not for the app.
bool isHeadlessCommand(const std::string& arg);
int runHeadless(const std::vector<std::string>& args);  // args[0] is the command

}  // namespace varsim
