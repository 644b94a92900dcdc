// Frame phase costs; see header.
#include "ui/core/frame_phases.h"

#include <time.h>

#include <cstdio>

#include "ui/core/frame_stats.h"

namespace varsim {

const char* framePhaseName(FramePhase phase) {
  switch (phase) {
    case FramePhase::Step: return "physics step";
    case FramePhase::Bookkeeping: return "step bookkeeping";
    case FramePhase::PanelSamples: return "panel samples";
    case FramePhase::DrawList: return "draw list";
    case FramePhase::Plots: return "plots panel";
    case FramePhase::ScenePanels: return "scene panels";
    case FramePhase::OtherUi: return "other UI";
    case FramePhase::Render: return "3-D render";
    case FramePhase::UiRender: return "ImGui render";
    case FramePhase::Present: return "present";
    case FramePhase::Count: break;
  }
  return "?";
}

static double cpuSeconds(clockid_t clock) {
  timespec ts{};
  if (clock_gettime(clock, &ts) != 0) return 0.0;
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}
double threadCpuSeconds() { return cpuSeconds(CLOCK_THREAD_CPUTIME_ID); }
double processCpuSeconds() { return cpuSeconds(CLOCK_PROCESS_CPUTIME_ID); }

PhaseCost PhaseClock::lap() {
  const auto wall = std::chrono::steady_clock::now();
  const double cpu = threadCpuSeconds(), process = processCpuSeconds();
  const PhaseCost c{std::chrono::duration<double, std::milli>(wall - wall_).count(), 1e3 * (cpu - cpu_),
                    1e3 * (process - process_)};
  wall_ = wall;
  cpu_ = cpu;
  process_ = process;
  return c;
}

std::string FramePhaseLog::report() const {
  std::string out =
      "per-phase cost per frame, ms (wall also counts waiting for a core; CPU: the phase's thread; all threads: the\n"
      "whole process meanwhile, GL rasterizer threads included):\n";
  char line[200];
  std::snprintf(line, sizeof line, "  %-20s %9s %7s %7s   %8s %7s   %11s %7s\n", "phase", "wall mean", "p50", "p99",
                "CPU mean", "p99", "all threads", "p99");
  out += line;
  const size_t n = frames_.size();
  std::vector<double> wall(n), cpu(n), process(n);
  auto row = [&](const char* name) {
    double wallSum = 0, cpuSum = 0, processSum = 0;
    for (size_t f = 0; f < n; ++f) wallSum += wall[f], cpuSum += cpu[f], processSum += process[f];
    const double d = n == 0 ? 1.0 : double(n);
    std::snprintf(line, sizeof line, "  %-20s %9.2f %7.2f %7.2f   %8.2f %7.2f   %11.2f %7.2f\n", name, wallSum / d,
                  FrameTimeLog::percentile(wall, 50), FrameTimeLog::percentile(wall, 99), cpuSum / d,
                  FrameTimeLog::percentile(cpu, 99), processSum / d, FrameTimeLog::percentile(process, 99));
    out += line;
  };
  for (int p = 0; p < kFramePhaseCount; ++p) {
    for (size_t f = 0; f < n; ++f) {
      const PhaseCost& c = frames_[f].phase[size_t(p)];
      wall[f] = c.wallMs, cpu[f] = c.cpuMs, process[f] = c.processCpuMs;
    }
    row(framePhaseName(FramePhase(p)));
  }
  for (size_t f = 0; f < n; ++f) {
    wall[f] = cpu[f] = 0.0;
    for (const PhaseCost& c : frames_[f].phase) wall[f] += c.wallMs, cpu[f] += c.cpuMs;
    process[f] = frames_[f].processCpuMs;
  }
  row("frame (all threads)");
  return out;
}

}  // namespace varsim
