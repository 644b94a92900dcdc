// Framebuffer read-back and PNG writing (see screenshot.h). stb_image_write is compiled here with
// static linkage, so another translation unit that also implements it cannot clash with ours.
#include "render/screenshot.h"

#include <algorithm>
#include <cstring>

#include <glad/gl.h>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace varsim::render {

bool readFramebufferRgb(int width, int height, std::vector<unsigned char>& rgb, std::string& error,
                        unsigned framebuffer) {
  // 16k x 16k is far beyond any window; the bound keeps width*height*3 from overflowing an int.
  if (width <= 0 || height <= 0 || width > 16384 || height > 16384) {
    error = "framebuffer size " + std::to_string(width) + "x" + std::to_string(height) +
            " is out of range (1..16384 per side)";
    return false;
  }
  if (glReadPixels == nullptr) {
    error = "OpenGL functions are not loaded";
    return false;
  }
  while (glGetError() != GL_NO_ERROR) {
  }
  const std::size_t rowBytes = std::size_t(width) * 3;
  std::vector<unsigned char> bottomUp(rowBytes * std::size_t(height));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer);
  glReadBuffer(framebuffer == 0 ? GL_BACK : GL_COLOR_ATTACHMENT0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, bottomUp.data());
  if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
    error = "glReadPixels failed with GL error " + std::to_string(e);
    return false;
  }
  // GL rows start at the bottom; images start at the top.
  rgb.resize(bottomUp.size());
  for (int y = 0; y < height; ++y)
    std::memcpy(&rgb[std::size_t(y) * rowBytes], &bottomUp[std::size_t(height - 1 - y) * rowBytes], rowBytes);
  return true;
}

bool writeRgbPng(const std::string& path, int width, int height, const std::vector<unsigned char>& rgb,
                 std::string& error) {
  if (stbi_write_png(path.c_str(), width, height, 3, rgb.data(), width * 3) == 0) {
    error = "cannot write PNG '" + path + "' (directory missing or not writable?)";
    return false;
  }
  return true;
}

}  // namespace varsim::render

bool saveFramebufferPng(const std::string& path, int width, int height, std::string& error) {
  std::vector<unsigned char> rgb;
  return varsim::render::readFramebufferRgb(width, height, rgb, error) &&
         varsim::render::writeRgbPng(path, width, height, rgb, error);
}

bool saveFramebufferRegionPng(const std::string& path, int width, int height, int x, int y, int w, int h,
                              std::string& error) {
  const int x0 = std::max(0, x), y0 = std::max(0, y), x1 = std::min(width, x + w), y1 = std::min(height, y + h);
  if (x1 <= x0 || y1 <= y0) {
    error = "region " + std::to_string(w) + "x" + std::to_string(h) + " at (" + std::to_string(x) + ", " +
            std::to_string(y) + ") lies outside the " + std::to_string(width) + "x" + std::to_string(height) +
            " framebuffer";
    return false;
  }
  std::vector<unsigned char> rgb;
  if (!varsim::render::readFramebufferRgb(width, height, rgb, error)) return false;
  const std::size_t rowBytes = std::size_t(x1 - x0) * 3;
  std::vector<unsigned char> crop(rowBytes * std::size_t(y1 - y0));
  for (int r = y0; r < y1; ++r)
    std::memcpy(&crop[std::size_t(r - y0) * rowBytes], &rgb[(std::size_t(r) * std::size_t(width) + std::size_t(x0)) * 3],
                rowBytes);
  return varsim::render::writeRgbPng(path, x1 - x0, y1 - y0, crop, error);
}
