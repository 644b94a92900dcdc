// Reads a video file back (libavformat + libavcodec): codec, size, and a hash of every decoded frame's
// pixels. For tests and checks of what the encoder wrote; knows nothing of how it was made.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace varsim::media {

struct VideoProbe {
  std::string codec;  // e.g. "h264", "vp9", "gif"
  int width = 0, height = 0;
  double fps = 0;
  std::vector<std::uint64_t> frameHashes;  // one per decoded frame, over its first plane's pixels
};

// False with the reason when the file cannot be opened or decoded.
bool probeVideo(const std::string& path, VideoProbe& out, std::string& error);

}  // namespace varsim::media
