// ui/headless_help.h — the headless subcommands (name, one-line summary, usage text) and the one help path the
// dispatcher takes: `varsim --help | -h | help` prints the overview, `varsim help X` and `--help` or `-h` anywhere
// in X's arguments print X's usage on stdout and exit 0; nothing else runs. A bad flag keeps its usage on stderr.
#pragma once
#include <string>
#include <vector>

namespace varsim {

struct HeadlessCommand {
  const char* name;     // the word after `varsim`
  const char* summary;  // one line of the overview
  const char* usage;    // what `varsim NAME --help` prints
};

// Every subcommand runHeadless dispatches, `help` last.
const std::vector<HeadlessCommand>& headlessCommands();
bool isKnownCommand(const std::string& name);
std::string commandUsage(const std::string& name);  // "" for an unknown name
std::string allowedCommands();                      // "list, describe, ..., help"

// The overview `varsim --help` prints: one line per subcommand, then the app's usage when one was set.
std::string headlessOverview();
// The desktop app's usage (ui/core/app_options.h), given by main.cpp when the app is built.
void setAppUsage(const char* text);

// When `args` (args[0] the subcommand) ask for help: prints the text on stdout and returns kExitOk; else -1.
// `help X` for an unknown X throws BadInput naming the allowed subcommands.
int answerHelp(const std::vector<std::string>& args);

}  // namespace varsim
