// The GLFW window with a GL 3.3 core context (vsync; no samples: the renderer multisamples the 3-D view offscreen), the glad loader and Dear ImGui with
// its GLFW/OpenGL3 backends, scaled for HiDPI monitors (content scale → font size and style).
#pragma once
#include <string>

struct GLFWwindow;

namespace varsim {

struct AppWindowConfig {
  int width = 1280, height = 720;  // window (screen) coordinates
  int x = -1, y = -1;              // -1: placed by the window manager
  bool vsync = true;
  std::string title = "varsim";
};

// glfwInit must have succeeded. Returns nullptr with a message if the window, the context or the GL
// loader cannot be created.
GLFWwindow* openAppWindow(const AppWindowConfig& config, std::string& error);
void closeAppWindow(GLFWwindow* window);
// The last GLFW error text (for "cannot open display" style messages).
std::string lastGlfwError();

}  // namespace varsim
