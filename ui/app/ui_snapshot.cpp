// ImGui draw data snapshot; see header.
#include "ui/app/ui_snapshot.h"

#include <backends/imgui_impl_opengl3.h>

namespace varsim {

UiSnapshot::~UiSnapshot() {
  for (ImDrawList* list : lists_) IM_DELETE(list);
}

void UiSnapshot::capture(const ImDrawData& data) {
  while (lists_.size() < size_t(data.CmdListsCount)) lists_.push_back(IM_NEW(ImDrawList)(ImGui::GetDrawListSharedData()));
  for (int i = 0; i < data.CmdListsCount; ++i) {
    const ImDrawList& from = *data.CmdLists[i];
    ImDrawList& to = *lists_[size_t(i)];
    to.CmdBuffer = from.CmdBuffer;
    to.IdxBuffer = from.IdxBuffer;
    to.VtxBuffer = from.VtxBuffer;
    to.Flags = from.Flags;
  }
  data_ = data;
  data_.CmdLists = lists_.data();
  valid_ = data.Valid;
}

void UiSnapshot::render() {
  if (valid_) ImGui_ImplOpenGL3_RenderDrawData(&data_);
}

}  // namespace varsim
