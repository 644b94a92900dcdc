// OrbitCamera maths: spherical eye placement around a target, drag/scroll/pan, smooth follow of a
// vehicle, and the pixel <-> world mappings used for picking and label placement.
// The eye sits at target + distance * (cos p cos y, cos p sin y, sin p) with world z up.
#include "render/camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace {
constexpr float kPi = 3.14159265358979f;

// Wraps an angle difference into (-pi, pi] so headings are tracked along the short way round.
float wrapAngle(float a) {
  a = std::fmod(a + kPi, 2.0f * kPi);
  if (a < 0.0f) a += 2.0f * kPi;
  return a - kPi;
}

bool finite3(const varsim::Vec3f& v) {
  return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}
}  // namespace

void OrbitCamera::clampLimits() {
  if (!std::isfinite(pitch)) pitch = 0.45f;
  if (!std::isfinite(yaw)) yaw = 0.8f;
  if (!std::isfinite(distance)) distance = 8.0f;
  pitch = std::clamp(pitch, -maxPitch, maxPitch);
  distance = std::clamp(distance, minDistance, maxDistance);
  // Keep yaw bounded so float precision does not degrade after long orbiting.
  yaw = wrapAngle(yaw);
}

void OrbitCamera::orbit(float dxPixels, float dyPixels) {
  if (!std::isfinite(dxPixels) || !std::isfinite(dyPixels)) return;
  // "Grab the world": dragging right turns the scene with the cursor (eye moves the other way),
  // dragging down tips the top of the scene towards the viewer (eye rises).
  const float dYaw = -dxPixels * orbitRadPerPixel;
  if (follow) followYawOffset = wrapAngle(followYawOffset + dYaw);
  yaw += dYaw;
  pitch += dyPixels * orbitRadPerPixel;
  clampLimits();
}

void OrbitCamera::pan(float dxPixels, float dyPixels, int viewportHeight) {
  if (!std::isfinite(dxPixels) || !std::isfinite(dyPixels) || viewportHeight <= 0) return;
  // One pixel at the target's depth spans 2 d tan(fov/2) / H metres, so the point under the cursor
  // stays under the cursor while dragging.
  const float metresPerPixel = 2.0f * distance * std::tan(0.5f * fovY) / float(viewportHeight);
  const glm::vec3 f = forward();
  const glm::vec3 right = glm::normalize(glm::cross(f, glm::vec3(0, 0, 1)));
  const glm::vec3 up = glm::cross(right, f);
  target += (-dxPixels * right + dyPixels * up) * metresPerPixel;
}

void OrbitCamera::zoom(float scrollSteps) {
  if (!std::isfinite(scrollSteps)) return;
  // Log space: a huge scroll saturates at a limit instead of overflowing to inf or 0.
  const float logDistance = std::log(distance) + scrollSteps * std::log(zoomFactorPerStep);
  distance = std::exp(std::clamp(logDistance, std::log(minDistance), std::log(maxDistance)));
  clampLimits();
}

void OrbitCamera::update(const varsim::CameraHint& hint, float dtSeconds) {
  const bool hintOk = finite3(hint.target) && std::isfinite(hint.heading);
  if (!adoptedHint) {
    adoptedHint = true;
    if (std::isfinite(hint.distance) && hint.distance > 0.0f) {
      distance = hint.distance;
      maxDistance = std::max(maxDistance, distance);  // the scene's own framing is always reachable
    }
    if (hintOk) target = glm::vec3(hint.target[0], hint.target[1], hint.target[2]);
    if (hint.setsAngles && std::isfinite(hint.yaw) && std::isfinite(hint.pitch)) {
      yaw = hint.yaw;
      pitch = hint.pitch;
    }
    if (hint.follow) {
      follow = true;
      followYawOffset = 0.0f;
      if (hintOk) yaw = yawBehind(hint.heading);
    }
    clampLimits();
    return;
  }
  if (!follow || !hintOk || !(dtSeconds > 0.0f)) return;
  if (!hint.follow) {
    // A subject in a scene framed as a whole is held at the centre exactly (an orbiting body moves
    // many of its own sizes per lag time constant); the view direction stays the user's.
    if (hint.hasSubject && finite3(hint.subject)) target = glm::vec3(hint.subject[0], hint.subject[1], hint.subject[2]);
    return;
  }
  // First-order lag, exact for any frame time: alpha = 1 - exp(-dt/tau). A slow frame catches up
  // by the same amount the continuous filter would, so the motion does not depend on frame rate.
  const float alpha = 1.0f - std::exp(-std::min(dtSeconds, 10.0f) / std::max(followTimeConstant, 1e-4f));
  const glm::vec3 goal(hint.target[0], hint.target[1], hint.target[2]);
  target += alpha * (goal - target);
  const float goalYaw = yawBehind(hint.heading) + followYawOffset;
  yaw += alpha * wrapAngle(goalYaw - yaw);
  clampLimits();
}

