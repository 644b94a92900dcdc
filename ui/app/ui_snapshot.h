// The last full frame's ImGui draw data, copied so that a frame which does not rebuild the panels
// can draw them again over a fresh 3-D view: while the physics worker is inside a step longer than
// a frame (a 1000-link ladder on rigid rods mid-whiplash takes 40-170 ms) and the user moves the
// camera, the view follows the mouse at the display rate instead of at the physics rate.
#pragma once
#include <imgui.h>

#include <vector>

namespace varsim {

class UiSnapshot {
 public:
  UiSnapshot() = default;
  ~UiSnapshot();
  UiSnapshot(const UiSnapshot&) = delete;
  UiSnapshot& operator=(const UiSnapshot&) = delete;

  // Copies the commands, indices and vertices of every list (buffers are reused, not reallocated).
  void capture(const ImDrawData& data);
  bool empty() const { return !valid_; }
  const ImDrawData* data() const { return valid_ ? &data_ : nullptr; }
  // Draws the copy with ImGui's GL backend (between ImGui::Render and the buffer swap).
  void render();

 private:
  std::vector<ImDrawList*> lists_;
  ImDrawData data_;
  bool valid_ = false;
};

}  // namespace varsim
