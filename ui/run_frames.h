// Frames of a `varsim run` (video or PNG frames): the runner hands its run to a FrameSink at t = 0 and
// after every step; the sink samples what it needs (one frame per 1/fps of simulated time). The sink is
// built by a factory the binary registers when it has GL and FFmpeg (ui/video/), so the runner itself
// links neither and a build without them refuses --video with a message.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace varsim {

class RunSession;

class FrameSink {
 public:
  virtual ~FrameSink() = default;
  // The run after run.stepCount() steps of run.h() (0: the initial state); the run also gives the sink
  // what its HUD line shows (time, energy, the energy monitor). Throws BadInput on a write error.
  virtual void frame(const RunSession& run) = 0;
  // Closes the output; throws BadInput with the path on a write error.
  virtual void finish() = 0;
};

// The run's video options as given (flag, value), e.g. {"--video", "out.mp4"}, {"--fps", "30"}.
using FrameFlags = std::vector<std::pair<std::string, std::string>>;
using FrameSinkFactory = std::unique_ptr<FrameSink> (*)(const FrameFlags& flags);

// Flags the runner hands to the sink instead of parsing them itself.
bool isFrameFlag(const std::string& flag);
void setFrameSinkFactory(FrameSinkFactory factory);
// The sink for these flags; nullptr when flags is empty; BadInput when no factory was registered.
std::unique_ptr<FrameSink> makeFrameSink(const FrameFlags& flags);

}  // namespace varsim
