// See offscreen_target.h.
#include "render/offscreen_target.h"

namespace varsim::render {

bool OffscreenTarget::ensure(int width, int height, int samples) {
  if (framebuffer_ != 0 && width == width_ && height == height_ && samples == samples_) return complete_;
  destroy();
  width_ = width;
  height_ = height;
  samples_ = samples;
  glGenFramebuffers(1, &framebuffer_);
  glGenRenderbuffers(1, &color_);
  glGenRenderbuffers(1, &depthStencil_);
  glBindRenderbuffer(GL_RENDERBUFFER, color_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, width, height);
  glBindRenderbuffer(GL_RENDERBUFFER, depthStencil_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH24_STENCIL8, width, height);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depthStencil_);
  complete_ = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  while (glGetError() != GL_NO_ERROR) {  // an unsupported sample count leaves errors behind
    complete_ = false;
  }
  return complete_;
}

void OffscreenTarget::bind() const { glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_); }

void OffscreenTarget::resolveTo(int x, int y, GLuint destination) const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, destination);
  glBlitFramebuffer(0, 0, width_, height_, x, y, x + width_, y + height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, destination);
}

void OffscreenTarget::destroy() {
  if (framebuffer_ != 0) glDeleteFramebuffers(1, &framebuffer_);
  if (color_ != 0) glDeleteRenderbuffers(1, &color_);
  if (depthStencil_ != 0) glDeleteRenderbuffers(1, &depthStencil_);
  framebuffer_ = color_ = depthStencil_ = 0;
  width_ = height_ = samples_ = 0;
  complete_ = false;
}

}  // namespace varsim::render
