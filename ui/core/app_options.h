// Command line of the desktop app (the headless commands list/describe/run are handled before):
//   varsim [--scene NAME] [--set key=value]... [--replay FILE] [--record FILE] [--video FILE.mp4]
//          [--gamepad-mappings FILE] [--smoke-test SCENE --frames N --screenshot FILE [--no-scene]]
//          [--bench-frames SECONDS [--scene NAME]] [--hide-ui] [--sync-physics] [--help]
//          [--smoke-test car|helicopter|boat|snakeboard ... --autopilot X,Y] [--smoke-test ... --switch-from SCENE]
#pragma once
#include <string>
#include <vector>

namespace varsim {

struct AppOptions {
  enum class Mode { Interactive, SmokeTest, Bench, Help };
  Mode mode = Mode::Interactive;
  std::string scene;  // empty: last scene from settings, else the first registered one
  std::vector<std::pair<std::string, std::string>> sets;
  std::string replayFile, recordFile, gamepadMappings;
  std::string videoFile;        // --video: record the 3-D view from the first frame (ui/app/video_recording.h)
  int frames = 120;             // smoke test: frames at a fixed simulated 1/60 s each
  std::string screenshot;       // smoke test output PNG
  bool hideScene = false;       // smoke test: background only (the blank-image reference)
  bool hideUi = false;          // start with the panels hidden (Tab shows them)
  bool syncPhysics = false;     // physics on the UI thread (as smoke tests always do), not the worker
  double benchSeconds = 0.0;    // bench: wall seconds of paced 60 FPS frames
  std::string switchFrom;       // smoke test: this scene runs 30 frames first, then the switch to the tested one
  bool autopilot = false;       // smoke test: the Autopilot (MPC) flies to (autopilotX, autopilotY) from the start
  double autopilotX = 0.0, autopilotY = 0.0;
};

// Throws BadInput naming the option and what it expects.
AppOptions parseAppOptions(const std::vector<std::string>& args);
const char* appUsage();

}  // namespace varsim
