// What InstanceBuckets skips: sub-pixel rods as dots (instance_buckets.h kDotMaxPixels, pixel_cells.h), one per pixel
// of the view, the first in draw-list order, as a square ribbon (rods of a pixel or more, translucent ones and other
// shapes are never dropped); with cullOffView, parts wholly outside the view (kCullMarginPixels).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <utility>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "render/instance_buckets.h"
#include "render/pixel_cells.h"

using namespace varsim::render;

namespace {

constexpr int kW = 640, kH = 360;
constexpr float kFov = 0.785f;

// A row of n capsule rods (radius 0.15 m, 1 m long) along x, 1 m apart, as a ladder's rail.
std::vector<varsim::ShapeItem> rail(int n, float alpha = 1.0f) {
  std::vector<varsim::ShapeItem> items;
  for (int i = 0; i < n; ++i) {
    varsim::ShapeItem s;
    s.kind = varsim::ShapeKind::Capsule;
    const glm::mat4 m = glm::rotate(glm::translate(glm::mat4(1), glm::vec3(float(i), 0, 0)), 1.5707964f, glm::vec3(0, 1, 0));
    std::memcpy(s.transform.data(), glm::value_ptr(m), sizeof(float) * 16);
    s.size = {0.15f, 0.15f, 1.0f};
    s.color = {0.2f, 0.3f, 0.9f, alpha};
    items.push_back(s);
  }
  return items;
}

BucketView viewFrom(float distance, float middle, bool cull = false) {
  const glm::vec3 eye(middle, -distance, 0), target(middle, 0, 0);
  const glm::mat4 vp = glm::perspective(kFov, float(kW) / float(kH), 0.1f, 1e6f) * glm::lookAt(eye, target, glm::vec3(0, 0, 1));
  return {eye, glm::normalize(target - eye), vp, kW, kH, lodPixelsPerRadian(kH, kFov), cull};
}

varsim::ShapeItem rod(glm::vec3 centre, float length) {
  varsim::ShapeItem s = rail(1).front();
  s.transform[12] = centre.x, s.transform[13] = centre.y, s.transform[14] = centre.z;
  s.size[2] = length;
  return s;
}

}  // namespace

TEST_CASE("PixelCells: the first claim of a pixel wins; behind the eye, off the view or NaN never") {
  PixelCells cells;
  cells.reset(4, 3);
  CHECK(cells.claim({0.0f, 0.0f, 0.5f, 1.0f}));          // the middle: pixel (2, 1)
  CHECK(!cells.claim({0.1f, 0.2f, 0.3f, 1.0f}));         // the same pixel
  CHECK(cells.claim({-0.5f, 0.0f, 0.5f, 1.0f}));         // x = 1.0 px: pixel (1, 1)
  CHECK(cells.claim({-2.0f, -2.0f, 1.0f, 2.0f}));        // clip w = 2: ndc (-1, -1), pixel (0, 0)
  CHECK(!cells.claim({0.0f, 0.0f, 0.5f, -1.0f}));        // behind the eye
  CHECK(!cells.claim({1.5f, 0.0f, 0.5f, 1.0f}));         // right of the view
  CHECK(!cells.claim({0.0f, 1.0f, 0.5f, 1.0f}));         // ndc y = 1: just above the top row
  CHECK(!cells.claim({std::nanf(""), 0.0f, 0.5f, 1.0f}));
  cells.reset(4, 3);
  CHECK(cells.claim({0.0f, 0.0f, 0.5f, 1.0f}));  // forgotten by reset
  cells.reset(0, 0);
  CHECK(!cells.claim({0.0f, 0.0f, 0.5f, 1.0f}));
}

