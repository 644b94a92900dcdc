// Where an app frame's time goes, phase by phase (physics step, the driver's bookkeeping, scene panel
// samples, draw list, plots, other UI, 3-D render, ImGui render, present): wall and thread-CPU time of
// each, collected per frame and summarised by `varsim --bench-frames`. CPU time is the honest cost on
// a shared machine, where wall time also counts waiting for a core.
#pragma once
#include <array>
#include <chrono>
#include <string>
#include <vector>

namespace varsim {

enum class FramePhase {
  Step,          // Scene::step: the physics alone
  Bookkeeping,   // per step: diagnostics, history entry, plot sample
  PanelSamples,  // per step: the scene panels' traces (afterStep)
  DrawList,      // Scene::draw
  Plots,         // the Plots panel (decimation, polylines)
  ScenePanels,   // the scene's own panels (e.g. SPOOK tuning with its plots)
  OtherUi,       // menus, simulation/parameter/input panels, overlays, ImGui::Render
  Render,        // Renderer::render: instance expansion, upload, GL calls
  UiRender,      // ImGui's GL backend
  Present,       // buffer swap (a CPU rasterizer finishes the frame here)
  Count
};
constexpr int kFramePhaseCount = int(FramePhase::Count);
const char* framePhaseName(FramePhase phase);

struct PhaseCost {
  double wallMs = 0.0, cpuMs = 0.0;  // cpuMs: the measuring thread's CPU
  double processCpuMs = 0.0;         // all threads of the process (a GL rasterizer's threads included)
};

// One frame's costs; phases that run several times per frame (one per physics step) add up.
struct FramePhaseTimes {
  std::array<PhaseCost, kFramePhaseCount> phase{};
  double processCpuMs = 0.0;  // all threads of the process over the frame (UI, physics worker, GL rasterizer)
  void add(FramePhase p, PhaseCost c) {
    phase[size_t(p)].wallMs += c.wallMs;
    phase[size_t(p)].cpuMs += c.cpuMs;
    phase[size_t(p)].processCpuMs += c.processCpuMs;
  }
  void add(const FramePhaseTimes& other) {
    for (int p = 0; p < kFramePhaseCount; ++p) add(FramePhase(p), other.phase[size_t(p)]);
  }
};

double threadCpuSeconds();   // CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID)
double processCpuSeconds();  // CPU time of all threads of the process (CLOCK_PROCESS_CPUTIME_ID)

// Interval timer on the calling thread: lap() returns the cost since construction or the last lap.
class PhaseClock {
 public:
  PhaseClock() : wall_(std::chrono::steady_clock::now()), cpu_(threadCpuSeconds()), process_(processCpuSeconds()) {}
  PhaseCost lap();

 private:
  std::chrono::steady_clock::time_point wall_;
  double cpu_, process_;
};

// Frames' phase costs for the benchmark report: per phase mean, p50 and p99 of wall ms, mean and p99
// of the thread's and of the whole process's CPU ms. The process column of a phase counts whatever
// else ran meanwhile (the physics worker): exact per phase with --sync-physics.
class FramePhaseLog {
 public:
  void add(const FramePhaseTimes& t) { frames_.push_back(t); }
  size_t count() const { return frames_.size(); }
  std::string report() const;

 private:
  std::vector<FramePhaseTimes> frames_;
};

}  // namespace varsim
