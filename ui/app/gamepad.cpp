// GLFW gamepad polling; see header. The joystick callback only queues messages: the snapshot is
// re-scanned every frame, so a pad that appears or vanishes is picked up on the next frame.
#include "ui/app/gamepad.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace varsim {

namespace {
std::vector<std::string>& pendingEvents() {
  static std::vector<std::string> events;
  return events;
}

void joystickCallback(int jid, int event) {
  if (event == GLFW_CONNECTED) {
    const char* name = glfwGetJoystickName(jid);
    pendingEvents().push_back("joystick " + std::to_string(jid) + " connected: " + (name ? name : "(unnamed)") +
                              (glfwJoystickIsGamepad(jid) ? "" : " (no gamepad mapping)"));
  } else if (event == GLFW_DISCONNECTED) {
    pendingEvents().push_back("joystick " + std::to_string(jid) + " disconnected");
  }
}
}  // namespace

static_assert(GLFW_GAMEPAD_AXIS_LAST + 1 == kGamepadAxisCount, "standard mapping axis count");
static_assert(GLFW_GAMEPAD_BUTTON_LAST + 1 == kGamepadButtonCount, "standard mapping button count");

void GamepadInput::init() { glfwSetJoystickCallback(joystickCallback); }

bool GamepadInput::loadMappings(const std::string& path, std::string& message) {
  std::ifstream in(path);
  if (!in) {
    message = "gamepad mappings: cannot read '" + path + "'";
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  if (glfwUpdateGamepadMappings(ss.str().c_str()) != GLFW_TRUE) {
    message = "gamepad mappings: '" + path + "' was rejected by GLFW (expected SDL_GameControllerDB lines)";
    return false;
  }
  message = "gamepad mappings loaded from '" + path + "'";
  return true;
}

GamepadSnapshot GamepadInput::poll() {
  GamepadSnapshot snap;
  // Keep the active pad while it stays connected; otherwise take the first gamepad present.
  if (activeJid_ < 0 || !glfwJoystickIsGamepad(activeJid_)) {
    activeJid_ = -1;
    for (int jid = GLFW_JOYSTICK_1; jid <= GLFW_JOYSTICK_LAST; ++jid) {
      if (glfwJoystickIsGamepad(jid)) { activeJid_ = jid; break; }
      if (glfwJoystickPresent(jid) &&
          std::find(warnedNoMapping_.begin(), warnedNoMapping_.end(), jid) == warnedNoMapping_.end()) {
        warnedNoMapping_.push_back(jid);
        const char* name = glfwGetJoystickName(jid);
        pendingEvents().push_back(std::string("joystick '") + (name ? name : "?") +
                                  "' has no gamepad mapping: add it with --gamepad-mappings FILE "
                                  "(SDL_GameControllerDB format)");
      }
    }
  }
  GLFWgamepadstate state;
  if (activeJid_ >= 0 && glfwGetGamepadState(activeJid_, &state) == GLFW_TRUE) {
    snap.connected = true;
    const char* name = glfwGetGamepadName(activeJid_);
    snap.name = name ? name : "gamepad";
    for (int a = 0; a < kGamepadAxisCount; ++a) snap.axes[size_t(a)] = state.axes[a];
    for (int b = 0; b < kGamepadButtonCount; ++b) snap.buttons[size_t(b)] = state.buttons[b] == GLFW_PRESS;
  }
  return snap;
}

std::vector<std::string> GamepadInput::takeMessages() {
  std::vector<std::string> out;
  out.swap(pendingEvents());
  return out;
}

}  // namespace varsim
