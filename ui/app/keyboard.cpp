// Keyboard and mouse handling; see header.
#include "ui/app/keyboard.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include "ui/app/app_state.h"
#include "ui/app/autopilot_ui.h"
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
    for (const std::vector<int>& codes : {std::vector<int>{b.keyPos, b.keyNeg}, b.moreKeysPos, b.moreKeysNeg})
      for (int code : codes)
        if (code >= 0 && glfwGetKey(window, code) == GLFW_PRESS) keys.down.push_back(code);
  return keys;
}

namespace {
// Key presses queued by our GLFW callback (ImGui's backend chains to it). ImGui 1.86 keeps only the
// key state per frame, so a tap shorter than a frame (slow software-rendered frames, scripted
// input) would be lost; the queue keeps every press and auto-repeat.
struct KeyEvent {
  int key, mods;
  bool repeat;
};
std::vector<KeyEvent>& keyQueue() {
  static std::vector<KeyEvent> queue;
  return queue;
}
void keyCallback(GLFWwindow*, int key, int, int action, int mods) {
  if (action == GLFW_PRESS || action == GLFW_REPEAT) keyQueue().push_back({key, mods, action == GLFW_REPEAT});
}
}  // namespace

void installKeyQueue(GLFWwindow* window) { glfwSetKeyCallback(window, keyCallback); }

void handleShortcuts(AppState& app) {
  std::vector<KeyEvent> events;
  events.swap(keyQueue());
  if (ImGui::GetIO().WantTextInput) return;  // typing into a field is not a shortcut
  SimDriver& d = app.driver;
  for (const KeyEvent& e : events) {
    const bool simulationKey = e.key == GLFW_KEY_SPACE || e.key == GLFW_KEY_PERIOD || e.key == GLFW_KEY_COMMA ||
                               e.key == GLFW_KEY_BACKSPACE;
    if (simulationKey && !d.loaded()) continue;
    if (!e.repeat) autopilotKeyPressed(app, e.key);  // a control's key, even a tap between frames, takes back
    switch (e.key) {
      case GLFW_KEY_SPACE:
        if (!e.repeat) d.setPaused(!d.paused());
        break;
      // History stepping on , and . (the < > keys): the arrows and W/A/S/D drive the vehicles.
      case GLFW_KEY_PERIOD:
        d.setPaused(true);
        d.stepOnce();
        break;
      case GLFW_KEY_COMMA:
        if (!d.stepBack()) app.notify("history: oldest stored state reached");
        break;
      case GLFW_KEY_BACKSPACE:
        if (!e.repeat) app.resetScene();
        break;
      case GLFW_KEY_HOME:
        if (!e.repeat) app.reframeView = true;
        break;
      case GLFW_KEY_C:
        if (!e.repeat && d.loaded()) app.setFollow(!app.camera.follow);
        break;
      case GLFW_KEY_M:
        if (!e.repeat && d.loaded()) toggleAutopilot(app);
        break;
      case GLFW_KEY_EQUAL:
      case GLFW_KEY_KP_ADD: d.setSpeed(fasterSpeed(d.speed())); break;
      case GLFW_KEY_MINUS:
      case GLFW_KEY_KP_SUBTRACT: d.setSpeed(slowerSpeed(d.speed())); break;
      case GLFW_KEY_TAB:
        if (!e.repeat) app.hideUi = !app.hideUi;
        break;
      case GLFW_KEY_F1:
        if (!e.repeat) app.settings.panels.help = !app.settings.panels.help;
        break;
      case GLFW_KEY_F4:
        if (!e.repeat) app.study.toggle(d.loaded() ? d.sceneName() : "");
        break;
      case GLFW_KEY_F9:
        if (!e.repeat) toggleVideoRecording(app);
        break;
      case GLFW_KEY_F12:
      case GLFW_KEY_P:
        if (!e.repeat) app.screenshotRequested = true;
        break;
      case GLFW_KEY_Q:
        if (e.mods & GLFW_MOD_CONTROL) glfwSetWindowShouldClose(app.window, GLFW_TRUE);
        break;
      default: break;
    }
  }
}

void handleCameraMouse(AppState& app) {
  const ImGuiIO& io = ImGui::GetIO();
  const bool overView = app.view.contains(io.MousePos.x, io.MousePos.y) && !io.WantCaptureMouse;
  // A drag belongs to the camera when its button went down over the view; it may then cross panels
  // (ImGui does not capture a drag that started outside its windows).
  // The press frame's delta is skipped: on a slow frame it holds the jump to where the button went
  // down, not a drag.
  bool dragging[3];
  for (int b = 0; b < 3; ++b) {
    if (ImGui::IsMouseClicked(b)) app.cameraDrag[b] = overView;
    else if (!ImGui::IsMouseDown(b)) app.cameraDrag[b] = false;
    dragging[b] = app.cameraDrag[b] && !ImGui::IsMouseClicked(b) && ImGui::IsMouseDragging(b, 0.0f);
  }
  // While the Plan panel picks a goal, a left drag sets its heading instead (plan_panel_view.cpp).
  const bool orbiting = dragging[ImGuiMouseButton_Left] && !app.plan.picking && !autopilotGoalDragging(app);
  const bool panning = dragging[ImGuiMouseButton_Right] || dragging[ImGuiMouseButton_Middle];
  const bool zooming = overView && io.MouseWheel != 0.0f;
  if (orbiting) app.camera.orbit(io.MouseDelta.x, io.MouseDelta.y);
  if (panning) app.camera.pan(io.MouseDelta.x, io.MouseDelta.y, int(app.view.h));  // metres per pixel of the view's height
  if (zooming) app.camera.zoom(io.MouseWheel);
  if (orbiting || panning || zooming) app.cameraMoved = true;  // a view resize keeps the user's camera
}

}  // namespace varsim
