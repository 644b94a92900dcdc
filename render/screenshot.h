// PNG screenshots of the default framebuffer (glReadPixels, rows flipped to top-down, written
// with stb_image_write). Call after Renderer::render and before swapping buffers.
#pragma once
#include <string>
#include <vector>

// Reads width x height RGB pixels of the default framebuffer's back buffer and writes a PNG.
// Returns false with a message (bad size, GL error, unwritable path) instead of crashing.
bool saveFramebufferPng(const std::string& path, int width, int height, std::string& error);
// The same for the region (x, y, w, h) of the framebuffer (pixels from the top-left), clipped to it;
// false with a message if nothing of the region lies inside or the file cannot be written.
bool saveFramebufferRegionPng(const std::string& path, int width, int height, int x, int y, int w, int h,
                              std::string& error);

namespace varsim::render {
// The same read-back without the file: tightly packed RGB rows, top row first (for tests and for
// checking a frame is not blank, and for video frames). `framebuffer` 0 reads the window's back buffer,
// another id that framebuffer object's colour attachment. Returns false with a message on failure.
bool readFramebufferRgb(int width, int height, std::vector<unsigned char>& rgb, std::string& error,
                        unsigned framebuffer = 0);
// Writes tightly packed RGB rows (top row first) as a PNG; false with the path when it cannot.
bool writeRgbPng(const std::string& path, int width, int height, const std::vector<unsigned char>& rgb,
                 std::string& error);
}  // namespace varsim::render
