// Opaque fills as scissored clears; see header.
#include "ui/app/opaque_fill.h"

#include <glad/gl.h>

#include <cstdint>

namespace varsim {

namespace {

// ImGui's OpenGL3 backend calls this in draw order with GL_SCISSOR_TEST enabled and sets its own
// scissor again for every later command, so only the scissor box and clear colour change here. The
// command's clip rectangle is the fill clipped by the window (pushed in addOpaqueFill); the colour
// travels in the callback's data pointer.
void clearRect(const ImDrawList*, const ImDrawCmd* cmd) {
  const ImDrawData* dd = ImGui::GetDrawData();
  if (!dd) return;
  const ImVec2 off = dd->DisplayPos, scale = dd->FramebufferScale;
  const float fbHeight = dd->DisplaySize.y * scale.y;
  const float x0 = (cmd->ClipRect.x - off.x) * scale.x, y0 = (cmd->ClipRect.y - off.y) * scale.y;
  const float x1 = (cmd->ClipRect.z - off.x) * scale.x, y1 = (cmd->ClipRect.w - off.y) * scale.y;
  if (x1 <= x0 || y1 <= y0) return;
  const auto color = ImU32(reinterpret_cast<std::uintptr_t>(cmd->UserCallbackData));
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(color);
  glScissor(int(x0), int(fbHeight - y1), int(x1 - x0), int(y1 - y0));  // as the backend rounds
  glClearColor(c.x, c.y, c.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

}  // namespace

void addOpaqueFill(ImDrawList* dl, const ImVec2& p0, const ImVec2& p1, ImU32 color) {
  dl->PushClipRect(p0, p1, true);
  dl->AddCallback(clearRect, reinterpret_cast<void*>(std::uintptr_t(color)));
  dl->PopClipRect();
}

}  // namespace varsim
