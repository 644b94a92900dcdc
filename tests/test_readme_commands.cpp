// Every `varsim` command README.md and docs/ show runs as written (issue 15 item 9, issue 30): the lines of
// their fenced code blocks that call ./build/ui/varsim, and inline code spans that start with ./build/ui/varsim or
// xvfb-run, are run through /bin/sh and must exit 0. Benchmarks they name must be build targets.
//
// What the test maps, so "as written" holds from a test: the commands are run from the repository root with the
// build in ./build. The test runs each file's commands in order (a plan, then its replay) in a fresh directory
// under VARSIM_TEST_OUT that has a symlink `assets` -> the repository's assets/ (so assets/... paths resolve and
// files such as out.csv land in the temp dir, not the source tree), and rewrites the prefix `./build/` to this
// build's directory. Nothing else in a command is changed. A command shown in several files runs once. Commands
// that need a display (xvfb-run ...) run only when xvfb-run exists and the app was built; else they are skipped
// with a message.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/headless_capture.h"

namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path& path) { return varsim::test::readFile(path.string()); }

std::string readme() { return readFile(std::string(VARSIM_SOURCE_DIR) + "/README.md"); }

// docs/*.md and docs/scenes/*.md, sorted, as paths relative to the repository.
std::vector<std::string> docPages() {
  std::vector<std::string> pages;
  for (const char* dir : {"docs", "docs/scenes"}) {
    const fs::path at = fs::path(VARSIM_SOURCE_DIR) / dir;
    if (!fs::is_directory(at)) continue;
    for (const auto& e : fs::directory_iterator(at))
      if (e.is_regular_file() && e.path().extension() == ".md") pages.push_back(std::string(dir) + "/" + e.path().filename().string());
  }
  std::sort(pages.begin(), pages.end());
  return pages;
}

bool startsWith(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// A fenced line starting with this runs the Python module from the build tree (built where pybind11 is found).
const char* const kPython = "PYTHONPATH=./build/python /usr/bin/python3 ";

// Fenced-block lines that call ./build/ui/varsim or the Python module, plus inline spans starting with
// ./build/ui/varsim or xvfb-run.
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
      if (line.find("./build/ui/varsim") != std::string::npos || startsWith(trim(line), kPython)) out.push_back(trim(line));
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

// Runs `commands` in order in a fresh directory `dir` (with `assets` linked), skipping those in `done` and adding
// the rest to it; returns how many ran.
int runAll(const std::string& label, const std::vector<std::string>& commands, const std::string& dir,
           std::set<std::string>& done) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::create_directory_symlink(std::string(VARSIM_SOURCE_DIR) + "/assets", dir + "/assets");
  int ran = 0;
  for (const std::string& cmd : commands) {
    if (!done.insert(cmd).second) continue;
    if (startsWith(cmd, "xvfb-run") && !(VARSIM_APP_BUILT && haveXvfb())) {
      MESSAGE("skipped (needs xvfb-run and the app): " << cmd);
      continue;
    }
    if (startsWith(cmd, kPython) && !fs::exists(std::string(VARSIM_BUILD_DIR) + "/python/varsim/__init__.py")) {
      MESSAGE("skipped (the Python module is not built here): " << cmd);
      continue;
    }
    const std::string log = dir + "/command.log";
    const int code = shell(dir, mapped(cmd), log);
    INFO(label << ": " << cmd << "\n  as run: " << mapped(cmd) << "\n  output: " << readFile(log).substr(0, 600));
    CHECK(code == 0);
    ++ran;
  }
  return ran;
}

// The README's and docs' commands are a promise about the Release build (./build), checked by the Release pass;
// the sanitizer pass would re-run minutes of plans and sweeps that the other tests already cover instrumented.
bool sanitizerPass(size_t commands) {
  if (!std::getenv("VARSIM_SANITIZED")) return false;
  MESSAGE("sanitizer pass: the " << commands << " commands run in the Release pass only");
  return true;
}

}  // namespace

TEST_CASE("EveryVarsimCommandInTheReadmeRunsAsWritten") {
  const auto commands = varsimCommands(readme());
  REQUIRE(commands.size() >= 5);
  if (sanitizerPass(commands.size())) return;
  std::set<std::string> done;
  const int ran = runAll("README.md", commands, std::string(VARSIM_TEST_OUT) + "/readme", done);
  MESSAGE(ran << " of " << commands.size() << " README commands ran");
}

TEST_CASE("EveryVarsimCommandInTheDocsRunsAsWritten") {
  const auto pages = docPages();
  REQUIRE(pages.size() >= 10);
  size_t total = 0;
  for (const auto& page : pages) total += varsimCommands(readFile(std::string(VARSIM_SOURCE_DIR) + "/" + page)).size();
  REQUIRE(total >= 20);
  if (sanitizerPass(total)) return;
  std::set<std::string> done;
  for (const auto& c : varsimCommands(readme())) done.insert(c);  // run by the README case
  int ran = 0;
  for (const auto& page : pages) {
    std::string name = page;
    std::replace(name.begin(), name.end(), '/', '_');
    ran += runAll(page, varsimCommands(readFile(std::string(VARSIM_SOURCE_DIR) + "/" + page)),
                  std::string(VARSIM_TEST_OUT) + "/" + name, done);
  }
  MESSAGE(ran << " of " << total << " docs commands ran (the rest are shown twice or need a display)");
}

TEST_CASE("BenchmarksTheReadmeAndDocsNameAreBuildTargets") {
  std::string text = readme();
  for (const auto& page : docPages()) text += readFile(std::string(VARSIM_SOURCE_DIR) + "/" + page);
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
    // bench_render needs the GL renderer and a window, so it is a target only with the app (tests/CMakeLists.txt).
    if (VARSIM_BENCH_BUILT && (VARSIM_APP_BUILT || name != "bench_render")) CHECK(targets.count(name) == 1);
  }
  if (!VARSIM_BENCH_BUILT) MESSAGE("benchmarks not configured (VARSIM_BUILD_BENCH=OFF): checked sources only");
}
