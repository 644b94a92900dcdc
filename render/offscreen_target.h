// Multisampled offscreen colour + depth/stencil target for the 3-D view: the scene is drawn into it
// and resolved into the default framebuffer's view rectangle, so MSAA can change at run time (the
// window itself has no samples) and the UI on top is never multisampled.
#pragma once
#include <glad/gl.h>

namespace varsim::render {

class OffscreenTarget {
 public:
  // (Re)allocates when size or sample count changed; false if the driver rejects the combination
  // (the caller then draws straight into the default framebuffer).
  bool ensure(int width, int height, int samples);
  void bind() const;
  // The framebuffer object's id. With samples = 0 the target is single-sampled and is itself where a
  // caller without a window (headless video) has the renderer draw (Renderer::setTargetFramebuffer) and
  // reads the pixels from (readFramebufferRgb with this id).
  GLuint id() const { return framebuffer_; }
  // Resolves the samples into framebuffer `destination` (0: the window's) at (x, y) (GL's bottom-left
  // origin), leaving the destination bound.
  void resolveTo(int x, int y, GLuint destination = 0) const;
  void destroy();

 private:
  GLuint framebuffer_ = 0, color_ = 0, depthStencil_ = 0;
  int width_ = 0, height_ = 0, samples_ = 0;
  bool complete_ = false;
};

}  // namespace varsim::render
