// The options of `varsim run … --video OUT | --frames DIR`, parsed and range-checked: every refusal
// names the flag, the value and the allowed range (BadInput, exit 2).
#pragma once
#include <optional>
#include <string>

#include "ui/run_frames.h"

namespace varsim::video {

// --camera distance=D,azimuth=DEG,elevation=DEG,target=X:Y:Z,follow=on|off; unset keys keep the scene's
// default view (its CameraHint, adopted by OrbitCamera::update as in the app).
struct CameraOverride {
  std::optional<float> distance, azimuthDeg, elevationDeg;
  std::optional<float> target[3];
  std::optional<bool> follow;
};

struct VideoOptions {
  std::string videoPath, framesDir;  // exactly one is set
  int fps = 60;
  int width = 1280, height = 720;
  CameraOverride camera;
  bool hud = true;  // --hud on|off: the HUD lines drawn into the frames
};

VideoOptions parseVideoOptions(const FrameFlags& flags);

}  // namespace varsim::video
