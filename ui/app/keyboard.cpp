// Keyboard and mouse handling; see header.
#include "ui/app/keyboard.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include "ui/app/app_state.h"
#include "ui/core/speed_ladder.h"
#include "ui/input/key_names.h"

namespace varsim {

// ui/input names keys with GLFW's numbering without including GLFW; keep them in step.
static_assert(key::kA == GLFW_KEY_A && key::kW == GLFW_KEY_W && key::kSpace == GLFW_KEY_SPACE, "key codes");
static_assert(key::kRight == GLFW_KEY_RIGHT && key::kLeft == GLFW_KEY_LEFT && key::kUp == GLFW_KEY_UP &&
                  key::kDown == GLFW_KEY_DOWN && key::kPageUp == GLFW_KEY_PAGE_UP && key::kEnd == GLFW_KEY_END,
              "key codes");
static_assert(key::kMaxCode == GLFW_KEY_LAST, "key code range");

KeyboardSnapshot pollControlKeys(GLFWwindow* window, const std::vector<ControlBinding>& bindings, bool textInputActive) {
  KeyboardSnapshot keys;
  if (textInputActive || !window) return keys;
  for (const auto& b : bindings)
    for (int code : {b.keyPos, b.keyNeg})
      if (code >= 0 && glfwGetKey(window, code) == GLFW_PRESS) keys.down.push_back(code);
  return keys;
}

void handleShortcuts(AppState& app) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  SimDriver& d = app.driver;
  if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) d.setPaused(!d.paused());
  if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT, true)) {
    d.setPaused(true);
    d.stepOnce();
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_LEFT, true)) {
    if (!d.stepBack()) app.notify("history: oldest stored state reached");
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_BACKSPACE, false)) {
    try {
      d.reset();
      app.live.resetRamps();
    } catch (const std::exception& e) {
      app.notify(std::string("reset failed: ") + e.what(), true);
    }
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_EQUAL, true) || ImGui::IsKeyPressed(GLFW_KEY_KP_ADD, true))
    d.setSpeed(fasterSpeed(d.speed()));
  if (ImGui::IsKeyPressed(GLFW_KEY_MINUS, true) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT, true))
    d.setSpeed(slowerSpeed(d.speed()));
  if (ImGui::IsKeyPressed(GLFW_KEY_TAB, false)) app.hideUi = !app.hideUi;
  if (ImGui::IsKeyPressed(GLFW_KEY_F1, false)) app.settings.panels.help = !app.settings.panels.help;
  if (ImGui::IsKeyPressed(GLFW_KEY_F12, false) || ImGui::IsKeyPressed(GLFW_KEY_P, false)) app.screenshotRequested = true;
}

void handleCameraMouse(AppState& app) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureMouse) return;
  if (ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0.0f)) app.camera.orbit(io.MouseDelta.x, io.MouseDelta.y);
  if (ImGui::IsMouseDragging(ImGuiMouseButton_Right, 0.0f) || ImGui::IsMouseDragging(ImGuiMouseButton_Middle, 0.0f))
    app.camera.pan(io.MouseDelta.x, io.MouseDelta.y, int(io.DisplaySize.y));
  if (io.MouseWheel != 0.0f) app.camera.zoom(io.MouseWheel);
}

}  // namespace varsim
