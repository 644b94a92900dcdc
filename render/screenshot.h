// PNG screenshots of the default framebuffer (glReadPixels, rows flipped to top-down, written
// with stb_image_write). Call after Renderer::render and before swapping buffers.
#pragma once
#include <string>
#include <vector>

// Reads width x height RGB pixels of the default framebuffer's back buffer and writes a PNG.
// Returns false with a message (bad size, GL error, unwritable path) instead of crashing.
bool saveFramebufferPng(const std::string& path, int width, int height, std::string& error);

namespace varsim::render {
// The same read-back without the file: tightly packed RGB rows, top row first (for tests and for
// checking a frame is not blank). Returns false with a message on failure.
bool readFramebufferRgb(int width, int height, std::vector<unsigned char>& rgb, std::string& error);
}  // namespace varsim::render
