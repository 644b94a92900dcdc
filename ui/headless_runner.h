// The headless runner (`varsim list | describe | run`): the contract tests and outside checks rely
// on. Never touches a display. Exit codes: 0 ok, 2 bad input, 3 the simulation diverged.
#pragma once
#include <string>
#include <vector>

namespace varsim {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;
constexpr int kExitDiverged = 3;

bool isHeadlessCommand(const std::string& arg);
int runHeadless(const std::vector<std::string>& args);  // args[0] is the command

}  // namespace varsim
