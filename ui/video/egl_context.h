// An OpenGL 3.3 core context without a window or display: EGL on Mesa's surfaceless platform (llvmpipe
// on machines without a GPU), made current and with glad loaded through eglGetProcAddress. render/
// draws with whatever context its caller made current; this is the headless caller's.
#pragma once
#include <string>

namespace varsim::video {

class EglContext {
 public:
  EglContext() = default;
  ~EglContext();
  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;
  // False with what is missing (no EGL display, no surfaceless support, no GL 3.3 core) instead of crashing.
  bool create(std::string& error);
  std::string renderer() const;  // GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"

 private:
  void* display_ = nullptr;
  void* context_ = nullptr;
};

}  // namespace varsim::video
