// One frame of the app: devices → live input, shortcuts and camera mouse, physics steps granted by
// the fixed-step clock for `wallDt`, the scene's draw list, the 3-D view, panels and overlays, and a
// requested screenshot. Ends before the buffer swap (screenshots read the back buffer).
#pragma once

namespace varsim {

struct AppState;

// Returns the number of physics steps run this frame.
int runAppFrame(AppState& app, double wallDt);

}  // namespace varsim
