// tests/headless_capture.h — runs runHeadless (ui/headless_runner.h) in this process and captures what
// it prints on stderr, so hardening and fuzz tests check exit codes and messages without a process
// per case. Header-only, test use.
#pragma once
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "ui/headless_runner.h"

namespace varsim::test {

struct HeadlessResult {
  int exitCode = -1;
  std::string err;  // stderr text of the run
  std::string out;  // stdout text, when captured
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

// Redirects file descriptor `fd` (1 or 2) to `path` while alive; text() reads what was written.
class FdCapture {
 public:
  FdCapture(int fd, std::FILE* stream, const std::string& path) : fd_(fd), stream_(stream), path_(path) {
    std::fflush(stream_);
    saved_ = dup(fd_);
    file_ = std::fopen(path_.c_str(), "w");
    dup2(fileno(file_), fd_);
  }
  std::string text() {
    std::fflush(stream_);
    dup2(saved_, fd_);
    close(saved_);
    std::fclose(file_);
    return readFile(path_);
  }

 private:
  int fd_, saved_;
  std::FILE* stream_;
  std::FILE* file_;
  std::string path_;
};

// stderr (and with `captureOut` stdout) goes to a file under VARSIM_TEST_OUT for the duration of the call. The
// file name carries the process id: ctest runs several test executables at once in that directory.
inline HeadlessResult runCaptured(const std::vector<std::string>& args, bool captureOut = false) {
  const std::string base = testOut("headless_capture_" + std::to_string(getpid()));
  FdCapture err(2, stderr, base + ".err");
  std::unique_ptr<FdCapture> out = captureOut ? std::make_unique<FdCapture>(1, stdout, base + ".out") : nullptr;
  HeadlessResult r;
  r.exitCode = runHeadless(args);
  if (out) r.out = out->text();
  r.err = err.text();
  return r;
}

}  // namespace varsim::test
