// Glyphs cut at a window edge in ImGui's draw data; see the header.
#include "ui/app/clipped_text.h"

#include <algorithm>

namespace varsim {

namespace {

// Scrolled-off rows are cut at the top or bottom on purpose: only a quad fully inside vertically counts.
bool cutAtSide(const ImDrawVert* v, const ImVec4& clip) {
  float x0 = v[0].pos.x, x1 = x0, y0 = v[0].pos.y, y1 = y0;
  for (int i = 1; i < 4; ++i) {
    x0 = std::min(x0, v[i].pos.x), x1 = std::max(x1, v[i].pos.x);
    y0 = std::min(y0, v[i].pos.y), y1 = std::max(y1, v[i].pos.y);
  }
  const float tol = 1.0f;  // px: antialiasing fringe
  const bool rowVisible = y0 >= clip.y - tol && y1 <= clip.w + tol;
  const bool crosses = (x0 < clip.x - tol && x1 > clip.x + tol) || (x0 < clip.z - tol && x1 > clip.z + tol);
  return rowVisible && crosses;
}

}  // namespace

ClippedText findClippedText(const ImDrawData& data) {
  ClippedText out;
  const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;
  for (int l = 0; l < data.CmdListsCount; ++l) {
    const ImDrawList& list = *data.CmdLists[l];
    long before = out.glyphs;
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback) continue;
      // Glyphs are quads of 6 indices over 4 consecutive vertices (ImDrawList::PrimRectUV).
      for (unsigned i = 0; i + 6 <= cmd.ElemCount; i += 6) {
        const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset + i;
        const unsigned base = cmd.VtxOffset + idx[0];
        if (idx[1] != idx[0] + 1 || idx[2] != idx[0] + 2 || idx[5] != idx[0] + 3) continue;
        if (base + 4 > unsigned(list.VtxBuffer.Size)) continue;
        const ImDrawVert* v = list.VtxBuffer.Data + base;
        const bool textured = v[0].uv.x != white.x || v[0].uv.y != white.y;
        const bool rect = v[0].pos.y == v[1].pos.y && v[1].pos.x == v[2].pos.x && v[2].pos.y == v[3].pos.y;
        if (textured && rect && v[0].uv.x != v[1].uv.x && cutAtSide(v, cmd.ClipRect)) ++out.glyphs;
      }
    }
    if (out.glyphs > before && list._OwnerName)
      out.windows += (out.windows.empty() ? "" : ", ") + std::string(list._OwnerName);
  }
  return out;
}

}  // namespace varsim
