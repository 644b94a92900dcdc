// OrbitCamera maths (render/camera.h): eye placement, orbit/zoom limits, pitch clamping, pan that
// keeps the grabbed point under the cursor, pixelRay <-> project consistency, and the follow filter
// (frame-rate independent, short-way heading, eye behind the vehicle). No GL context needed.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "render/camera.h"

namespace {
constexpr int kW = 1280, kH = 720;

float maxAbs(const glm::vec3& v) { return std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)}); }

varsim::CameraHint followHint(float x, float y, float heading) {
  varsim::CameraHint h;
  h.follow = true;
  h.target = {x, y, 1.0f};
  h.heading = heading;
  h.distance = 6.0f;
  return h;
}
}  // namespace

TEST_CASE("EyeOnSphereAroundTarget") {
  OrbitCamera cam;
  cam.target = {1, -2, 0.5f};
  cam.yaw = 0.3f;
  cam.pitch = 0.6f;
  cam.distance = 7.0f;
  const glm::vec3 expected = cam.target + 7.0f * glm::vec3(std::cos(0.6f) * std::cos(0.3f),
                                                          std::cos(0.6f) * std::sin(0.3f), std::sin(0.6f));
  CHECK(maxAbs(cam.eye() - expected) < 1e-5f);
  // The view matrix puts the eye at the origin and the target on the -z axis at the distance.
  const glm::vec4 eyeView = cam.view() * glm::vec4(cam.eye(), 1);
  const glm::vec4 targetView = cam.view() * glm::vec4(cam.target, 1);
  CHECK(maxAbs(glm::vec3(eyeView)) < 1e-5f);
  CHECK(maxAbs(glm::vec3(targetView) - glm::vec3(0, 0, -7.0f)) < 1e-5f);
  CHECK(std::abs(glm::length(cam.forward()) - 1.0f) < 1e-6f);
}

TEST_CASE("ProjectionMapsNearAndFarPlanes") {
  OrbitCamera cam;
  const glm::mat4 p = cam.projection(16.0f / 9.0f);
  const glm::vec4 nearPoint = p * glm::vec4(0, 0, -cam.nearPlane, 1);
  const glm::vec4 farPoint = p * glm::vec4(0, 0, -cam.farPlane, 1);
  CHECK(nearPoint.z / nearPoint.w == doctest::Approx(-1.0).epsilon(1e-5));
  CHECK(farPoint.z / farPoint.w == doctest::Approx(1.0).epsilon(1e-5));
  // Bad aspect ratios fall back to 1 instead of producing NaN matrices.
  const glm::mat4 bad = cam.projection(std::numeric_limits<float>::quiet_NaN());
  CHECK(std::isfinite(bad[0][0]));
  CHECK(bad[0][0] == doctest::Approx(cam.projection(1.0f)[0][0]));
}

TEST_CASE("OrbitTurnsYawAndClampsPitch") {
  OrbitCamera cam;
  const float yaw0 = cam.yaw, pitch0 = cam.pitch;
  cam.orbit(10.0f, 5.0f);
  CHECK(cam.yaw == doctest::Approx(yaw0 - 10.0f * cam.orbitRadPerPixel).epsilon(1e-6));
  CHECK(cam.pitch == doctest::Approx(pitch0 + 5.0f * cam.orbitRadPerPixel).epsilon(1e-6));
  cam.orbit(0.0f, 1e6f);
  CHECK(cam.pitch == doctest::Approx(cam.maxPitch));
  CHECK(cam.pitch < 1.5707963f);  // never reaches the pole, where the up vector degenerates
  CHECK(std::isfinite(glm::determinant(cam.view())));
  cam.orbit(0.0f, -1e6f);
  CHECK(cam.pitch == doctest::Approx(-cam.maxPitch));
  // Yaw stays wrapped in (-pi, pi] however far the user drags.
  cam.orbit(1e7f, 0.0f);
  CHECK(std::abs(cam.yaw) <= 3.1416f);
  // Non-finite input is ignored.
  const float yaw1 = cam.yaw, pitch1 = cam.pitch;
  cam.orbit(std::numeric_limits<float>::quiet_NaN(), 1.0f);
  CHECK(cam.yaw == yaw1);
  CHECK(cam.pitch == pitch1);
}

