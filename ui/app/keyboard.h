// Keyboard side of the app: the held keys that drive controls (keyboard fallback) and the global
// shortcuts (MuJoCo simulate / Box2D samples conventions). Both skip keys while ImGui edits text.
#pragma once
#include "ui/input/control_binding.h"

struct GLFWwindow;

namespace varsim {

struct AppState;

// Keys bound to the current scene's controls that are held now.
KeyboardSnapshot pollControlKeys(GLFWwindow* window, const std::vector<ControlBinding>& bindings, bool textInputActive);
// Space pause, . step, , step back (the arrows drive vehicles), Backspace reset, +/− speed, Tab hide UI, F1 help, F12/P screenshot,
// Ctrl+Q quit.
// Consumes the key presses queued since the last frame (installKeyQueue); call once per frame
// between ImGui::NewFrame and ImGui::Render.
void handleShortcuts(AppState& app);
// Installs the key-press queue; call before ImGui's GLFW backend installs (and chains) its callbacks.
void installKeyQueue(GLFWwindow* window);
// Left drag orbit, right/middle drag pan, wheel zoom, when the mouse is over the 3-D view (inside
// app.view and not over a panel).
void handleCameraMouse(AppState& app);

}  // namespace varsim
