// See frame_maker.h.
#include "ui/video/frame_maker.h"

#include "render/screenshot.h"
#include "ui/video/video_camera.h"

namespace varsim::video {

bool FrameMaker::init(int width, int height, std::string& error) {
  if (!renderer_.init(error)) {
    error = "renderer: " + error;
    return false;
  }
  if (!target_.ensure(width, height, 0)) {
    error = "the GL driver refuses a " + std::to_string(width) + "x" + std::to_string(height) + " framebuffer";
    return false;
  }
  renderer_.setTargetFramebuffer(target_.id());
  width_ = width, height_ = height;
  return true;
}

void FrameMaker::aim(const DrawList& list, float dt, const CameraOverride& override) {
  if (aimed_) {
    camera_.update(list.camera, dt);
    return;
  }
  startCamera(camera_, list, float(width_) / float(height_), override);
  aimed_ = true;
}

bool FrameMaker::render(const DrawList& list, const OrbitCamera& camera, const std::vector<HudLine>& hud,
                        std::string& error) {
  renderer_.render(list, camera, width_, height_);
  if (!render::readFramebufferRgb(width_, height_, rgb_, error, target_.id())) return false;
  hudText_.draw(hud, width_, height_, rgb_);
  return true;
}

}  // namespace varsim::video
