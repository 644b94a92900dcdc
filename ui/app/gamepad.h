// GLFW gamepad access (standard mapping, SDL_GameControllerDB format): user mapping files through
// glfwUpdateGamepadMappings, hot-plug via the joystick callback, and a per-frame snapshot of the
// first connected gamepad as plain data for ui/input (which never sees GLFW).
#pragma once
#include <string>
#include <vector>

#include "ui/input/control_binding.h"

namespace varsim {

class GamepadInput {
 public:
  // Installs the hot-plug callback; call after glfwInit.
  void init();
  // Adds mappings from an SDL_GameControllerDB-format file; false + message if unreadable/rejected.
  bool loadMappings(const std::string& path, std::string& message);
  GamepadSnapshot poll();
  // Hot-plug events and joysticks without a gamepad mapping, since the last call.
  std::vector<std::string> takeMessages();

 private:
  int activeJid_ = -1;
  std::vector<int> warnedNoMapping_;
};

}  // namespace varsim
