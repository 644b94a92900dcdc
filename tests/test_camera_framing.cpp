// Per-scene default framing (render/subject_framing.h): for every registered scene, after the camera was
// left wherever another scene put it, framing the scene's first draw list shows the whole subject:
// its projected bounding box lies inside a 1280x720-class view and spans >= 20 % of the shorter side.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "render/subject_framing.h"
#include "scenes/scene.h"

namespace {
struct PixelBox {
  float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
  bool allInside = true;
};

// The subject box's eight corners projected into a w x h view.
PixelBox projectBounds(const OrbitCamera& cam, const SubjectBounds& b, int w, int h) {
  PixelBox p;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 c((i & 1) ? b.hi.x : b.lo.x, (i & 2) ? b.hi.y : b.lo.y, (i & 4) ? b.hi.z : b.lo.z);
    glm::vec2 px;
    if (!cam.project(c, w, h, px)) p.allInside = false;
    p.x0 = std::min(p.x0, px.x), p.x1 = std::max(p.x1, px.x);
    p.y0 = std::min(p.y0, px.y), p.y1 = std::max(p.y1, px.y);
  }
  return p;
}

varsim::DrawList firstFrame(const std::string& name) {
  auto scene = varsim::SceneRegistry::create(name, varsim::SceneRegistry::defaults(name));
  varsim::DrawList list;
  scene->draw(list);
  return list;
}
}  // namespace

TEST_CASE("EveryScene_FramedAfterASwitch_SubjectInsideAndAtLeastAFifthOfTheView") {
  // The 3-D view left by the default layout at 1280x720, and a tall narrow one (panels docked beside).
  const int sizes[][2] = {{900, 640}, {480, 640}};
  const auto& scenes = varsim::SceneRegistry::all();
  REQUIRE(scenes.size() >= 10);
  for (const auto& info : scenes) {
    if (info.name.rfind("test_", 0) == 0) continue;  // test-only scenes other files register
    const varsim::DrawList list = firstFrame(info.name);
    const SubjectBounds bounds = subjectBounds(list);
    CAPTURE(info.name);
    REQUIRE(bounds.valid);
    for (const auto& size : sizes) {
      const int w = size[0], h = size[1];
      // The camera as another scene left it: the previous scene in the list, framed and then zoomed out.
      OrbitCamera cam;
      const auto& previous = scenes[(&info - scenes.data() + scenes.size() - 1) % scenes.size()];
      frameSubject(cam, firstFrame(previous.name), float(w) / float(h));
      cam.orbit(200.0f, -80.0f);
      cam.zoom(-6.0f);
      frameSubject(cam, list, float(w) / float(h));
      const PixelBox p = projectBounds(cam, bounds, w, h);
      CAPTURE(w);
      CAPTURE(p.x0);
      CAPTURE(p.x1);
      CAPTURE(p.y0);
      CAPTURE(p.y1);
      CHECK(p.allInside);
      CHECK(std::max(p.x1 - p.x0, p.y1 - p.y0) >= 0.2f * float(std::min(w, h)));
    }
  }
}

TEST_CASE("PlanarSubject_SeenFaceOn") {
  // A chain hanging in the x-z plane: framed from -y, its length spans most of the view's height.
  varsim::DrawList list;
  list.lines.push_back({{{0, 0, 0}, {1, 0, -1}, {2, 0, -2}}, {}, 2.0f, false});
  OrbitCamera cam;
  frameSubject(cam, list, 1.5f);
  CHECK(cam.yaw == doctest::Approx(-1.5707963).epsilon(1e-5));
  CHECK(cam.target.x == doctest::Approx(1.0));
  CHECK(cam.target.z == doctest::Approx(-1.0));
  const PixelBox p = projectBounds(cam, subjectBounds(list), 900, 600);
  CHECK(p.allInside);
  CHECK(p.y1 - p.y0 > 0.5f * 600.0f);
}
