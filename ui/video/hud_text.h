// HUD text drawn into an RGB video frame on the CPU: ImGui's own font (ProggyClean, with DejaVu Sans Mono
// merged for symbols such as the record dot), rasterised once into an atlas and copied glyph by glyph over
// a translucent box in the frame's top-left corner, as the app's HUD sits over its 3-D view. No GL and no
// ImGui context: the same pixels headless and in the app, whatever the GL driver.
#pragma once
#include <memory>
#include <string>
#include <vector>

namespace varsim::video {

struct HudLine {
  std::string text;  // UTF-8; glyphs the fonts lack are drawn as '?'
  unsigned char rgb[3] = {255, 255, 255};
};

class HudText {
 public:
  HudText();
  ~HudText();
  HudText(const HudText&) = delete;
  HudText& operator=(const HudText&) = delete;

  // Draws the lines into a width x height RGB frame (rows top first). Glyphs are scaled by a whole
  // factor (1 up to 720 rows, 2 up to 1440, ...) so the bitmap font stays sharp; lines that do not fit
  // are cut at the frame's edge.
  void draw(const std::vector<HudLine>& lines, int width, int height, std::vector<unsigned char>& rgb) const;

 private:
  struct Atlas;
  std::unique_ptr<Atlas> atlas_;
};

}  // namespace varsim::video
