// The OpenGL 3.3 core renderer: draws a varsim::DrawList (sky, ground grid, instanced shaded
// primitives, translucent ghosts, triangle meshes, pixel-width line strips) for an OrbitCamera.
// Knows no physics. GL objects live behind a pimpl so ui/ includes no GL headers through this file.
#pragma once
#include <memory>
#include <string>

#include <glm/glm.hpp>

#include "render/camera.h"
#include "render/draw_list.h"

// The part of the framebuffer the 3-D view occupies: pixels from the top-left corner (the UI's
// convention); the app passes the region its panels leave free.
struct ViewRect {
  int x = 0, y = 0, width = 0, height = 0;
};

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
  // Draws the frame into the default framebuffer: clears all of it, then draws into `view` the sky
  // gradient, ground grid with distance fade (if hint.showGround), shaded shapes, translucent
  // ghosts, meshes and line strips, through a multisampled offscreen buffer when
  // style.msaaSamples > 0. The camera's aspect is the view's. Items with non-finite numbers or
  // non-positive sizes are skipped; an empty or out-of-range view draws only the clear.
  void render(const varsim::DrawList& list, const OrbitCamera& camera, ViewRect view, int framebufferWidth,
              int framebufferHeight);
  // Framebuffer object the frame is drawn into instead of the window's (0); a headless caller without a
  // window passes a single-sampled OffscreenTarget (render/offscreen_target.h) here.
  void setTargetFramebuffer(unsigned framebuffer);
  // The whole framebuffer as the view.
  void render(const varsim::DrawList& list, const OrbitCamera& camera, int framebufferWidth, int framebufferHeight) {
    render(list, camera, ViewRect{0, 0, framebufferWidth, framebufferHeight}, framebufferWidth, framebufferHeight);
  }
  // Projects world labels to screen for the UI to draw text (ImGui foreground list): pixel position
  // from the top-left; false when behind the camera or outside the viewport.
  bool worldToScreen(const glm::vec3& p, const OrbitCamera& cam, int w, int h, glm::vec2& out) const;

  // True when the context is a CPU rasterizer (Mesa llvmpipe/softpipe/swrast, SwiftShader), where
  // 4x MSAA roughly doubles the cost of a frame; init() then starts with style.msaaSamples = 0.
  bool softwareRasterizer() const;
  // Largest sample count the context supports for the offscreen buffer (GL_MAX_SAMPLES); 0 before init().
  int maxMsaaSamples() const;

  struct Stats {
    int drawCalls = 0;
    int triangles = 0;
    int msaaSamples = 0;  // samples the last frame was drawn with (0: straight to the window)
    double cpuMs = 0.0;  // CPU time spent in the last render() call (GL calls included, not GPU time)
  };
  Stats stats() const;
  // A frame the caller did not draw (the buffer already held it): no draw calls, no CPU time.
  void skipFrame();

  // Look settings (defaults chosen for a light, neutral scene; the app may expose them).
  struct Style {
    glm::vec3 lightDirection{0.35f, 0.55f, 0.76f};  // towards the sun, world frame (normalized on use)
    float ghostAlpha = 0.35f;      // alpha of ghost items whose colour is opaque
    bool shadows = true;           // planar drop shadows of opaque shapes onto the ground
    int msaaSamples = 4;           // 0 = off; clamped to maxMsaaSamples(); changeable any frame
    glm::vec3 outsideColor{0.86f, 0.89f, 0.93f};  // the framebuffer around the view (the app's panel colour)
    int maxShadowCasters = 1000;   // above this many opaque parts, no shadows (they double the
                                   // vertex work, which dominates big scenes on software GL)
    bool clearOutsideView = true;  // false: only the view is cleared and drawn, the rest of the
                                   // framebuffer is left as it is (panels kept from the last frame)
  };
  Style style;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};