TEST_CASE("InstanceBuckets: a rail framed whole keeps one rod per pixel; up close, or translucent, every rod") {
  const int n = 3000;
  const std::vector<varsim::ShapeItem> items = rail(n);
  InstanceBuckets buckets;
  // 3 km of rail from 4 km: every rod's 0.65 m bound is 0.07 px, a dot. One kept per pixel its centre falls in.
  const BucketView far = viewFrom(4000.0f, 1500.0f);
  buckets.build(items, far, 0.35f);
  std::set<std::pair<int, int>> pixels;
  for (int i = 0; i < n; ++i) {
    const glm::vec4 c = far.viewProj * glm::vec4(float(i), 0, 0, 1);
    pixels.insert({int((0.5f + 0.5f * c.x / c.w) * kW), int((0.5f + 0.5f * c.y / c.w) * kH)});
  }
  MESSAGE("rail of " << n << " rods from 4 km: " << buckets.opaqueCount() << " drawn on " << pixels.size() << " pixels");
  CHECK(buckets.opaqueCount() == int(pixels.size()));
  CHECK(buckets.opaqueCount() + buckets.droppedDots() == n);
  CHECK(buckets.opaqueCount() < n / 5);
  REQUIRE(buckets.opaqueBuckets().size() == 1);
  CHECK(buckets.opaqueBuckets()[0].primitive == int(Primitive::Ribbon));
  const ShapeInstance first = buckets.instances().front();
  CHECK(first.halfLength == doctest::Approx(first.scale.x));  // square: as long as its least width
  CHECK(first.model[3].x == 0.0f);                          // the first rod in draw-list order kept
  const float px = first.scale.x * far.pixelsPerRadian / glm::length(glm::vec3(first.model[3]) - far.eye);
  CHECK(px == doctest::Approx(kRibbonMinPixels).epsilon(0.01));
  // The same frame again: the same instances (deterministic).
  const std::vector<ShapeInstance> before = buckets.instances();
  buckets.build(items, far, 0.35f);
  REQUIRE(buckets.instances().size() == before.size());
  CHECK(std::memcmp(buckets.instances().data(), before.data(), before.size() * sizeof(ShapeInstance)) == 0);
  // From 300 m the 0.65 m bounds are 0.94 px: no dots, every rod a ribbon of its own.
  buckets.build(rail(80), viewFrom(300.0f, 40.0f), 0.35f);
  CHECK(buckets.opaqueCount() == 80);
  CHECK(buckets.droppedDots() == 0);
  // Translucent rods (ghosts) are blended, never dropped.
  buckets.build(rail(n, 0.5f), far, 0.35f);
  CHECK(buckets.droppedDots() == 0);
  CHECK(buckets.instances().size() == size_t(n));
}

TEST_CASE("InstanceBuckets: with cullOffView, parts wholly outside the view are skipped, any part reaching in is kept") {
  // From 30 m the 640 x 360 view spans x = -22.1 … 22.1 m at y = 0 (half-angle atan(0.736)).
  const BucketView view = viewFrom(30.0f, 0.0f, true);
  std::vector<varsim::ShapeItem> items{rod({25.0f, 0, 0}, 10.0f),    // 20 … 30 m: reaches in
                                       rod({40.0f, 0, 0}, 10.0f),    // 35 … 45 m: outside
                                       rod({0, -60.0f, 0}, 10.0f),   // behind the eye
                                       rod({0, 0, 14.0f}, 1.0f),     // above the top edge (12.4 m) by 1 m
                                       rod({0, 0, 0}, 1.0f)};        // the middle
  items[3].color.a = 0.5f;                                           // culled ghosts are not sorted either
  InstanceBuckets buckets;
  buckets.build(items, view, 0.35f);
  CHECK(buckets.culled() == 3);
  CHECK(buckets.opaqueCount() == 2);
  CHECK(buckets.instances().size() == 2);
  CHECK(buckets.instances()[0].model[3].x == 25.0f);  // draw-list order within the bucket
  CHECK(buckets.instances()[1].model[3].x == 0.0f);
  // Without culling (a scene with drop shadows) every part is laid out.
  buckets.build(items, viewFrom(30.0f, 0.0f, false), 0.35f);
  CHECK(buckets.culled() == 0);
  CHECK(buckets.instances().size() == 5);
  // A 3 km rail seen from 30 m: the ~45 rods in view and a few beside it are drawn, the rest culled, and the far
  // rods inside the view's cone (none here: the rail runs across it) would still be dots.
  buckets.build(rail(3000), viewFrom(30.0f, 1500.0f, true), 0.35f);
  MESSAGE("rail of 3000 rods from 30 m: " << buckets.opaqueCount() << " drawn, " << buckets.culled() << " culled");
  CHECK(buckets.opaqueCount() + buckets.culled() + buckets.droppedDots() == 3000);
  CHECK(buckets.opaqueCount() >= 44);
  CHECK(buckets.opaqueCount() <= 48);
}