TEST_CASE("ZoomIsMultiplicativeAndLimited") {
  OrbitCamera cam;
  cam.distance = 10.0f;
  cam.zoom(1.0f);
  CHECK(cam.distance == doctest::Approx(10.0f * cam.zoomFactorPerStep).epsilon(1e-6));
  cam.zoom(-1.0f);
  CHECK(cam.distance == doctest::Approx(10.0f).epsilon(1e-6));
  cam.zoom(3.0f);
  cam.zoom(-1.0f);
  cam.zoom(-2.0f);
  CHECK(cam.distance == doctest::Approx(10.0f).epsilon(1e-5));
  cam.zoom(1e4f);
  CHECK(cam.distance == doctest::Approx(cam.minDistance));
  cam.zoom(-1e4f);
  CHECK(cam.distance == doctest::Approx(cam.maxDistance));
  CHECK(cam.maxDistance < cam.farPlane);
  cam.zoom(std::numeric_limits<float>::infinity());  // ignored, like any non-finite input
  CHECK(cam.distance == doctest::Approx(cam.maxDistance));
  cam.zoom(std::numeric_limits<float>::quiet_NaN());
  CHECK(cam.distance == doctest::Approx(cam.maxDistance));
}

TEST_CASE("PanKeepsGrabbedPointUnderCursor") {
  OrbitCamera cam;
  cam.target = {2, 1, 0};
  const glm::vec3 grabbed = cam.target;  // the point under the viewport centre
  glm::vec2 before, after;
  REQUIRE(cam.project(grabbed, kW, kH, before));
  CHECK(before.x == doctest::Approx(kW / 2.0f));
  CHECK(before.y == doctest::Approx(kH / 2.0f));
  cam.pan(37.0f, -21.0f, kH);
  REQUIRE(cam.project(grabbed, kW, kH, after));
  CHECK(after.x - before.x == doctest::Approx(37.0f).epsilon(1e-3));
  CHECK(after.y - before.y == doctest::Approx(-21.0f).epsilon(1e-3));
  // The orbit parameters do not change while panning.
  CHECK(cam.distance == doctest::Approx(8.0f));
}

TEST_CASE("PixelRayThroughCentreIsViewDirection") {
  OrbitCamera cam;
  cam.yaw = -2.1f;
  cam.pitch = 0.9f;
  glm::vec3 origin, dir;
  cam.pixelRay(kW / 2.0f, kH / 2.0f, kW, kH, origin, dir);
  CHECK(maxAbs(origin - cam.eye()) < 1e-6f);
  CHECK(maxAbs(dir - cam.forward()) < 1e-6f);
  CHECK(glm::length(dir) == doctest::Approx(1.0f).epsilon(1e-6));
  // The top-left pixel's ray leans up and to the left of the view direction.
  cam.pixelRay(0, 0, kW, kH, origin, dir);
  const glm::vec3 right = glm::normalize(glm::cross(cam.forward(), glm::vec3(0, 0, 1)));
  CHECK(glm::dot(dir, right) < 0.0f);
  CHECK(glm::dot(dir, glm::cross(right, cam.forward())) > 0.0f);
}

TEST_CASE("ProjectInvertsPixelRay") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  float worstPixel = 0.0f, worstRayMiss = 0.0f;
  for (int trial = 0; trial < 200; ++trial) {
    OrbitCamera cam;
    cam.target = {10 * u(rng) - 5, 10 * u(rng) - 5, 3 * u(rng)};
    cam.yaw = 6.28f * u(rng) - 3.14f;
    cam.pitch = 2.8f * u(rng) - 1.4f;
    cam.distance = 1.0f + 30.0f * u(rng);
    // pixel -> ray -> point on the ray -> pixel
    const float px = kW * u(rng), py = kH * u(rng);
    glm::vec3 origin, dir;
    cam.pixelRay(px, py, kW, kH, origin, dir);
    const glm::vec3 p = origin + (0.5f + 50.0f * u(rng)) * dir;
    glm::vec2 back;
    REQUIRE(cam.project(p, kW, kH, back));
    worstPixel = std::max({worstPixel, std::abs(back.x - px), std::abs(back.y - py)});
    // point -> pixel -> ray passes through the point
    glm::vec2 pixel;
    const glm::vec3 w = cam.target + glm::vec3(u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f);
    if (cam.project(w, kW, kH, pixel)) {
      cam.pixelRay(pixel.x, pixel.y, kW, kH, origin, dir);
      const glm::vec3 toPoint = w - origin;
      const float miss = glm::length(toPoint - glm::dot(toPoint, dir) * dir) / glm::length(toPoint);
      worstRayMiss = std::max(worstRayMiss, miss);
    }
  }
  MESSAGE("worst pixel error " << worstPixel << ", worst relative ray miss " << worstRayMiss);
  CHECK(worstPixel < 0.02f);
  CHECK(worstRayMiss < 1e-4f);
}

