// ui/app/autopilot_ui.h — the Autopilot (MPC) in the app (ui/core/autopilot.h): engaging it, its goal keys and
// hand-back, its drawing in the 3-D view and its HUD line.
#pragma once

#include <string>

namespace varsim {

struct AppState;

// M / Simulation > Autopilot: on (the goal Autopilot::goalAhead along the vehicle's heading) or off.
void toggleAutopilot(AppState& app);
// Engages with the goal at (x, y) m; `synchronous`: each re-plan is waited for (smoke tests). A scene whose step or
// world differs from the controller's is rebuilt at them first, the vehicle where it is. False + notice on failure.
bool engageAutopilot(AppState& app, double goalX, double goalY, bool synchronous);
// Once per frame before the physics steps (UI thread): a touched control, a reset or a step back ends it; the goal
// keys T/G (world x) and F/H (world y) move the goal.
void autopilotBeforeStep(AppState& app);
// A key press (from the key queue): a key bound to one of the scene's controls ends the autopilot like a held one.
void autopilotKeyPressed(AppState& app, int key);
// Ctrl + press or drag on the ground puts the goal there; after AppState::layoutView.
void handleAutopilotGoalDrag(AppState& app);
// True while that drag holds the left button (the camera does not orbit then).
bool autopilotGoalDragging(const AppState& app);
// The goal marker and the predicted path in this frame's draw list.
void addAutopilotDrawing(AppState& app);
// "AUTOPILOT (M off): goal 3.2 m away; re-plan 12 ms, 6 iterations, converged", empty when off.
std::string autopilotHudLine(const AppState& app);
// For the smoke test's log: "autopilot: goal (6, 0) m, 0.21 m away at t = 10 s, impacts 0, 100 re-plans (0 stale)".
std::string autopilotReport(const AppState& app);

}  // namespace varsim
