// The 3-D view's free rectangle (ui/core/view_layout.h): the default 1280x720 layout, panels closed,
// moved away from an edge or docked at the bottom, windows too small, bad inputs, and the HiDPI
// conversion to framebuffer pixels.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "ui/core/view_layout.h"

using namespace varsim;

namespace {

// The app's default panels at 1280x720 (ui/app/panels_scene.cpp panelRect), menu bar 19 px.
const ScreenRect kScenes{0, 22, 330, 158}, kSimulation{0, 180, 330, 259}, kParameters{0, 439, 330, 281};
const ScreenRect kPlots{820, 22, 460, 698};

void checkRect(const ScreenRect& r, float x, float y, float w, float h) {
  CHECK(r.x == doctest::Approx(x));
  CHECK(r.y == doctest::Approx(y));
  CHECK(r.w == doctest::Approx(w));
  CHECK(r.h == doctest::Approx(h));
}

}  // namespace

TEST_CASE("ViewLayout: default layout leaves the middle between the columns, below the menu bar") {
  const ScreenRect r = freeViewRect(1280, 720, 19, {kScenes, kSimulation, kParameters, kPlots});
  checkRect(r, 330, 19, 490, 701);
  CHECK(r.contains(575, 360));
  CHECK_FALSE(r.contains(329, 360));  // over the left column
  CHECK_FALSE(r.contains(820, 360));  // over the plots
  CHECK_FALSE(r.contains(575, 10));   // menu bar
}

TEST_CASE("ViewLayout: closed panels give their side back") {
  // Plots closed: the view reaches the right edge.
  checkRect(freeViewRect(1280, 720, 19, {kScenes, kSimulation, kParameters}), 330, 19, 950, 701);
  // Left column closed (any one of its panels keeps it).
  checkRect(freeViewRect(1280, 720, 19, {kPlots}), 0, 19, 820, 701);
  checkRect(freeViewRect(1280, 720, 19, {kParameters, kPlots}), 330, 19, 490, 701);
  // Everything hidden (Tab): the whole window.
  checkRect(freeViewRect(1280, 720, 0, {}), 0, 0, 1280, 720);
}

TEST_CASE("ViewLayout: a panel moved away from the edges floats over the view") {
  const ScreenRect floating{400, 200, 300, 200};
  checkRect(freeViewRect(1280, 720, 19, {kScenes, kPlots, floating}), 330, 19, 490, 701);
  // Moved within the tolerance of the edge (12 px) it still docks; a wider left panel wins.
  const ScreenRect wideLeft{8, 300, 400, 200};
  checkRect(freeViewRect(1280, 720, 19, {kScenes, wideLeft, kPlots}), 408, 19, 412, 701);
  // Dragged partly off-screen to the right: still docked right, the visible part is taken.
  const ScreenRect offRight{1000, 22, 460, 400};
  checkRect(freeViewRect(1280, 720, 19, {kScenes, offRight}), 330, 19, 670, 701);
}

TEST_CASE("ViewLayout: a panel along the bottom between the columns lifts the view") {
  const ScreenRect spook{330, 460, 490, 260};
  checkRect(freeViewRect(1280, 720, 19, {kScenes, kPlots, spook}), 330, 19, 490, 441);
  // Too narrow (less than half the free width) or not touching the bottom: it floats.
  const ScreenRect small{330, 460, 200, 260}, raised{330, 300, 490, 260};
  checkRect(freeViewRect(1280, 720, 19, {kScenes, kPlots, small}), 330, 19, 490, 701);
  checkRect(freeViewRect(1280, 720, 19, {kScenes, kPlots, raised}), 330, 19, 490, 701);
  // A full-width bar at the bottom (touches both side edges) lifts the bottom too.
  const ScreenRect bar{0, 620, 1280, 100};
  checkRect(freeViewRect(1280, 720, 19, {bar}), 0, 19, 1280, 601);
}

TEST_CASE("ViewLayout: too little left, empty or bad input never gives a negative or empty view") {
  // 600 px window: the columns overlap, so the view is the whole window.
  const ScreenRect left{0, 22, 330, 400}, right{600 - 300, 22, 300, 400};
  checkRect(freeViewRect(600, 400, 19, {left, right}), 0, 0, 600, 400);
  // 150 px left between the columns (< 160): whole window too.
  checkRect(freeViewRect(800, 600, 19, {{0, 22, 330, 300}, {480, 22, 320, 300}}), 0, 0, 800, 600);
  // A bottom panel that leaves under 120 px of height: whole window.
  checkRect(freeViewRect(1280, 720, 19, {{0, 100, 1280, 620}}), 0, 0, 1280, 720);
  // Menu bar taller than the window; minimized (0x0) and non-finite displays.
  checkRect(freeViewRect(1280, 100, 200, {}), 0, 0, 1280, 100);
  checkRect(freeViewRect(0, 0, 19, {kScenes}), 0, 0, 0, 0);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  checkRect(freeViewRect(nan, 720, 19, {}), 0, 0, 0, 720);
  // Panels with NaN or zero sizes are ignored.
  checkRect(freeViewRect(1280, 720, nan, {{nan, 0, 100, 100}, {0, 0, 0, 700}, {0, 0, inf, 50}}), 0, 0, 1280, 720);
}

TEST_CASE("ViewLayout: framebuffer pixels for HiDPI, rounded outward and clamped") {
  const ScreenRect r{330, 19, 490, 701};
  PixelRect p = toFramebufferPixels(r, 1.0f, 1.0f, 1280, 720);
  CHECK(p.x == 330);
  CHECK(p.y == 19);
  CHECK(p.width == 490);
  CHECK(p.height == 701);
  p = toFramebufferPixels(r, 2.0f, 2.0f, 2560, 1440);
  CHECK(p.x == 660);
  CHECK(p.y == 38);
  CHECK(p.width == 980);
  CHECK(p.height == 1402);
  // 1.5x: 330.5 x 1.5 = 495.75 -> 495 (floor), right edge 820.25 x 1.5 = 1230.375 -> 1231 (ceil).
  p = toFramebufferPixels({330.5f, 19, 489.75f, 701}, 1.5f, 1.5f, 1920, 1080);
  CHECK(p.x == 495);
  CHECK(p.width == 1231 - 495);
  CHECK(p.y == 28);
  CHECK(p.height == 1080 - 28);  // 720 x 1.5 = 1080: clamped to the framebuffer
  // Outside the framebuffer or bad scale: the whole framebuffer.
  p = toFramebufferPixels({2000, 0, 100, 100}, 1.0f, 1.0f, 1280, 720);
  CHECK(p.x == 0);
  CHECK(p.width == 1280);
  CHECK(p.height == 720);
  p = toFramebufferPixels(r, 0.0f, 1.0f, 1280, 720);
  CHECK(p.width == 1280);
  p = toFramebufferPixels({0, 0, 1e30f, 1e30f}, 2.0f, 2.0f, 800, 600);
  CHECK(p.width == 800);
  CHECK(p.height == 600);
}