bool OrbitCamera::setFollow(bool on, const varsim::CameraHint& hint) {
  if (on && !canFollow(hint)) return false;
  follow = on;
  if (!on || hint.follow || !finite3(hint.subject)) return true;
  // The subject's sphere fills about 40 % of the view's height.
  target = glm::vec3(hint.subject[0], hint.subject[1], hint.subject[2]);
  const float r = std::isfinite(hint.subjectRadius) && hint.subjectRadius > 0.0f ? hint.subjectRadius : 1.0f;
  distance = 2.5f * r / std::sin(0.5f * fovY);
  clampLimits();
  return true;
}

glm::vec3 OrbitCamera::forward() const {
  const float cp = std::cos(pitch);
  return -glm::vec3(cp * std::cos(yaw), cp * std::sin(yaw), std::sin(pitch));
}

glm::vec3 OrbitCamera::eye() const { return target - distance * forward(); }

glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), target, glm::vec3(0, 0, 1)); }

glm::mat4 OrbitCamera::projection(float aspect) const {
  if (!(aspect > 0.0f) || !std::isfinite(aspect)) aspect = 1.0f;
  return glm::perspective(fovY, aspect, nearClip(), farClip());
}

float OrbitCamera::nearClip() const { return std::max(nearPlane, 1e-3f * distance); }
float OrbitCamera::farClip() const { return std::max(farPlane, 4.0f * distance); }

void OrbitCamera::pixelRay(float px, float py, int width, int height, glm::vec3& origin,
                           glm::vec3& dir) const {
  origin = eye();
  const int w = std::max(width, 1), h = std::max(height, 1);
  // Pixel -> normalized device coordinates (y up), then along the camera basis at unit depth.
  const float ndcX = 2.0f * px / float(w) - 1.0f;
  const float ndcY = 1.0f - 2.0f * py / float(h);
  const float tanHalf = std::tan(0.5f * fovY);
  const float aspect = float(w) / float(h);
  const glm::vec3 f = forward();
  const glm::vec3 right = glm::normalize(glm::cross(f, glm::vec3(0, 0, 1)));
  const glm::vec3 up = glm::cross(right, f);
  dir = glm::normalize(f + ndcX * tanHalf * aspect * right + ndcY * tanHalf * up);
}

bool OrbitCamera::project(const glm::vec3& p, int width, int height, glm::vec2& out) const {
  if (width <= 0 || height <= 0) return false;
  const glm::vec4 clip = projection(float(width) / float(height)) * view() * glm::vec4(p, 1.0f);
  if (!(clip.w > 0.0f)) return false;
  const glm::vec3 ndc = glm::vec3(clip) / clip.w;
  out = glm::vec2((ndc.x + 1.0f) * 0.5f * float(width), (1.0f - ndc.y) * 0.5f * float(height));
  return ndc.x >= -1.0f && ndc.x <= 1.0f && ndc.y >= -1.0f && ndc.y <= 1.0f && ndc.z >= -1.0f &&
         ndc.z <= 1.0f;
}
