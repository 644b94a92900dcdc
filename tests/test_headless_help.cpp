// `varsim SUBCOMMAND --help` / `-h` and `varsim help [SUBCOMMAND]` (ui/headless_help.h): for every subcommand the
// dispatcher knows, the usage on stdout, nothing on stderr, exit 0, nothing run or written; an unknown subcommand
// exits 2 naming the allowed ones, and a bad flag still prints its usage on stderr with exit 2.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/headless_capture.h"
#include "ui/headless_help.h"

using varsim::test::HeadlessResult;
using varsim::test::runCaptured;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

HeadlessResult helpRun(const std::vector<std::string>& args) { return runCaptured(args, true); }

const std::vector<std::string> kAllNames = {"list", "describe", "run", "plan", "mpc", "study", "help"};

}  // namespace

TEST_CASE("every subcommand's --help and -h print its usage on stdout and exit 0") {
  std::vector<std::string> names;
  for (const varsim::HeadlessCommand& c : varsim::headlessCommands()) names.push_back(c.name);
  CHECK(names == kAllNames);
  for (const std::string& name : names)
    for (const char* flag : {"--help", "-h"}) {
      CAPTURE(name);
      CAPTURE(flag);
      const HeadlessResult r = helpRun({name, flag});
      CHECK(r.exitCode == 0);
      CHECK(r.err.empty());
      CHECK(has(r.out, "usage: varsim " + name));
      CHECK(r.out == varsim::commandUsage(name) + "\n");
      CHECK(varsim::isHeadlessCommand(name));
      // `help X` prints the same text as `X --help`.
      if (name != "help") CHECK(helpRun({"help", name}).out == r.out);
    }
}

TEST_CASE("--help anywhere in the arguments wins: nothing runs, no file is written") {
  const std::string csv = varsim::test::testOut("help_not_written.csv");
  std::filesystem::remove(csv);
  const HeadlessResult run = helpRun({"run", "car", "--steps", "5", "--csv", csv, "--help"});
  CHECK(run.exitCode == 0);
  CHECK(run.err.empty());  // no "car: 5 steps" summary line
  CHECK(run.out == std::string(varsim::kRunUsage) + "\n");
  CHECK_FALSE(std::filesystem::exists(csv));
  // Before arguments that would be refused (an unknown scene, a missing problem file).
  const HeadlessResult mpc = helpRun({"mpc", "-h", "no_such_problem.json", "--bogus"});
  CHECK(mpc.exitCode == 0);
  CHECK(mpc.err.empty());
  CHECK(has(mpc.out, "usage: varsim mpc PROBLEM.json"));
  CHECK(helpRun({"describe", "no_such_scene", "--help"}).out == "usage: varsim describe SCENE\n  SCENE: a name of `varsim list`\n");
  CHECK(helpRun({"study", "merge", "a.csv", "--help"}).out == helpRun({"study", "--help"}).out);
}

TEST_CASE("varsim --help, -h and help print the overview: one line per subcommand") {
  const HeadlessResult r = helpRun({"--help"});
  CHECK(r.exitCode == 0);
  CHECK(r.err.empty());
  CHECK(r.out == varsim::headlessOverview());
  for (const std::string& name : kAllNames) CHECK(has(r.out, "\n  " + name + " "));
  CHECK(has(r.out, "`varsim SUBCOMMAND --help` (or -h)"));
  CHECK(helpRun({"-h"}).out == r.out);
  CHECK(helpRun({"help"}).out == r.out);
  CHECK(varsim::isHeadlessCommand("--help"));
  CHECK(varsim::isHeadlessCommand("-h"));
  // The app's flags stay the app's (ui/core/app_options.h).
  for (const char* appFlag : {"--scene", "--smoke-test", "--screenshot", "--bench-frames", "--set"})
    CHECK_FALSE(varsim::isHeadlessCommand(appFlag));
}

TEST_CASE("an unknown subcommand exits 2 naming the allowed subcommands") {
  const std::string allowed = "allowed: list, describe, run, plan, mpc, study, help";
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"bogus", "--help"}, {"bogus"}, {"help", "bogus"}, {"--help", "bogus"}}) {
    CAPTURE(args.front());
    const HeadlessResult r = helpRun(args);
    CHECK(r.exitCode == 2);
    CHECK(r.out.empty());
    CHECK(has(r.err, "bogus"));
    CHECK(has(r.err, allowed));
  }
  const HeadlessResult two = helpRun({"help", "run", "mpc"});
  CHECK(two.exitCode == 2);
  CHECK(has(two.err, "one subcommand at most; " + allowed));
  CHECK(has(helpRun({"bogus", "-h"}).err, "unknown subcommand 'bogus'"));
}

TEST_CASE("a bad flag still prints the usage on stderr and exits 2") {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"run"}, {"run", "car", "--steps"}, {"plan"}, {"mpc"}, {"study"}, {"study", "fig5", "--bogus", "1"}, {"describe"}}) {
    CAPTURE(args.size());
    const HeadlessResult r = helpRun(args);
    CHECK(r.exitCode == 2);
    CHECK(r.out.empty());
    CHECK(has(r.err, "usage: varsim " + args[0]));
  }
}
