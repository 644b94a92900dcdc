// The app's Record key (F9) and View-menu item: the 3-D view to a video file at the simulation's rate, one
// frame per 1/fps of simulated time taken after the physics step it falls on (SimDriver::afterStep, on the
// physics worker), drawn on the UI thread by the headless command's FrameMaker (ui/video/frame_maker.h)
// with the same HUD lines, so a replay recorded here has the frames of `varsim run … --input … --video`.
#pragma once
#include <memory>
#include <string>

struct OrbitCamera;

namespace varsim {

struct AppState;
class SimDriver;

class VideoRecording {
 public:
  static constexpr int kFps = 60, kWidth = 1280, kHeight = 720;  // `varsim run --video`'s defaults

  VideoRecording();
  ~VideoRecording();
  VideoRecording(const VideoRecording&) = delete;
  VideoRecording& operator=(const VideoRecording&) = delete;

  // Opens path (the extension picks the format) with the GL context current and keeps the driver's
  // present state as frame 0; false with the reason.
  bool start(const std::string& path, const SimDriver& driver, std::string& error);
  // After each physics step (on the worker while it runs): keeps the scene's draw list and HUD lines when a
  // frame falls on this step. Only the recording's own queue is touched.
  void afterStep(const SimDriver& driver);
  // UI thread, with the worker idle: draws and encodes the kept frames with the default framing, or with
  // `userCamera` when the user moved the camera (nullptr: not moved). False with the reason.
  bool flush(const OrbitCamera* userCamera, std::string& error);
  // Closes the file; false with the reason on a write error. `summary` names frames, seconds and path.
  bool stop(std::string& summary);
  bool active() const;
  double seconds() const;  // simulated seconds recorded so far (frames / fps)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The Record key and menu item: starts a recording to varsim_<scene>_step<N>.mp4, or stops the running
// one; either outcome and every write error is a notice.
void toggleVideoRecording(AppState& app);
// runAppFrame, after the frame's steps: the frames the steps produced, a write error as a notice (the
// recording stops, the partial file closed).
void flushVideoRecording(AppState& app);
// With the physics worker idle: encodes the frames still kept, closes the file and returns true with the
// summary in `message`, or false with the write error; true and "" when nothing was recording.
bool endVideoRecording(AppState& app, std::string& message);
// The HUD's record line, "● REC 00:12", or "" when not recording.
std::string videoRecordingHudLine(const AppState& app);

}  // namespace varsim