TEST_CASE("ProjectRejectsPointsBehindOrOutside") {
  OrbitCamera cam;
  glm::vec2 out;
  CHECK_FALSE(cam.project(cam.eye() - 3.0f * cam.forward(), kW, kH, out));  // behind the eye
  CHECK_FALSE(cam.project(cam.target, 0, kH, out));                        // empty viewport
  const glm::vec3 right = glm::normalize(glm::cross(cam.forward(), glm::vec3(0, 0, 1)));
  CHECK_FALSE(cam.project(cam.target + 100.0f * right, kW, kH, out));      // far off to the side
  CHECK(out.x > kW);                                                        // position still given
  CHECK(cam.project(cam.target, kW, kH, out));
}

TEST_CASE("FirstUpdateAdoptsHint") {
  OrbitCamera cam;
  varsim::CameraHint hint;
  hint.distance = 25.0f;
  hint.target = {1, 2, 3};
  cam.update(hint, 0.016f);
  CHECK(cam.distance == doctest::Approx(25.0f));
  CHECK(maxAbs(cam.target - glm::vec3(1, 2, 3)) < 1e-6f);
  CHECK_FALSE(cam.follow);
  // Later hints do not override the user's zoom or target when not following.
  cam.zoom(2.0f);
  const float zoomed = cam.distance;
  hint.target = {9, 9, 9};
  cam.update(hint, 0.016f);
  CHECK(cam.distance == zoomed);
  CHECK(maxAbs(cam.target - glm::vec3(1, 2, 3)) < 1e-6f);
  // A scene asking for follow switches it on and starts behind the vehicle.
  OrbitCamera chase;
  chase.update(followHint(0, 0, 0.5f), 0.016f);
  CHECK(chase.follow);
  const glm::vec3 behind = chase.eye() - chase.target;
  CHECK(std::atan2(behind.y, behind.x) == doctest::Approx(0.5f - 3.14159265f).epsilon(1e-5));
}

TEST_CASE("FarHintsAreReachableAndInsideTheClipRange") {
  // A 5000-link ladder (5 km, pinned at the origin, swinging in the x-z plane) is framed from ~12 km.
  OrbitCamera cam;
  varsim::CameraHint hint;
  hint.distance = 11600.0f;
  hint.target = {0, 0, -2500};
  hint.setsAngles = true;
  hint.yaw = -1.5707963f;
  hint.pitch = 0.12f;
  cam.update(hint, 0.016f);
  CHECK(cam.distance == doctest::Approx(11600.0f));
  CHECK(cam.maxDistance >= 11600.0f);
  glm::vec2 px;
  for (const glm::vec3& p : {glm::vec3(0, 0, 0), glm::vec3(5000, 0, 0), glm::vec3(0, 0, -5000)})
    CHECK(cam.project(p, kW, kH, px));  // the pin, the released free end, the end hanging down
  CHECK(cam.farClip() > cam.distance + 5000.0f);
  CHECK(cam.nearClip() > 1.0f);  // the depth buffer's precision follows the view
  OrbitCamera close;
  CHECK(close.nearClip() == close.nearPlane);
  CHECK(close.farClip() == close.farPlane);
}

