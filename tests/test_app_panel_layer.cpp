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

TEST_CASE("partial redraws: the default layout's panels in two sets of about equal cost") {
  // Index counts measured in the app (N = 1000 ladder, plots at 2 px): the Plots panel alone is the
  // larger set, the other panels together the second; the HUD (drawn every frame) is in neither.
  const std::vector<long> cost = {264, 1977, 1635, 2028, 13500, 2055, 618};
  const std::vector<char> kept = {1, 1, 1, 1, 1, 1, 0};
  CHECK(varsim::panelGroups(cost, kept, 2) == std::vector<int>{1, 1, 1, 1, 0, 1, -1});
  // One set: every kept list in it; more sets than lists: each list alone, in cost order.
  CHECK(varsim::panelGroups(cost, kept, 1) == std::vector<int>{0, 0, 0, 0, 0, 0, -1});
  const std::vector<int> six = varsim::panelGroups(cost, kept, 8);
  CHECK(six == std::vector<int>{5, 3, 4, 2, 0, 1, -1});
}

TEST_CASE("partial redraws: a list's covering pixels are whole and clipped to the framebuffer") {
  const PixelRect p = varsim::coveringPixels({818.5f, 20.5f, 1280.0f, 720.5f}, 1280, 720);
  CHECK(p.x == 818);
  CHECK(p.y == 20);
  CHECK(p.x + p.width == 1280);
  CHECK(p.y + p.height == 720);
  CHECK(varsim::coveringPixels({}, 1280, 720).width == 0);
  CHECK(varsim::coveringPixels({-5, -5, -1, -1}, 1280, 720).width == 0);
}

// The scissor ImGui's OpenGL3 backend sets for a clip rectangle, as a set of pixel indices (rows from
// the top): brute force, the reference clipWithin must agree with.
static std::vector<int> scissorPixels(const LayerRect& c, int fbw, int fbh) {
  std::vector<int> px;
  if (c.x1 <= c.x0 || c.y1 <= c.y0) return px;
  const int x = int(c.x0), w = int(c.x1 - c.x0), yGl = int(float(fbh) - c.y1), h = int(c.y1 - c.y0);
  for (int row = 0; row < fbh; ++row)
    for (int col = 0; col < fbw; ++col) {
      const int rowGl = fbh - 1 - row;
      if (col >= x && col < x + w && rowGl >= yGl && rowGl < yGl + h) px.push_back(row * fbw + col);
    }
  return px;
}

TEST_CASE("partial redraws: a clip rectangle within a region scissors exactly the pixels of both") {
  // Fractional clip rectangles (ImGui's are on half pixels and window edges) against whole regions,
  // on a small framebuffer so every pixel is checked.
  const int fbw = 40, fbh = 30;
  const std::vector<LayerRect> clips = {{0.5f, 0.5f, 20.7f, 18.2f}, {3.0f, 4.0f, 39.5f, 29.5f}, {-2.5f, -1.0f, 12.0f, 9.7f},
                                        {10.25f, 12.75f, 10.5f, 30.0f}, {5, 5, 5, 9}, {0, 0, 40, 30}};
  const std::vector<PixelRect> regions = {{0, 0, 40, 30}, {0, 0, 13, 30}, {12, 10, 15, 7}, {19, 0, 2, 30}, {30, 25, 10, 5}};
  int checked = 0;
  for (const LayerRect& c : clips)
    for (const PixelRect& r : regions) {
      std::vector<int> expected;
      for (int p : scissorPixels(c, fbw, fbh)) {
        const int row = p / fbw, col = p % fbw;
        if (col >= r.x && col < r.x + r.width && row >= r.y && row < r.y + r.height) expected.push_back(p);
      }
      const LayerRect within = varsim::clipWithin(c, r, fbh);
      CHECK(scissorPixels(within, fbw, fbh) == expected);
      if (expected.empty()) CHECK(within.empty());
      for (float v : {within.x0, within.y0, within.x1, within.y1}) CHECK(v == float(int(v)));
      checked += int(expected.size());
    }
  CHECK(checked > 1000);  // the cases do overlap
}
