// Opens with O_NONBLOCK so that even a FIFO is refused at once (a blocking open would wait for a writer),
// then decides on fstat of the opened descriptor (no race between a check and the open).
#include "engine/sim/file_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "engine/sim/errors.h"

namespace varsim {

namespace {

const char* kindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string mib(size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string readUserFile(const std::string& path, const std::string& what, size_t maxBytes) {
  if (path.empty()) throw BadInput(what + ": empty path");
  if (path.find('\0') != std::string::npos) throw BadInput(what + ": the path holds a NUL byte");
  const Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (f.fd < 0) throw BadInput(path + ": cannot open the " + what + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) throw BadInput(path + ": cannot stat the " + what + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    throw BadInput(path + ": the " + what + " is " + kindOf(st.st_mode) + "; allowed: a regular file");
  if (size_t(st.st_size) > maxBytes)
    throw BadInput(path + ": the " + what + " has " + std::to_string(st.st_size) + " bytes; allowed: at most " +
                   std::to_string(maxBytes) + " (" + mib(maxBytes) + ")");
  // Read to the end, but never past the cap: the file may grow between fstat and here.
  std::string text;
  text.resize(size_t(st.st_size) + 1);
  size_t got = 0;
  for (;;) {
    if (got == text.size()) {
      if (got > maxBytes)
        throw BadInput(path + ": the " + what + " grew past " + std::to_string(maxBytes) + " bytes while read");
      text.resize(std::min(maxBytes + 1, 2 * text.size()));
    }
    const ssize_t n = ::read(f.fd, &text[got], text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw BadInput(path + ": read error in the " + what + ": " + std::strerror(errno));
    if (n == 0) break;
    got += size_t(n);
  }
  text.resize(got);
  return text;
}

void refuseNulBytes(const std::string& text, const std::string& source) {
  const size_t at = text.find('\0');
  if (at == std::string::npos) return;
  size_t line = 1, col = 1;
  for (size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') line++, col = 1;
    else col++;
  }
  throw BadInput(source + ":" + std::to_string(line) + ":" + std::to_string(col) +
                 ": a NUL byte (byte " + std::to_string(at) + "); allowed: text without NUL bytes");
}

}  // namespace varsim
