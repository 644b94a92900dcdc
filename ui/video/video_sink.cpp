// See video_sink.h. Frame n shows the state at the first step whose time k*h reaches n/fps - h/2 (the
// nearest step), so the video plays at true speed whatever h and however slowly it renders.
#include "ui/video/video_sink.h"

#include <cstdio>

#include "engine/sim/errors.h"
#include "media/video_encoder.h"
#include "render/camera.h"
#include "render/offscreen_target.h"
#include "render/renderer.h"
#include "render/screenshot.h"
#include "scenes/scene.h"
#include "ui/video/egl_context.h"
#include "ui/video/video_options.h"

namespace varsim::video {

namespace {

constexpr float kDegToRad = 3.14159265358979f / 180.0f;

void applyCamera(const CameraOverride& c, OrbitCamera& camera) {
  if (c.distance) camera.distance = *c.distance;
  if (c.azimuthDeg) camera.yaw = *c.azimuthDeg * kDegToRad;
  if (c.elevationDeg) camera.pitch = *c.elevationDeg * kDegToRad;
  if (c.target[0]) camera.target = glm::vec3(*c.target[0], *c.target[1], *c.target[2]);
  if (c.follow) camera.follow = *c.follow;
}

class VideoSink final : public FrameSink {
 public:
  explicit VideoSink(const VideoOptions& o) : o_(o) {
    std::string error;
    if (!gl_.create(error)) throw BadInput("--video: " + error);
    if (!renderer_.init(error)) throw BadInput("--video: renderer: " + error);
    if (!target_.ensure(o.width, o.height, 0))
      throw BadInput("--size " + std::to_string(o.width) + "x" + std::to_string(o.height) +
                     ": the GL driver refuses a framebuffer this large");
    renderer_.setTargetFramebuffer(target_.id());
    if (!o.videoPath.empty() && !encoder_.open(o.videoPath, o.width, o.height, o.fps, error)) throw BadInput(error);
  }

  void frame(const Scene& scene, long step, double h) override {
    const double t = double(step) * h;
    while (double(next_) / o_.fps <= t + 0.5 * h) {
      render(scene);
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
  void render(const Scene& scene) {
    list_.clear();
    scene.draw(list_);
    camera_.update(list_.camera, 1.0f / float(o_.fps));  // the app's framing and follow lag
    if (next_ == 0) applyCamera(o_.camera, camera_);
    renderer_.render(list_, camera_, o_.width, o_.height);
    std::string error;
    if (!render::readFramebufferRgb(o_.width, o_.height, rgb_, error, target_.id())) throw BadInput("--video: " + error);
    if (!o_.videoPath.empty()) {
      if (!encoder_.addFrame(rgb_, error)) throw BadInput(error);
      return;
    }
    char name[32];
    std::snprintf(name, sizeof name, "/frame_%06ld.png", next_);
    if (!render::writeRgbPng(o_.framesDir + name, o_.width, o_.height, rgb_, error)) throw BadInput("--frames: " + error);
  }

  VideoOptions o_;
  EglContext gl_;  // first member with GL state: destroyed last
  Renderer renderer_;
  render::OffscreenTarget target_;
  media::VideoEncoder encoder_;
  OrbitCamera camera_;
  DrawList list_;
  std::vector<unsigned char> rgb_;
  long next_ = 0;  // index of the next frame to draw
};

}  // namespace

std::unique_ptr<FrameSink> makeVideoSink(const FrameFlags& flags) {
  return std::make_unique<VideoSink>(parseVideoOptions(flags));
}

}  // namespace varsim::video
