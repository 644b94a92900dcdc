// The OpenGL 3.3 core renderer: draws a varsim::DrawList (sky, ground grid, instanced shaded
// primitives, translucent ghosts, triangle meshes, pixel-width line strips) for an OrbitCamera.
// Knows no physics. GL objects live behind a pimpl so ui/ includes no GL headers through this file.
#pragma once
#include <memory>
#include <string>

#include <glm/glm.hpp>

#include "render/camera.h"
#include "render/draw_list.h"

class Renderer {
 public:
  Renderer();
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Call after a GL 3.3 core context is current AND glad is loaded (gladLoadGL(glfwGetProcAddress)
  // is done by ui/). Loads shaders from VARSIM_ASSETS or VARSIM_ASSET_DIR; on failure returns false
  // with the missing file or the compile/link log in error (never crashes). Calling it again
  // reloads everything (shader hot-reload).
  bool init(std::string& error);
  // Releases GL objects; call while the context is still current. Safe to call twice.
  void shutdown();
  // Draws the whole frame into the currently bound framebuffer (clears it): sky gradient background,
  // ground grid with distance fade (if hint.showGround), shaded shapes, translucent ghosts, meshes,
  // line strips. Items with non-finite numbers or non-positive sizes are skipped.
  void render(const varsim::DrawList& list, const OrbitCamera& camera, int framebufferWidth, int framebufferHeight);
  // Projects world labels to screen for the UI to draw text (ImGui foreground list): pixel position
  // from the top-left; false when behind the camera or outside the viewport.
  bool worldToScreen(const glm::vec3& p, const OrbitCamera& cam, int w, int h, glm::vec2& out) const;

  // True when the context is a CPU rasterizer (Mesa llvmpipe/softpipe/swrast, SwiftShader), where
  // 4x MSAA roughly triples the cost of a frame: an app can then recreate its window without
  // GLFW_SAMPLES. Valid after init().
  bool softwareRasterizer() const;

  struct Stats {
    int drawCalls = 0;
    int triangles = 0;
    double cpuMs = 0.0;  // CPU time spent in the last render() call (GL calls included, not GPU time)
  };
  Stats stats() const;

  // Look settings (defaults chosen for a light, neutral scene; the app may expose them).
  struct Style {
    glm::vec3 lightDirection{0.35f, 0.55f, 0.76f};  // towards the sun, world frame (normalized on use)
    float ghostAlpha = 0.35f;      // alpha of ghost items whose colour is opaque
    bool shadows = true;           // planar drop shadows of opaque shapes onto the ground
    int maxShadowCasters = 1000;   // above this many opaque parts, no shadows (they double the
                                   // vertex work, which dominates big scenes on software GL)
  };
  Style style;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};
