// See video_options.h.
#include "ui/video/video_options.h"

#include <cmath>
#include <filesystem>

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "engine/sim/param.h"
#include "media/video_encoder.h"

namespace varsim::video {

namespace {

std::string why(const std::string& flag, const std::string& value, const std::string& reason) {
  return flag + " " + shortText(value) + ": " + reason;
}

float numberIn(const std::string& flag, const std::string& key, const std::string& text, double lo, double hi) {
  const NumberText n = parseNumber(text);
  if (!n.ok || !(n.value >= lo && n.value <= hi))
    throw BadInput(why(flag, key + "=" + text, (n.ok ? "out of range" : n.error) + "; allowed [" + formatNumber(lo) +
                                                   ", " + formatNumber(hi) + "]"));
  return float(n.value);
}

void parseSize(const std::string& value, VideoOptions& o) {
  const auto x = value.find('x');
  const std::string allowed = "; allowed WxH with even sides in [16, " + std::to_string(media::kMaxVideoSide) + "]";
  if (x == std::string::npos) throw BadInput(why("--size", value, "expected WxH" + allowed));
  const NumberText w = parseCount(value.substr(0, x), 16, media::kMaxVideoSide);
  const NumberText h = parseCount(value.substr(x + 1), 16, media::kMaxVideoSide);
  if (!w.ok || !h.ok || std::fmod(w.value, 2) != 0 || std::fmod(h.value, 2) != 0)
    throw BadInput(why("--size", value, "out of range" + allowed));
  o.width = int(w.value);
  o.height = int(h.value);
}

void parseCamera(const std::string& value, CameraOverride& c) {
  const std::string flag = "--camera";
  std::size_t start = 0;
  while (start <= value.size()) {
    const std::size_t comma = std::min(value.find(',', start), value.size());
    const std::string item = value.substr(start, comma - start);
    start = comma + 1;
    const auto eq = item.find('=');
    if (eq == std::string::npos) throw BadInput(why(flag, item, "expected key=value"));
    const std::string key = item.substr(0, eq), v = item.substr(eq + 1);
    if (key == "distance") c.distance = numberIn(flag, key, v, 0.05, 1500);
    else if (key == "azimuth") c.azimuthDeg = numberIn(flag, key, v, -360, 360);
    else if (key == "elevation") c.elevationDeg = numberIn(flag, key, v, -89, 89);
    else if (key == "follow" && (v == "on" || v == "off")) c.follow = v == "on";
    else if (key == "target") {
      std::size_t a = v.find(':'), b = a == std::string::npos ? a : v.find(':', a + 1);
      if (b == std::string::npos) throw BadInput(why(flag, item, "expected target=X:Y:Z (m)"));
      c.target[0] = numberIn(flag, key, v.substr(0, a), -1e6, 1e6);
      c.target[1] = numberIn(flag, key, v.substr(a + 1, b - a - 1), -1e6, 1e6);
      c.target[2] = numberIn(flag, key, v.substr(b + 1), -1e6, 1e6);
    } else
      throw BadInput(why(flag, item, "unknown camera key; allowed distance=M, azimuth=DEG, elevation=DEG, "
                                     "target=X:Y:Z, follow=on|off"));
  }
}

}  // namespace

VideoOptions parseVideoOptions(const FrameFlags& flags) {
  VideoOptions o;
  for (const auto& [flag, value] : flags) {
    if (flag == "--video") {
      if (const std::string e = media::videoFormatError(value); !e.empty()) throw BadInput("--video " + e);
      o.videoPath = value;
    } else if (flag == "--frames") {
      if (value.empty() || !std::filesystem::is_directory(value))
        throw BadInput(why(flag, value, "not a directory (create it first)"));
      o.framesDir = value;
    } else if (flag == "--fps") {
      const NumberText n = parseCount(value, 1, media::kMaxVideoFps);
      if (!n.ok)
        throw BadInput(why(flag, value, n.error + "; allowed a whole number in [1, " +
                                            std::to_string(media::kMaxVideoFps) + "]"));
      o.fps = int(n.value);
    } else if (flag == "--size") {
      parseSize(value, o);
    } else if (flag == "--hud") {
      if (value != "on" && value != "off") throw BadInput(why(flag, value, "allowed on or off"));
      o.hud = value == "on";
    } else {
      parseCamera(value, o.camera);
    }
  }
  if (o.videoPath.empty() == o.framesDir.empty())
    throw BadInput("--fps, --size, --camera and --hud need exactly one of --video OUT.mp4|.webm|.gif and --frames DIR");
  return o;
}

}  // namespace varsim::video
