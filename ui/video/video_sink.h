// The frame sink of `varsim run --video/--frames` (ui/run_frames.h): a headless EGL context, the app's
// renderer drawing the scene's draw list with the app's framing of the scene (ui/video/frame_maker.h) and
// the HUD line unless --hud off, one frame per 1/fps of simulated time, encoded by media/ or written as
// numbered PNGs.
#pragma once
#include <memory>

#include "ui/run_frames.h"

namespace varsim::video {

// Registered by main() with setFrameSinkFactory; throws BadInput (exit 2) on bad options or no EGL.
std::unique_ptr<FrameSink> makeVideoSink(const FrameFlags& flags);

}  // namespace varsim::video
