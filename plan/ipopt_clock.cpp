// plan/ipopt_clock.cpp — Ipopt's clock functions (declared in IpUtils.hpp, called by libipopt through its PLT), read
// or silenced per thread by IpoptClockScope; see ipopt_clock.h.
#include "plan/ipopt_clock.h"

#include <sys/resource.h>

#include <chrono>

#include <IpUtils.hpp>

namespace varsim {
namespace {

thread_local bool clocksOn = true;
thread_local long clockReads = 0;

// Counts the call; true: read the clock.
bool readClock() {
  ++clockReads;
  return clocksOn;
}

double seconds(const timeval& t) { return double(t.tv_sec) + 1e-6 * double(t.tv_usec); }

}  // namespace

IpoptClockScope::IpoptClockScope(bool on) : outer_(clocksOn) { clocksOn = on; }
IpoptClockScope::~IpoptClockScope() { clocksOn = outer_; }
bool IpoptClockScope::on() { return clocksOn; }
long IpoptClockScope::reads() { return clockReads; }

}  // namespace varsim

// Exported whatever the build's visibility (the Python module hides its symbols by default): libipopt must bind here.
#define VARSIM_IPOPT_CLOCK __attribute__((visibility("default")))

namespace Ipopt {

VARSIM_IPOPT_CLOCK Number CpuTime() {
  if (!varsim::readClock()) return 0.0;
  rusage u;
  getrusage(RUSAGE_SELF, &u);
  return varsim::seconds(u.ru_utime);
}

VARSIM_IPOPT_CLOCK Number SysTime() {
  if (!varsim::readClock()) return 0.0;
  rusage u;
  getrusage(RUSAGE_SELF, &u);
  return varsim::seconds(u.ru_stime);
}

// Seconds since the first call, as Ipopt's own.
VARSIM_IPOPT_CLOCK Number WallclockTime() {
  if (!varsim::readClock()) return 0.0;
  static const auto start = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace Ipopt
