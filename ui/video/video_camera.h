// The camera a video starts from: the app's default view of the scene (render/subject_framing.h, the code
// the app runs after a scene switch, a reset or Home) at the video's aspect, then the --camera overrides.
// GL-free, so tests check it for every scene without a context.
#pragma once
#include "render/camera.h"
#include "render/draw_list.h"
#include "ui/video/video_options.h"

namespace varsim::video {

void startCamera(OrbitCamera& camera, const DrawList& list, float aspect, const CameraOverride& override);

}  // namespace varsim::video
