// ui/headless_help.cpp — the subcommand table and the help answers (see header). The usage texts stay next to
// their parsers (run, plan, mpc, study), which print them on stderr for a bad flag; this table only points at them.
#include "ui/headless_help.h"

#include <algorithm>
#include <cstdio>

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "plan/mpc_run.h"
#include "study/study_runner.h"
#include "ui/headless_runner.h"
#include "ui/plan_command.h"

namespace varsim {
namespace {

const char* gAppUsage = nullptr;

bool isHelpFlag(const std::string& arg) { return arg == "--help" || arg == "-h"; }

}  // namespace

const std::vector<HeadlessCommand>& headlessCommands() {
  static const std::vector<HeadlessCommand> commands = {
      {"list", "scene names, one per line", "usage: varsim list\n  the scene names, one per line"},
      {"describe", "a scene's parameters (default, unit, range), controls and CSV columns as JSON",
       "usage: varsim describe SCENE\n  SCENE: a name of `varsim list`"},
      {"run", "simulate a scene at a fixed step: CSV, video or PNG frames", kRunUsage},
      {"plan", "optimal control of a vehicle (Ipopt): the plan's CSV and the inputs that replay it", kPlanUsage},
      {"mpc", "a vehicle in closed loop, re-planned on a receding horizon", kMpcUsage},
      {"study", "integrator comparisons (seed 000 Figs. 3-5): tables and CSV", study::kStudyUsage},
      {"help", "this overview; `varsim help SUBCOMMAND` prints that subcommand's usage",
       "usage: varsim help [SUBCOMMAND]\n  the overview of the subcommands, or SUBCOMMAND's usage (= varsim "
       "SUBCOMMAND --help)"},
  };
  return commands;
}

bool isKnownCommand(const std::string& name) { return !commandUsage(name).empty(); }

std::string commandUsage(const std::string& name) {
  for (const HeadlessCommand& c : headlessCommands())
    if (name == c.name) return c.usage;
  return "";
}

std::string allowedCommands() {
  std::string names;
  for (const HeadlessCommand& c : headlessCommands()) names += (names.empty() ? "" : ", ") + std::string(c.name);
  return names;
}

std::string headlessOverview() {
  std::string text = "usage: varsim SUBCOMMAND [ARGS]...   (headless: no display needed)\n";
  for (const HeadlessCommand& c : headlessCommands()) {
    const std::string name = c.name;
    text += "  " + name + std::string(10 - name.size(), ' ') + c.summary + "\n";
  }
  text += "`varsim SUBCOMMAND --help` (or -h) prints that subcommand's usage.\n";
  if (gAppUsage) text += std::string("\nWithout a subcommand varsim opens the app (needs a display):\n") + gAppUsage;
  return text;
}

void setAppUsage(const char* text) { gAppUsage = text; }

int answerHelp(const std::vector<std::string>& args) {
  if (args.empty()) return -1;
  const std::string command = isHelpFlag(args[0]) ? "help" : args[0];
  if (!isKnownCommand(command)) return -1;  // the dispatcher refuses it, naming the allowed subcommands
  const bool flag = std::any_of(args.begin() + 1, args.end(), isHelpFlag);
  if (!flag && command != "help") return -1;  // a subcommand without --help runs
  std::string text;
  if (flag) {
    text = commandUsage(command);
  } else if (args.size() == 1) {
    text = headlessOverview();
  } else if (args.size() == 2 && isKnownCommand(args[1])) {
    text = commandUsage(args[1]);
  } else {
    throw BadInput("help " + shortText(args[1]) + (args.size() > 2 ? " ...: one subcommand at most" : ": unknown subcommand") +
                   "; allowed: " + allowedCommands());
  }
  std::printf("%s%s", text.c_str(), text.back() == '\n' ? "" : "\n");
  std::fflush(stdout);
  return kExitOk;
}

}  // namespace varsim
