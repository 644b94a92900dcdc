// Encodes RGB frames into a video file with FFmpeg's libraries (no ffmpeg process, no frames on disk):
// the container and codec follow the extension (.mp4 H.264 yuv420p, .webm VP9, .gif GIF). Knows frames,
// not physics. Every failure (unknown extension, bad size, codec missing, write error) is a message.
#pragma once
#include <memory>
#include <string>
#include <vector>

namespace varsim::media {

// Largest frame side accepted (H.264 level limits and memory: 8192 x 8192 RGB is 200 MB per frame).
constexpr int kMaxVideoSide = 8192;
constexpr int kMaxVideoFps = 240;

// "" when the path's extension names a format we write, else the reason (with the allowed list).
std::string videoFormatError(const std::string& path);

class VideoEncoder {
 public:
  VideoEncoder();
  ~VideoEncoder();  // closes an unfinished file (trailer written) so a partial file stays playable
  VideoEncoder(const VideoEncoder&) = delete;
  VideoEncoder& operator=(const VideoEncoder&) = delete;

  // Opens path for width x height frames at fps (even sides for yuv420p). False with the reason.
  bool open(const std::string& path, int width, int height, int fps, std::string& error);
  // One frame: width*height*3 bytes, RGB, top row first.
  bool addFrame(const std::vector<unsigned char>& rgb, std::string& error);
  // Flushes the encoder, writes the trailer and closes the file; false with the path on a write error.
  bool finish(std::string& error);
  long framesWritten() const;
  std::string codecName() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace varsim::media
