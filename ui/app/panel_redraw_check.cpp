// Pixel checks of the kept-panel layer; see header.
#include "ui/app/panel_redraw_check.h"

#include <glad/gl.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "ui/app/app_state.h"

namespace varsim {

std::vector<unsigned char> readBackRegions(const std::vector<PixelRect>& regions, int fbh) {
  std::vector<unsigned char> px;
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);  // RGBA rows are whole words
  for (const PixelRect& r : regions) {
    const size_t at = px.size();
    px.resize(at + size_t(r.width) * size_t(r.height) * 4);
    glReadPixels(r.x, fbh - r.y - r.height, r.width, r.height, GL_RGBA, GL_UNSIGNED_BYTE, px.data() + at);
  }
  return px;
}

static long differingPixels(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b) {
  long n = 0;
  for (size_t i = 0; i + 3 < a.size() && i + 3 < b.size(); i += 4)  // RGB: the window's alpha is not shown
    if (a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2]) ++n;
  return n;
}

void checkPartialRedraw(AppState& app, const ViewRect& view, int fbw, int fbh) {
  const std::vector<PixelRect> regions = app.uiLayer.setRegions();
  const std::vector<unsigned char> partial = readBackRegions(regions, fbh);
  app.renderer.style.clearOutsideView = true;
  app.renderer.render(app.drawList, app.camera, view, fbw, fbh);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  ++app.partialChecks;
  app.partialPixelsDiffering += differingPixels(partial, readBackRegions(regions, fbh));
}

void checkKeptFrame(AppState& app, const std::vector<PixelRect>& regions, const std::vector<unsigned char>& before, int fbh) {
  ++app.keptChecks;
  app.keptPixelsChanged += differingPixels(before, readBackRegions(regions, fbh));
}

}  // namespace varsim
