// tests/headless_capture.h — runs runHeadless (ui/headless_runner.h) in this process and captures what
// it prints on stderr, so hardening and fuzz tests check exit codes and messages without a process
// per case. Header-only, test use.
#pragma once
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ui/headless_runner.h"

namespace varsim::test {

struct HeadlessResult {
  int exitCode = -1;
  std::string err;  // stderr text of the run
};

inline std::string testOut(const std::string& name) { return std::string(VARSIM_TEST_OUT) + "/" + name; }

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void writeFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// stderr goes to a file under VARSIM_TEST_OUT for the duration of the call (fd 2 redirected). The
// file name carries the process id: ctest runs several test executables at once in that directory.
inline HeadlessResult runCaptured(const std::vector<std::string>& args) {
  const std::string errPath = testOut("headless_capture_" + std::to_string(getpid()) + ".err");
  std::fflush(stderr);
  const int saved = dup(2);
  std::FILE* f = std::fopen(errPath.c_str(), "w");
  dup2(fileno(f), 2);
  HeadlessResult r;
  r.exitCode = runHeadless(args);
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::fclose(f);
  r.err = readFile(errPath);
  return r;
}

}  // namespace varsim::test
