// Panels kept between redraws on CPU rasterizers (ui/core/panel_layer_split.h): which ImGui lists
// stay in the window and where the 3-D view then goes, on the default layout's numbers (1280x720,
// ladder with plots and the SPOOK panel: docked panels reach 1-2 px into the view).
#include <doctest/doctest.h>

#include <cstddef>
#include <vector>

#include "ui/core/panel_layer_split.h"

using varsim::LayerRect;
using varsim::PixelRect;

namespace {
// The default layout measured in the app (framebuffer pixels, from the top-left).
const LayerRect kView{330, 19, 820, 460};
const std::vector<LayerRect> kLists = {
    {0, 0, 1280, 20.5f},            // main menu bar
    {0, 20.5f, 331.0f, 181.5f},     // Scenes
    {0, 178.5f, 331.0f, 439.5f},    // Simulation
    {0, 437.5f, 331.0f, 720},       // Parameters
    {819.0f, 20.5f, 1280, 720},     // Plots
    {329.0f, 459.0f, 821.0f, 720},  // SPOOK tuning
    {336, 25, 742, 75},             // HUD, over the view
};
}  // namespace

TEST_CASE("docked panels are kept, windows over the view are drawn every frame") {
  const std::vector<char> kept = varsim::splitForLayer(kLists, kView, 3.0f);
  CHECK(kept == std::vector<char>{1, 1, 1, 1, 1, 1, 0});
  // The view gives up exactly the pixels the kept panels reach into: none of them overlaps it.
  const PixelRect v = varsim::viewBesideKept({330, 19, 490, 441}, kLists, kept);
  CHECK(v.x == 331);
  CHECK(v.y == 21);
  CHECK(v.x + v.width == 819);
  CHECK(v.y + v.height == 459);
  const LayerRect inner{float(v.x), float(v.y), float(v.x + v.width), float(v.y + v.height)};
  for (std::size_t i = 0; i < kLists.size(); ++i)
    if (kept[i]) CHECK_FALSE(kLists[i].overlaps(inner));
}

TEST_CASE(
    "a list after one drawn every frame and overlapping it is drawn "
    "every frame too (draw order)") {
  // A popup over the view reaching into the Plots panel, then a panel window brought to the front
  // over it: the panel cannot come first from the kept pixels.
  const std::vector<LayerRect> lists = {
      {0, 0, 1280, 20}, {700, 100, 900, 300}, {819, 20, 1280, 720}, {0, 20, 329, 720}};
  CHECK(varsim::splitForLayer(lists, kView, 3.0f) == std::vector<char>{1, 0, 0, 1});
}

TEST_CASE(
    "a panel reaching further than the edge into the view is drawn every "
    "frame; empty lists are kept") {
  const std::vector<LayerRect> lists = {{0, 20, 340, 720}, {}, {0, 0, 0, 0}};
  const std::vector<char> kept = varsim::splitForLayer(lists, kView, 3.0f);
  CHECK(kept == std::vector<char>{0, 1, 1});
  const PixelRect view{330, 19, 490, 441};
  const PixelRect v = varsim::viewBesideKept(view, lists, kept);
  CHECK(v.x == view.x);
  CHECK(v.width == view.width);
}

TEST_CASE("a view the kept lists would cover entirely stays as it is") {
  const std::vector<LayerRect> lists = {{0, 0, 100, 100}};
  const PixelRect v = varsim::viewBesideKept({10, 10, 20, 20}, lists, {1});
  CHECK(v.x == 10);
  CHECK(v.width == 20);
}
