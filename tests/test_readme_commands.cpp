// Every `varsim` command README.md shows runs as written (issue 15 item 9): the lines of its fenced
// code blocks that call ./build/ui/varsim, and inline code spans that start with ./build/ui/varsim or
// xvfb-run, are run through /bin/sh and must exit 0. Benchmarks the README names must be build targets.
//
// What the test maps, so "as written" holds from a test: the README's commands are run from the
// repository root with the build in ./build. The test runs each one in a fresh directory
// VARSIM_TEST_OUT/readme that has a symlink `assets` -> the repository's assets/ (so assets/... paths
// resolve and files such as out.csv land in the temp dir, not the source tree), and rewrites the
// prefix `./build/` to this build's directory. Nothing else in a command is changed. Commands that
// need a display (xvfb-run ...) run only when xvfb-run exists and the app was built; else they are
// skipped with a message.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::string readme() {
  std::ifstream in(std::string(VARSIM_SOURCE_DIR) + "/README.md");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool startsWith(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// Fenced-block lines that call ./build/ui/varsim, plus inline spans starting with it or xvfb-run.
std::vector<std::string> varsimCommands(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream lines(text);
  std::string line;
  bool fenced = false;
  while (std::getline(lines, line)) {
    if (startsWith(trim(line), "```")) {
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      if (line.find("./build/ui/varsim") != std::string::npos) out.push_back(trim(line));
      continue;
    }
    for (size_t a = line.find('`'); a != std::string::npos; a = line.find('`', a + 1)) {
      const size_t b = line.find('`', a + 1);
      if (b == std::string::npos) break;
      const std::string span = line.substr(a + 1, b - a - 1);
      if (startsWith(span, "./build/ui/varsim ") || startsWith(span, "xvfb-run ")) out.push_back(span);
      a = b;
    }
  }
  return out;
}

std::string mapped(std::string cmd) {
  for (size_t at = cmd.find("./build/"); at != std::string::npos; at = cmd.find("./build/", at))
    cmd.replace(at, 8, std::string(VARSIM_BUILD_DIR) + "/");
  return cmd;
}

int shell(const std::string& dir, const std::string& cmd, const std::string& log) {
  // The command on its own line, so a trailing "# comment" ends there and not at the redirection.
  const int status = std::system(("cd '" + dir + "' && (\n" + cmd + "\n) >'" + log + "' 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool haveXvfb() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

}  // namespace

TEST_CASE("EveryVarsimCommandInTheReadmeRunsAsWritten") {
  const std::string dir = std::string(VARSIM_TEST_OUT) + "/readme";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::create_directory_symlink(std::string(VARSIM_SOURCE_DIR) + "/assets", dir + "/assets");
  const auto commands = varsimCommands(readme());
  REQUIRE(commands.size() >= 5);
  if (std::getenv("VARSIM_SANITIZED")) {
    // The README's commands are a promise about the Release build (./build), checked by the Release pass; the
    // sanitizer pass would re-run minutes of plans and sweeps that the other tests already cover instrumented.
    MESSAGE("sanitizer pass: the " << commands.size() << " README commands run in the Release pass only");
    return;
  }
  int ran = 0;
  for (const std::string& cmd : commands) {
    if (startsWith(cmd, "xvfb-run") && !(VARSIM_APP_BUILT && haveXvfb())) {
      MESSAGE("skipped (needs xvfb-run and the app): " << cmd);
      continue;
    }
    const std::string log = dir + "/command.log";
    const int code = shell(dir, mapped(cmd), log);
    std::ifstream in(log);
    std::stringstream ss;
    ss << in.rdbuf();
    INFO(cmd << "\n  as run: " << mapped(cmd) << "\n  output: " << ss.str().substr(0, 600));
    CHECK(code == 0);
    ++ran;
  }
  MESSAGE(ran << " of " << commands.size() << " README commands ran");
}

TEST_CASE("BenchmarksTheReadmeNamesAreBuildTargets") {
  const std::string text = readme();
  const std::regex bench("bench_[a-z0-9_]+");
  std::set<std::string> named;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), bench); it != std::sregex_iterator(); ++it)
    named.insert(it->str());
  REQUIRE(!named.empty());
  std::set<std::string> targets;
  std::stringstream list(VARSIM_BENCH_TARGETS);
  for (std::string t; std::getline(list, t, ',');) targets.insert(t);
  for (const auto& name : named) {
    INFO(name);
    CHECK(fs::exists(std::string(VARSIM_SOURCE_DIR) + "/tests/bench/" + name + ".cpp"));
    if (VARSIM_BENCH_BUILT) CHECK(targets.count(name) == 1);
  }
  if (!VARSIM_BENCH_BUILT) MESSAGE("benchmarks not configured (VARSIM_BUILD_BENCH=OFF): checked sources only");
}
