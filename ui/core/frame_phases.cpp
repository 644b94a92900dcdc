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
  const double cpu = threadCpuSeconds();
  const PhaseCost c{std::chrono::duration<double, std::milli>(wall - wall_).count(), 1e3 * (cpu - cpu_)};
  wall_ = wall;
  cpu_ = cpu;
  return c;
}

std::string FramePhaseLog::report() const {
  std::string out = "per-phase cost per frame, ms (CPU = this thread's CPU time; wall also counts waiting for a core):\n";
  char line[200];
  std::snprintf(line, sizeof line, "  %-17s %8s %8s %8s   %8s %8s %8s\n", "phase", "wall mean", "p50", "p99", "CPU mean",
                "p50", "p99");
  out += line;
  std::vector<double> wall(frames_.size()), cpu(frames_.size());
  auto row = [&](const char* name) {
    double wallSum = 0, cpuSum = 0;
    for (size_t f = 0; f < frames_.size(); ++f) wallSum += wall[f], cpuSum += cpu[f];
    const double n = frames_.empty() ? 1.0 : double(frames_.size());
    std::snprintf(line, sizeof line, "  %-17s %8.2f %8.2f %8.2f   %8.2f %8.2f %8.2f\n", name, wallSum / n,
                  FrameTimeLog::percentile(wall, 50), FrameTimeLog::percentile(wall, 99), cpuSum / n,
                  FrameTimeLog::percentile(cpu, 50), FrameTimeLog::percentile(cpu, 99));
    out += line;
  };
  for (int p = 0; p < kFramePhaseCount; ++p) {
    for (size_t f = 0; f < frames_.size(); ++f) {
      wall[f] = frames_[f].phase[size_t(p)].wallMs;
      cpu[f] = frames_[f].phase[size_t(p)].cpuMs;
    }
    row(framePhaseName(FramePhase(p)));
  }
  for (size_t f = 0; f < frames_.size(); ++f) {
    wall[f] = cpu[f] = 0.0;
    for (const PhaseCost& c : frames_[f].phase) wall[f] += c.wallMs, cpu[f] += c.cpuMs;
  }
  row("sum of phases");
  for (size_t f = 0; f < frames_.size(); ++f) wall[f] = cpu[f] = frames_[f].processCpuMs;
  out += "  (the process row: CPU of all threads, GL rasterizer threads included; wall columns repeat it)\n";
  row("process, all threads");
  return out;
}

}  // namespace varsim
