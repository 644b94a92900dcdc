// Orbit + follow camera for the 3-D view: pure maths on GLM (no GL calls), so the app, the renderer
// and the data-side tests share one definition of view, projection, picking rays and screen mapping.
// Conventions: world z up; yaw about +z from +x, pitch above the horizon; pixels from the top-left.
#pragma once
#include <glm/glm.hpp>

#include "render/draw_list.h"

struct OrbitCamera {
  glm::vec3 target{0, 0, 0};
  float yaw = 0.8f, pitch = 0.45f /*rad, above horizon*/, distance = 8.0f;
  float fovY = 0.785f, nearPlane = 0.05f, farPlane = 2000.0f;  // clip range at the usual distances (nearClip)
  bool follow = false;  // track DrawList.camera.target/heading smoothly

  // Limits and feel (in-class defaults, adjustable by the app).
  float minDistance = 0.05f;           // m; zoom never goes closer
  float maxDistance = 1500.0f;         // m; zoom never goes farther (raised to a larger hint distance)
  float maxPitch = 1.55f;              // rad; |pitch| clamp (89 deg) avoids the view flipping at the poles
  float orbitRadPerPixel = 0.006f;     // rad per dragged pixel
  float zoomFactorPerStep = 0.88f;     // distance multiplier per wheel step
  float followTimeConstant = 0.25f;    // s; first-order lag of target and heading in follow mode
  float followYawOffset = 0.0f;        // rad; user orbit around the vehicle while following (0 = behind)
  bool adoptedHint = false;            // set by the first update(); clear it to re-adopt (new scene)

  void orbit(float dxPixels, float dyPixels);                     // left drag
  void pan(float dxPixels, float dyPixels, int viewportHeight);   // right/middle drag
  void zoom(float scrollSteps);                                   // wheel, multiplicative
  // Applies follow; the first call (or after adoptedHint = false) adopts hint.distance, hint.target
  // and hint.yaw/pitch (if hint.setsAngles), and switches follow on when the scene asks (hint.follow).
  void update(const varsim::CameraHint& hint, float dtSeconds);
  // Follow mode switched by the user: on, the camera tracks the hint's follow target (behind a
  // vehicle) or, in a scene framed as a whole, centres on its moving subject (hint.hasSubject) at a
  // distance that frames it; off, it stays where it is. False when the scene has nothing to follow.
  bool setFollow(bool on, const varsim::CameraHint& hint);
  static bool canFollow(const varsim::CameraHint& hint) { return hint.follow || hint.hasSubject; }
  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;  // clips at nearClip() and farClip()
  // The clip range grows with the distance, so a scene framed from kilometres away (a 5000-link
  // ladder is framed from ~12 km) stays inside it and keeps the depth precision of a close view
  // (24-bit depth resolves ~distance/1000 there instead of ~170 m with a 5 cm near plane).
  float nearClip() const;
  float farClip() const;
  glm::vec3 eye() const;
  // Unit vector from the eye towards the target.
  glm::vec3 forward() const;
  // World ray through a pixel (for picking, e.g. clicking a ladder joint). Pixel coordinates from the
  // top-left corner in the same units as width/height; the ray starts at the eye, dir is unit length.
  void pixelRay(float px, float py, int width, int height, glm::vec3& origin, glm::vec3& dir) const;
  // Inverse of pixelRay: pixel position (top-left origin) of a world point; false when the point is
  // behind the eye, outside the near/far range or outside the viewport (out is still written when
  // the point is in front of the eye, so labels can be clamped to the border by the caller).
  bool project(const glm::vec3& p, int width, int height, glm::vec2& out) const;

 private:
  // Yaw that puts the eye behind a vehicle with this heading (the eye looks along the heading).
  static float yawBehind(float heading) { return heading + 3.14159265358979f; }
  void clampLimits();
};
