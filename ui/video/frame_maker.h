// One video frame from a draw list: the renderer draws into a single-sampled offscreen target of the video's
// size in the caller's GL context (EGL headless, the window's in the app), the pixels are read back and the
// HUD lines drawn over them. The camera starts from the app's framing of the scene (render/subject_framing.h)
// at the video's aspect, with the --camera overrides, and then follows the scene's camera hint.
#pragma once
#include <string>
#include <vector>

#include "render/camera.h"
#include "render/offscreen_target.h"
#include "render/renderer.h"
#include "ui/video/hud_text.h"
#include "ui/video/video_options.h"

namespace varsim::video {

class FrameMaker {
 public:
  // With a GL 3.3 core context current; false with the reason.
  bool init(int width, int height, std::string& error);
  // The camera for the next frame: the first call frames the subject and applies `override`; later calls
  // advance the hint's follow by dt seconds (the app's per-frame OrbitCamera::update).
  void aim(const DrawList& list, float dt, const CameraOverride& override);
  const OrbitCamera& camera() const { return camera_; }
  // Draws `list` as seen by `camera`, reads it back and adds the HUD; the pixels are in rgb().
  bool render(const DrawList& list, const OrbitCamera& camera, const std::vector<HudLine>& hud, std::string& error);
  const std::vector<unsigned char>& rgb() const { return rgb_; }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  Renderer renderer_;
  render::OffscreenTarget target_;
  HudText hudText_;
  OrbitCamera camera_;
  bool aimed_ = false;
  int width_ = 0, height_ = 0;
  std::vector<unsigned char> rgb_;
};

}  // namespace varsim::video
