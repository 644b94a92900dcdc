// See video_sink.h. Frame n shows the state at the first step whose time k*h reaches n/fps - h/2 (the
// nearest step), so the video plays at true speed whatever h and however slowly it renders.
#include "ui/video/video_sink.h"

#include <cstdio>

#include "engine/sim/errors.h"
#include "media/video_encoder.h"
#include "render/screenshot.h"
#include "scenes/run_session.h"
#include "ui/video/egl_context.h"
#include "ui/video/frame_maker.h"
#include "ui/video/video_hud.h"
#include "ui/video/video_options.h"

namespace varsim::video {

namespace {

class VideoSink final : public FrameSink {
 public:
  explicit VideoSink(const VideoOptions& o) : o_(o) {
    std::string error;
    if (!gl_.create(error)) throw BadInput("--video: " + error);
    if (!maker_.init(o.width, o.height, error))
      throw BadInput("--size " + std::to_string(o.width) + "x" + std::to_string(o.height) + ": " + error);
    if (!o.videoPath.empty() && !encoder_.open(o.videoPath, o.width, o.height, o.fps, error)) throw BadInput(error);
  }

  void frame(const RunSession& run) override {
    const double h = run.h(), t = double(run.stepCount()) * h;
    while (double(next_) / o_.fps <= t + 0.5 * h) {
      render(run);
      ++next_;
    }
  }

  void finish() override {
    std::string error;
    if (!o_.videoPath.empty() && !encoder_.finish(error)) throw BadInput(error);
    std::fprintf(stderr, "varsim: %ld frames at %d fps (%dx%d, %s) -> %s\n", next_, o_.fps, o_.width, o_.height,
                 o_.videoPath.empty() ? "png" : encoder_.codecName().c_str(),
                 (o_.videoPath.empty() ? o_.framesDir : o_.videoPath).c_str());
  }

 private:
  void render(const RunSession& run) {
    const Scene& scene = run.scene();
    list_.clear();
    scene.draw(list_);
    maker_.aim(list_, 1.0f / float(o_.fps), o_.camera);
    std::vector<HudLine> hud;
    if (o_.hud)
      hud = videoHudLines({run.name(), scene.time(), energyOf(run.columns(), run.row()), &run.monitor(),
                           scene.parameterWarning()},
                          list_);
    std::string error;
    if (!maker_.render(list_, maker_.camera(), hud, error)) throw BadInput("--video: " + error);
    if (!o_.videoPath.empty()) {
      if (!encoder_.addFrame(maker_.rgb(), error)) throw BadInput(error);
      return;
    }
    char name[32];
    std::snprintf(name, sizeof name, "/frame_%06ld.png", next_);
    if (!render::writeRgbPng(o_.framesDir + name, o_.width, o_.height, maker_.rgb(), error))
      throw BadInput("--frames: " + error);
  }

  VideoOptions o_;
  EglContext gl_;  // first member with GL state: destroyed last
  FrameMaker maker_;
  media::VideoEncoder encoder_;
  DrawList list_;
  long next_ = 0;  // index of the next frame to draw
};

}  // namespace

std::unique_ptr<FrameSink> makeVideoSink(const FrameFlags& flags) {
  return std::make_unique<VideoSink>(parseVideoOptions(flags));
}

}  // namespace varsim::video
