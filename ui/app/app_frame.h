// One frame of the app: devices → live input, shortcuts and camera mouse, physics steps granted by
// the fixed-step clock for `wallDt`, the scene's draw list, the 3-D view, panels and overlays, and a
// requested screenshot. Ends before the buffer swap (screenshots read the back buffer).
#pragma once

namespace varsim {

struct AppState;

// Returns the number of physics steps run this frame. With app.physicsThread the steps granted for
// this frame run on the worker while the frame is rendered and presented, and the count returned is
// that of the previous frame's steps (collected first: the panels and the draw list see a settled
// state); the trajectory is the same either way (steps depend on their index and inputs only).
int runAppFrame(AppState& app, double wallDt);
// Waits for the worker's steps and returns their count (0 if none): call before reading the driver
// outside runAppFrame (end of the main loop, reports).
int finishPhysics(AppState& app);

}  // namespace varsim
