// See egl_context.h. The surfaceless platform needs no X server, no DRM device and no DISPLAY, so
// `varsim run --video` works on servers and in CI; eglGetPlatformDisplayEXT is looked up at run time
// because it is an extension function.
#include "ui/video/egl_context.h"

#include <cstdio>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <glad/gl.h>

namespace varsim::video {

namespace {

bool failWith(std::string& error, const std::string& what) {
  error = "headless OpenGL through EGL: " + what + " (EGL error 0x" + [] {
    char hex[16];
    std::snprintf(hex, sizeof hex, "%04X", unsigned(eglGetError()));
    return std::string(hex);
  }() + "; needs Mesa's libEGL with EGL_MESA_platform_surfaceless, Debian package libegl-mesa0)";
  return false;
}

}  // namespace

bool EglContext::create(std::string& error) {
  const auto getPlatformDisplay =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (getPlatformDisplay == nullptr) return failWith(error, "eglGetPlatformDisplayEXT is missing");
  EGLDisplay display = getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (display == EGL_NO_DISPLAY) return failWith(error, "no surfaceless display");
  EGLint major = 0, minor = 0;
  if (eglInitialize(display, &major, &minor) == EGL_FALSE) return failWith(error, "eglInitialize failed");
  display_ = display;
  if (eglBindAPI(EGL_OPENGL_API) == EGL_FALSE) return failWith(error, "no desktop OpenGL API");
  const EGLint configAttributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (eglChooseConfig(display, configAttributes, &config, 1, &count) == EGL_FALSE || count < 1)
    return failWith(error, "no OpenGL config");
  const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, contextAttributes);
  if (context == EGL_NO_CONTEXT) return failWith(error, "no OpenGL 3.3 core context");
  context_ = context;
  if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) == EGL_FALSE)
    return failWith(error, "cannot make the context current without a surface");
  if (gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress)) == 0)
    return failWith(error, "glad could not load the GL functions");
  return true;
}

std::string EglContext::renderer() const {
  const auto* text = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return text != nullptr ? text : "";
}

EglContext::~EglContext() {
  if (display_ == nullptr) return;
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (context_ != nullptr) eglDestroyContext(display_, context_);
  eglTerminate(display_);
}

}  // namespace varsim::video
