// See video_camera.h. Angles on the command line are degrees (azimuth about +z from +x, elevation above the
// horizon: OrbitCamera's yaw and pitch).
#include "ui/video/video_camera.h"

#include "render/subject_framing.h"

namespace varsim::video {

namespace {
constexpr float kDegToRad = 3.14159265358979f / 180.0f;
}

void startCamera(OrbitCamera& camera, const DrawList& list, float aspect, const CameraOverride& c) {
  frameSubject(camera, list, aspect);  // one code path with the app's view
  if (c.distance) camera.distance = *c.distance;
  if (c.azimuthDeg) camera.yaw = *c.azimuthDeg * kDegToRad;
  if (c.elevationDeg) camera.pitch = *c.elevationDeg * kDegToRad;
  if (c.target[0]) camera.target = glm::vec3(*c.target[0], *c.target[1], *c.target[2]);
  if (c.follow) camera.follow = *c.follow;
}

}  // namespace varsim::video