TEST_CASE("HintAnglesAreAdoptedOnceAndOnlyWhenSet") {
  OrbitCamera cam;
  varsim::CameraHint hint;
  hint.yaw = -1.2f;
  hint.pitch = 0.1f;
  cam.update(hint, 0.016f);  // setsAngles false: the default orbit angles stay
  CHECK(cam.yaw == doctest::Approx(0.8f));
  CHECK(cam.pitch == doctest::Approx(0.45f));
  // Face-on to the x-z plane: yaw -pi/2 puts the eye on -y, looking along +y.
  OrbitCamera side;
  hint.setsAngles = true;
  hint.yaw = -1.5707963f;
  hint.pitch = 0.1f;
  hint.distance = 10.0f;
  side.update(hint, 0.016f);
  CHECK(side.yaw == doctest::Approx(-1.5707963f));
  CHECK(side.pitch == doctest::Approx(0.1f));
  CHECK(side.forward().y == doctest::Approx(std::cos(0.1f)).epsilon(1e-5));
  CHECK(std::abs(side.forward().x) < 1e-5f);
  // The user's orbit afterwards is kept: later hints do not reset it.
  side.orbit(100.0f, 0.0f);
  const float userYaw = side.yaw;
  side.update(hint, 0.016f);
  CHECK(side.yaw == userYaw);
  // Out-of-range pitch is clamped, non-finite angles are ignored.
  OrbitCamera steep, broken;
  hint.pitch = 3.0f;
  steep.update(hint, 0.016f);
  CHECK(steep.pitch == doctest::Approx(steep.maxPitch));
  hint.yaw = std::numeric_limits<float>::quiet_NaN();
  broken.update(hint, 0.016f);
  CHECK(broken.yaw == doctest::Approx(0.8f));
  CHECK(broken.pitch == doctest::Approx(0.45f));
}

TEST_CASE("FollowFilterIsFrameRateIndependent") {
  // The exponential lag alpha = 1 - exp(-dt/tau) composes exactly: 60 frames of 1/60 s and
  // 6 frames of 1/6 s reach the same state.
  OrbitCamera fast, slow;
  fast.update(followHint(0, 0, 0), 0.0f);
  slow.update(followHint(0, 0, 0), 0.0f);
  const varsim::CameraHint goal = followHint(4, -3, 1.0f);
  for (int i = 0; i < 60; ++i) fast.update(goal, 1.0f / 60.0f);
  for (int i = 0; i < 6; ++i) slow.update(goal, 1.0f / 6.0f);
  CHECK(maxAbs(fast.target - slow.target) < 1e-4f);
  CHECK(fast.yaw == doctest::Approx(slow.yaw).epsilon(1e-4));
  // One second with tau = 0.25 s closes all but exp(-4) of the gap.
  const float remaining = glm::length(glm::vec3(4, -3, 1) - fast.target) / 5.0f;
  CHECK(remaining == doctest::Approx(std::exp(-4.0f)).epsilon(1e-3));
}

TEST_CASE("FollowTracksHeadingTheShortWayAndSitsBehind") {
  OrbitCamera cam;
  cam.update(followHint(0, 0, 3.1f), 0.0f);
  const float yaw0 = cam.yaw;
  // Heading wraps from +3.1 to -3.1 (0.083 rad to the left): the eye must not swing round.
  cam.update(followHint(0, 0, -3.1f), 0.05f);
  float step = std::remainder(cam.yaw - yaw0, 6.2831853f);
  CHECK(std::abs(step) < 0.09f);
  for (int i = 0; i < 600; ++i) cam.update(followHint(5, 5, -3.1f), 1.0f / 60.0f);
  const glm::vec3 offset = cam.eye() - cam.target;
  const glm::vec2 horizontal = glm::normalize(glm::vec2(offset));
  CHECK(horizontal.x == doctest::Approx(-std::cos(-3.1f)).epsilon(1e-4));
  CHECK(horizontal.y == doctest::Approx(-std::sin(-3.1f)).epsilon(1e-4));
  CHECK(maxAbs(cam.target - glm::vec3(5, 5, 1)) < 1e-4f);
  // Orbiting while following moves the eye around the vehicle and keeps that offset.
  cam.orbit(-100.0f, 0.0f);
  CHECK(cam.followYawOffset == doctest::Approx(100.0f * cam.orbitRadPerPixel).epsilon(1e-5));
  for (int i = 0; i < 600; ++i) cam.update(followHint(5, 5, -3.1f), 1.0f / 60.0f);
  CHECK(std::remainder(cam.yaw - (-3.1f + 3.14159265f + cam.followYawOffset), 6.2831853f) ==
        doctest::Approx(0.0f).epsilon(1e-4));
  // A non-finite hint is ignored rather than poisoning the camera.
  cam.update(followHint(std::numeric_limits<float>::quiet_NaN(), 0, 0), 0.1f);
  CHECK(std::isfinite(cam.target.x));
  CHECK(maxAbs(cam.target - glm::vec3(5, 5, 1)) < 1e-4f);
}
