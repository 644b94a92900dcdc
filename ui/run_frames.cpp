// See run_frames.h.
#include "ui/run_frames.h"

#include "engine/sim/errors.h"

namespace varsim {

namespace {
FrameSinkFactory gFactory = nullptr;
}

bool isFrameFlag(const std::string& flag) {
  return flag == "--video" || flag == "--frames" || flag == "--fps" || flag == "--size" || flag == "--camera" ||
         flag == "--hud";
}

void setFrameSinkFactory(FrameSinkFactory factory) { gFactory = factory; }

std::unique_ptr<FrameSink> makeFrameSink(const FrameFlags& flags) {
  if (flags.empty()) return nullptr;
  if (gFactory == nullptr)
    throw BadInput(flags.front().first + ": this varsim was built without video (VARSIM_BUILD_APP=OFF: no GL, no FFmpeg)");
  return gFactory(flags);
}

}  // namespace varsim
