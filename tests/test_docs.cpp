// The documentation cannot drift from the code (issue 30): README.md stays a first read (<= 150 lines), every
// relative link in README.md and docs/ points at a file that exists (and, with #anchor, at a heading of it), and
// every scene `varsim list` prints has its page docs/scenes/NAME.md. The pages' generated tables are checked by
// the ctest test gen_docs_check (scripts/gen_docs.sh --check); the commands they show by test_readme_commands.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
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

// The repository root: the tests get the path of tests/data (VARSIM_TEST_DATA) from CMake.
fs::path sourceDir() { return fs::weakly_canonical(fs::path(VARSIM_TEST_DATA) / ".." / ".."); }

std::string readFile(const fs::path& path) { return varsim::test::readFile(path.string()); }

std::vector<fs::path> markdownFiles() {
  std::vector<fs::path> files{sourceDir() / "README.md"};
  for (const auto& e : fs::recursive_directory_iterator(sourceDir() / "docs"))
    if (e.is_regular_file() && e.path().extension() == ".md") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Text outside fenced code blocks and inline code spans, where a link means a link.
std::string proseOf(const std::string& text) {
  std::istringstream lines(text);
  std::string line, out;
  bool fenced = false;
  while (std::getline(lines, line)) {
    if (line.find("```") != std::string::npos && line.find_first_not_of(" \t") == line.find("```")) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) out += std::regex_replace(line, std::regex("`[^`]*`"), "``") + "\n";
  }
  return out;
}

// GitHub's heading anchor: lower case, spaces to '-', ASCII letters, digits, '-' and '_' kept, the rest dropped.
std::string anchorOf(const std::string& heading) {
  std::string out;
  for (unsigned char c : heading) {
    if (c == ' ') out += '-';
    else if (std::isalnum(c) || c == '-' || c == '_') out += char(std::tolower(c));
  }
  return out;
}

std::set<std::string> anchorsIn(const std::string& text) {
  std::set<std::string> anchors;
  std::istringstream lines(text);
  std::string line;
  bool fenced = false;
  const std::regex heading("^#+ +(.*)$");
  std::smatch m;
  while (std::getline(lines, line)) {
    if (line.rfind("```", 0) == 0) fenced = !fenced;
    else if (!fenced && std::regex_match(line, m, heading)) anchors.insert(anchorOf(m[1].str()));
  }
  return anchors;
}

std::vector<std::string> sceneNames() {
  std::vector<std::string> names;
  FILE* p = popen((std::string("'") + VARSIM_BINARY + "' list").c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[256];
  while (std::fgets(buf, sizeof buf, p)) {
    std::string s(buf);
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
    if (!s.empty()) names.push_back(s);
  }
  CHECK(pclose(p) == 0);
  return names;
}

}  // namespace

TEST_CASE("ReadmeIsAFirstReadOfAtMost150Lines") {
  const std::string text = readFile(sourceDir() / "README.md");
  const long lines = std::count(text.begin(), text.end(), '\n');
  INFO("README.md has " << lines << " lines");
  CHECK(lines >= 20);
  CHECK(lines <= 150);
}

TEST_CASE("EveryRelativeLinkInReadmeAndDocsResolves") {
  const std::regex link(R"(\]\(([^)\s]+)\))");
  int checked = 0;
  for (const auto& file : markdownFiles()) {
    const std::string prose = proseOf(readFile(file));
    for (auto it = std::sregex_iterator(prose.begin(), prose.end(), link); it != std::sregex_iterator(); ++it) {
      const std::string target = (*it)[1].str();
      if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0) continue;
      const size_t hash = target.find('#');
      const std::string path = target.substr(0, hash), anchor = hash == std::string::npos ? "" : target.substr(hash + 1);
      const fs::path resolved = path.empty() ? file : file.parent_path() / path;
      INFO(fs::relative(file, sourceDir()).string() << ": link (" << target << ")");
      CHECK(fs::exists(resolved));
      if (!anchor.empty() && fs::is_regular_file(resolved)) CHECK(anchorsIn(readFile(resolved)).count(anchor) == 1);
      ++checked;
    }
  }
  MESSAGE(checked << " relative links checked");
  CHECK(checked >= 30);
}

TEST_CASE("EverySceneHasItsPageAndEveryPageItsScene") {
  const auto names = sceneNames();
  REQUIRE(names.size() >= 10);
  for (const auto& name : names) {
    INFO("scene " << name << " needs docs/scenes/" << name << ".md");
    CHECK(fs::is_regular_file(sourceDir() / "docs" / "scenes" / (name + ".md")));
  }
  const std::string readme = readFile(sourceDir() / "README.md");
  for (const auto& name : names) {
    INFO("README.md links docs/scenes/" << name << ".md");
    CHECK(readme.find("(docs/scenes/" + name + ".md)") != std::string::npos);
  }
  for (const auto& e : fs::directory_iterator(sourceDir() / "docs" / "scenes")) {
    INFO(e.path().string() << " has no scene in `varsim list`");
    CHECK(std::find(names.begin(), names.end(), e.path().stem().string()) != names.end());
  }
}
