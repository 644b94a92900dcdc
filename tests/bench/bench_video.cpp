// Video recording benchmark: `varsim run --video`'s pipeline (ui/video/) without the command line, timed by
// phase on the headless EGL context (llvmpipe without a GPU): physics steps, the scene's draw list, the
// renderer's frame with read-back and HUD (FrameMaker), and H.264 encoding (media/). Prints a table of frames
// per second of recording at 1280x720 and encoding's share of a frame; not a timed test.
// Usage: bench_video [--seconds S] [--whiplash OUT.mp4]  (the latter: 60 s of the 1000-link whiplash preset,
// decoded again to check it plays for 60 s at 60 fps)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "engine/sim/input_track.h"
#include "media/video_encoder.h"
#include "media/video_probe.h"
#include "scenes/run_session.h"
#include "scenes/scene_file.h"
#include "ui/video/egl_context.h"
#include "ui/video/frame_maker.h"
#include "ui/video/video_hud.h"

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
// Process CPU seconds (llvmpipe rasterises on threads of its own): on a shared machine the wall clock
// also counts other people's work, the CPU clock only this recording's.
double cpuNow() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

struct Case {
  const char* label;
  varsim::SceneConfig config;
  std::string input;  // an input track replayed from step 0 ("" = neutral inputs)
};

struct Timing {
  long frames = 0;
  double physics = 0, drawList = 0, render = 0, encode = 0;  // CPU s
  double wall = 0, cpu = 0;                                   // the whole recording: wall and CPU s
};

// One recording of `seconds` simulated seconds at fps, every phase timed; false with the reason.
bool record(const Case& c, double seconds, int fps, const std::string& path, Timing& t, std::string& error) {
  using namespace varsim;
  RunSession run(c.config, nullptr);
  const double h = run.h();
  InputTrack track;
  track.neutral = neutralInputs(run.scene().controls());
  if (!c.input.empty()) track = InputTrack::load(c.input, run.scene().controls(), h);
  video::FrameMaker maker;
  media::VideoEncoder encoder;
  if (!maker.init(1280, 720, error) || !encoder.open(path, 1280, 720, fps, error)) return false;
  DrawList list;
  const long steps = long(seconds / h + 0.5);
  const auto start = Clock::now();
  const double cpuStart = cpuNow();
  for (long k = 0; k <= steps; ++k) {
    if (k > 0) {
      const double t0 = cpuNow();
      run.step(track.at(k - 1));
      t.physics += cpuNow() - t0;
    }
    while (double(t.frames) / fps <= double(k) * h + 0.5 * h) {  // video_sink.cpp's sampling rule
      double t0 = cpuNow();
      list.clear();
      run.scene().draw(list);
      maker.aim(list, 1.0f / float(fps), {});
      const auto hud = video::videoHudLines(
          {run.name(), run.scene().time(), video::energyOf(run.columns(), run.row()), &run.monitor(), ""}, list);
      t.drawList += cpuNow() - t0;
      t0 = cpuNow();
      if (!maker.render(list, maker.camera(), hud, error)) return false;
      t.render += cpuNow() - t0;
      t0 = cpuNow();
      if (!encoder.addFrame(maker.rgb(), error)) return false;
      t.encode += cpuNow() - t0;
      ++t.frames;
    }
  }
  const double t0 = cpuNow();
  if (!encoder.finish(error)) return false;
  t.encode += cpuNow() - t0;
  t.wall = since(start);
  t.cpu = cpuNow() - cpuStart;
  return true;
}

varsim::SceneConfig config(const std::string& scene, const std::vector<std::pair<std::string, std::string>>& sets) {
  varsim::SceneConfig c{scene, varsim::sceneDefaults(scene)};
  for (const auto& [k, v] : sets) c.params.setFromString(k, v, "bench");
  return c;
}

void row(const char* label, double seconds, const Timing& t) {
  const double frame = (t.drawList + t.render + t.encode) / double(t.frames);
  std::printf("| %-24s | %5.1f | %6ld | %7.2f | %6.1f | %7.2f | %6.1f | %8.2f | %7.2f | %7.2f | %7.2f | %5.1f %% |\n",
              label, seconds, t.frames, t.wall, double(t.frames) / t.wall, t.cpu, double(t.frames) / t.cpu, 1e3 * t.physics / double(t.frames),
              1e3 * t.drawList / double(t.frames), 1e3 * t.render / double(t.frames), 1e3 * t.encode / double(t.frames),
              100.0 * t.encode / double(t.frames) / frame);
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 5.0;
  std::string whiplash;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--seconds") seconds = std::atof(argv[i + 1]);
    else if (flag == "--whiplash") whiplash = argv[i + 1];
  }
  varsim::video::EglContext gl;
  std::string error;
  if (!gl.create(error)) {
    std::fprintf(stderr, "bench_video: %s\n", error.c_str());
    return 2;
  }
  std::printf("renderer: %s; 1280x720, 60 fps, H.264 (libx264 veryfast, crf 20, 1 thread); per-frame columns in CPU ms;\nframes/s by the wall clock (which also counts other processes on a shared machine) and per CPU second\n\n",
              gl.renderer().c_str());
  std::printf("| %-24s | sim s | frames | wall s | frames/s | CPU s | frames per CPU s | physics | draw list | "
              "render+read+HUD | encode | encode share |\n",
              "recording");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  const std::string inputs = std::string(VARSIM_SOURCE_DIR) + "/assets/inputs/";
  const std::vector<Case> cases = {
      {"ladder N=100", config("ladder", {{"links", "100"}}), ""},
      {"helicopter, pad landing", config("helicopter", {}), inputs + "helicopter_pad_landing.csv"},
  };
  for (const Case& c : cases) {
    Timing t;
    if (!record(c, seconds, 60, "/tmp/bench_video.mp4", t, error)) {
      std::fprintf(stderr, "bench_video: %s: %s\n", c.label, error.c_str());
      return 1;
    }
    row(c.label, seconds, t);
  }
  if (!whiplash.empty()) {
    Timing t;
    const Case c{"ladder whiplash N=1000", varsim::loadSceneFile(std::string(VARSIM_SOURCE_DIR) +
                                                                 "/assets/scenes/ladder_whiplash_1000.json"), ""};
    if (!record(c, 60.0, 60, whiplash, t, error)) {
      std::fprintf(stderr, "bench_video: whiplash: %s\n", error.c_str());
      return 1;
    }
    row(c.label, 60.0, t);
    varsim::media::VideoProbe p;
    if (!varsim::media::probeVideo(whiplash, p, error)) {
      std::fprintf(stderr, "bench_video: %s\n", error.c_str());
      return 1;
    }
    std::printf("\n%s: %zu frames decoded at %.0f fps = %.3f s of video for 60 s simulated\n", whiplash.c_str(),
                p.frameHashes.size(), p.fps, double(p.frameHashes.size() - 1) / p.fps);
  }
  return 0;
}
