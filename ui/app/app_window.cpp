// Window, context and ImGui setup; see header.
#include "ui/app/app_window.h"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>

#include "ui/app/keyboard.h"

namespace varsim {

namespace {
std::string& glfwErrorText() {
  static std::string text;
  return text;
}
void glfwErrorCallback(int code, const char* description) {
  glfwErrorText() = "GLFW error " + std::to_string(code) + ": " + (description ? description : "");
}

// The default font (ProggyClean) stops at U+00FF; parameter descriptions and panels use Greek
// (epsilon, tau, omega, mu), arrows, math symbols and the record dot. Merged from Debian's fonts-dejavu-core when
// present; without it those glyphs show as '?' and nothing else changes.
void mergeSymbolFont(ImGuiIO& io, float sizePixels) {
  static const ImWchar kRanges[] = {0x0370, 0x03FF, 0x2010, 0x206F, 0x2070, 0x209F, 0x2190, 0x21FF, 0x2200, 0x22FF, 0x25A0, 0x25FF, 0};
  const char* path = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
  if (!std::filesystem::exists(path)) return;
  ImFontConfig merge;
  merge.MergeMode = true;
  merge.PixelSnapH = true;
  io.Fonts->AddFontFromFileTTF(path, sizePixels, &merge, kRanges);
}
}  // namespace

std::string lastGlfwError() { return glfwErrorText(); }

GLFWwindow* openAppWindow(const AppWindowConfig& c, std::string& error) {
  glfwSetErrorCallback(glfwErrorCallback);
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, 0);  // MSAA lives in the renderer's offscreen target
  glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);  // HiDPI: window size in logical pixels
  GLFWwindow* window = glfwCreateWindow(c.width, c.height, c.title.c_str(), nullptr, nullptr);
  if (!window) {
    error = "cannot create a window with an OpenGL 3.3 core context (" + lastGlfwError() + ")";
    return nullptr;
  }
  if (c.x >= 0 && c.y >= 0) glfwSetWindowPos(window, c.x, c.y);
  glfwMakeContextCurrent(window);
  if (gladLoadGL(glfwGetProcAddress) == 0) {
    error = "cannot load OpenGL 3.3 core functions (glad)";
    glfwDestroyWindow(window);
    return nullptr;
  }
  glfwSwapInterval(c.vsync ? 1 : 0);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // layout defaults come from panelRect; our own settings file persists the rest
  ImGui::StyleColorsDark();
  // HiDPI: scale fonts and sizes by the monitor content scale (framebuffer vs window size is handled
  // by the backend through DisplayFramebufferScale).
  // Where window coordinates are already logical (framebuffer larger than the window, e.g. macOS),
  // the backend's framebuffer scale covers it and ImGui sizes stay unscaled.
  float xs = 1.0f, ys = 1.0f;
  glfwGetWindowContentScale(window, &xs, &ys);
  int ww = 1, wh = 1, fw = 1, fh = 1;
  glfwGetWindowSize(window, &ww, &wh);
  glfwGetFramebufferSize(window, &fw, &fh);
  const float framebufferRatio = ww > 0 ? float(fw) / float(ww) : 1.0f;
  const float scale = std::clamp(std::max(xs, ys) / std::max(framebufferRatio, 1.0f), 1.0f, 4.0f);
  ImFontConfig font;
  font.SizePixels = 13.0f * scale;
  io.Fonts->AddFontDefault(&font);
  mergeSymbolFont(io, font.SizePixels);
  ImGuiStyle& style = ImGui::GetStyle();
  style.ScaleAllSizes(scale);
  style.WindowRounding = 3.0f;
  style.Colors[ImGuiCol_WindowBg].w = 0.88f;
  installKeyQueue(window);  // before the backend, which chains to it
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  // The font atlas is sampled with nearest filtering: glyphs sit on whole pixels (ImGui floors text
  // positions), so text looks the same, and a CPU rasterizer (llvmpipe) skips bilinear filtering
  // for every UI pixel: ImGui's share of a 1280x720 frame 6.3 -> 5.1 ms CPU (ladder, every panel).
  ImGui_ImplOpenGL3_CreateDeviceObjects();  // the atlas now, not at the first frame
  glBindTexture(GL_TEXTURE_2D, GLuint(reinterpret_cast<std::intptr_t>(io.Fonts->TexID)));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
  return window;
}

void closeAppWindow(GLFWwindow* window) {
  if (!window) return;
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
}

}  // namespace varsim
