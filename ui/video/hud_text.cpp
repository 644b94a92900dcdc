// See hud_text.h. The atlas is built with nearest sampling in mind: a destination pixel takes the atlas
// texel under its centre, so glyphs come out as the app draws them (its atlas is sampled GL_NEAREST).
#include "ui/video/hud_text.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <filesystem>

namespace varsim::video {

namespace {
constexpr float kFontPixels = 13.0f;   // the app's HUD font size at scale 1 (ui/app/app_window.cpp)
constexpr int kPad = 6;                // px between the box's edge and the text, and the box and the frame
constexpr float kBoxAlpha = 0.45f;     // the app's HUD background alpha (ui/app/overlays.cpp)
constexpr float kBoxGrey = 0.06f;      // ImGui's dark window background
const char* kSymbolFont = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
}  // namespace

struct HudText::Atlas {
  ImFontAtlas fonts;
  ImFont* font = nullptr;
  unsigned char* pixels = nullptr;  // alpha, owned by `fonts`
  int w = 0, h = 0;
};

HudText::HudText() : atlas_(std::make_unique<Atlas>()) {
  ImFontConfig base;
  base.SizePixels = kFontPixels;
  atlas_->font = atlas_->fonts.AddFontDefault(&base);
  // Greek, arrows, maths and geometric shapes (the record dot U+25CF), as the app merges them.
  static const ImWchar kRanges[] = {0x0370, 0x03FF, 0x2010, 0x206F, 0x2190, 0x21FF, 0x2200, 0x22FF, 0x25A0, 0x25FF, 0};
  if (std::filesystem::exists(kSymbolFont)) {
    ImFontConfig merge;
    merge.MergeMode = true;
    merge.PixelSnapH = true;
    atlas_->fonts.AddFontFromFileTTF(kSymbolFont, kFontPixels, &merge, kRanges);
  }
  atlas_->fonts.GetTexDataAsAlpha8(&atlas_->pixels, &atlas_->w, &atlas_->h);
}

HudText::~HudText() = default;

namespace {

struct Canvas {
  int width, height, scale;
  std::vector<unsigned char>& rgb;
  void blend(int x, int y, const unsigned char c[3], float a) const {
    if (x < 0 || y < 0 || x >= width || y >= height || a <= 0.0f) return;
    unsigned char* p = &rgb[(size_t(y) * size_t(width) + size_t(x)) * 3];
    for (int k = 0; k < 3; ++k) p[k] = static_cast<unsigned char>(p[k] + (float(c[k]) - float(p[k])) * a + 0.5f);
  }
};

// One glyph at pen position (x, y) (top of the line), every destination pixel from the texel under its centre.
void drawGlyph(const Canvas& cv, const ImFontGlyph& g, const unsigned char* alpha, int aw, int ah, float x, float y,
               const unsigned char c[3]) {
  const int s = cv.scale;
  const int gw = int(g.X1 - g.X0) * s, gh = int(g.Y1 - g.Y0) * s;
  const int x0 = int(x + g.X0 * float(s)), y0 = int(y + g.Y0 * float(s));
  for (int j = 0; j < gh; ++j)
    for (int i = 0; i < gw; ++i) {
      const float u = g.U0 + (float(i) + 0.5f) / float(gw) * (g.U1 - g.U0);
      const float v = g.V0 + (float(j) + 0.5f) / float(gh) * (g.V1 - g.V0);
      const int tx = std::clamp(int(u * float(aw)), 0, aw - 1), ty = std::clamp(int(v * float(ah)), 0, ah - 1);
      cv.blend(x0 + i, y0 + j, c, float(alpha[size_t(ty) * size_t(aw) + size_t(tx)]) / 255.0f);
    }
}

}  // namespace

void HudText::draw(const std::vector<HudLine>& lines, int width, int height, std::vector<unsigned char>& rgb) const {
  if (lines.empty() || width <= 0 || height <= 0 || rgb.size() < size_t(width) * size_t(height) * 3) return;
  const Canvas cv{width, height, std::max(1, (height + 719) / 720), rgb};
  const ImFont& font = *atlas_->font;
  const float lineHeight = font.FontSize * float(cv.scale);
  float widest = 0.0f;
  for (const HudLine& l : lines)
    widest = std::max(widest, font.CalcTextSizeA(font.FontSize, 1e9f, 0.0f, l.text.c_str()).x * float(cv.scale));
  const int boxW = std::min(width, int(widest) + 2 * kPad), boxH = std::min(height, int(lineHeight * float(lines.size())) + 2 * kPad);
  const unsigned char grey[3] = {static_cast<unsigned char>(255 * kBoxGrey), static_cast<unsigned char>(255 * kBoxGrey),
                                 static_cast<unsigned char>(255 * kBoxGrey)};
  for (int y = kPad; y < kPad + boxH; ++y)
    for (int x = kPad; x < kPad + boxW; ++x) cv.blend(x, y, grey, kBoxAlpha);
  float y = float(2 * kPad);
  for (const HudLine& l : lines) {
    float x = float(2 * kPad);
    const char* s = l.text.c_str();
    const char* end = s + l.text.size();
    while (s < end && x < float(width)) {
      unsigned int c = 0;
      s += std::max(1, ImTextCharFromUtf8(&c, s, end));
      const ImFontGlyph* g = font.FindGlyph(ImWchar(c));  // the fallback '?' when the fonts lack it
      if (!g) continue;
      if (g->Visible) drawGlyph(cv, *g, atlas_->pixels, atlas_->w, atlas_->h, x, y, l.rgb);
      x += g->AdvanceX * float(cv.scale);
    }
    y += lineHeight;
  }
}

}  // namespace varsim::video
