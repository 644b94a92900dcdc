// plan/ipopt_clock.h — the clocks Ipopt 3.11 times its tasks with (Ipopt::CpuTime, SysTime, WallclockTime), defined
// here so that a solve reads them only when its times are wanted. Ipopt starts and stops its task timers dozens of
// times per iteration, each a getrusage system call (11 % of car_follow's closed-loop CPU, docs/mpc.md), and 3.11
// has no option to switch them off. The program's definitions bind before libipopt's own (ELF interposition).
#pragma once

namespace varsim {

// While one lives, Ipopt's clocks on this thread read the process's user CPU, system CPU and wall time (`on`, what
// Ipopt's own clocks read) or 0 (off: Ipopt's task timers and its max_cpu_time check see no time pass). Outside any
// scope the clocks are on; a nested scope restores the outer setting when it ends.
class IpoptClockScope {
 public:
  explicit IpoptClockScope(bool on);
  ~IpoptClockScope();
  IpoptClockScope(const IpoptClockScope&) = delete;
  IpoptClockScope& operator=(const IpoptClockScope&) = delete;
  static bool on();     // this thread's setting
  static long reads();  // Ipopt's calls of its clocks on this thread so far (silenced ones too): they are ours

 private:
  bool outer_;
};

}  // namespace varsim
