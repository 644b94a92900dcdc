// Per-scene default framing (render/subject_framing.h): for every registered scene, after the camera was
// left wherever any other scene put it, framing the scene's first draw list shows the whole subject:
// its projected bounding box lies inside a 1280x720-class view and spans >= 20 % of the shorter side.
// Follow mode (render/camera.h) keeps a driven vehicle and the orbiting body inside the view.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "render/subject_framing.h"
#include "scenes/scene.h"
#include "scene_harness.h"

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

TEST_CASE("EveryScene_FramedAfterASwitchFromEveryOther_SubjectInsideAndAtLeastAFifthOfTheView") {
  // The 3-D view left by the default layout at 1280x720, and a tall narrow one (panels docked beside).
  const int sizes[][2] = {{900, 640}, {480, 640}};
  std::vector<std::string> names;
  for (const auto& info : varsim::SceneRegistry::all())
    if (info.name.rfind("test_", 0) != 0) names.push_back(info.name);  // test-only scenes other files register
  REQUIRE(names.size() >= 10);
  std::vector<varsim::DrawList> first;
  for (const std::string& name : names) first.push_back(firstFrame(name));
  for (size_t i = 0; i < names.size(); ++i) {
    const SubjectBounds bounds = subjectBounds(first[i]);
    CAPTURE(names[i]);
    REQUIRE(bounds.valid);
    for (size_t j = 0; j < names.size(); ++j) {
      if (j == i) continue;
      CAPTURE(names[j]);
      for (const auto& size : sizes) {
        const int w = size[0], h = size[1];
        // The camera as the other scene left it: framed, then orbited and zoomed out by the user.
        OrbitCamera cam;
        frameSubject(cam, first[j], float(w) / float(h));
        cam.orbit(200.0f, -80.0f);
        cam.zoom(-6.0f);
        frameSubject(cam, first[i], float(w) / float(h));
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
}

TEST_CASE("FollowMode_KeepsTheSubjectInViewOverADrive") {
  // Each scene driven for 6 s; the camera updated at 60 Hz from the draw list as the app does. The
  // vehicles follow by default; the orbit is framed whole and then switched to follow (the C key).
  struct Drive {
    const char* scene;
    std::vector<std::pair<std::string, std::string>> params;
    bool switchOn;
  };
  const Drive drives[] = {{"car", {{"world", "open"}}, false},
                          {"boat", {}, false},
                          {"sleigh", {}, false},
                          {"snakeboard", {{"world", "open"}}, false},
                          {"orbit", {}, true}};
  // Throttle and one thruster harder than the other: the vehicles speed up and turn.
  const std::map<std::string, double> held = {{"throttle", 0.8}, {"steer", 0.1}, {"thrust_left", 1.0}, {"thrust_right", 0.6}};
  const int w = 900, h = 640;
  for (const Drive& drive : drives) {
    const std::string name = drive.scene;
    CAPTURE(name);
    auto scene = varsim::test::makeScene(drive.scene, drive.params);
    varsim::InputVector in;
    for (const auto& c : scene->controls()) in.push_back(held.count(c.name) ? held.at(c.name) : c.neutral);
    varsim::DrawList list;
    scene->draw(list);
    OrbitCamera cam;
    frameSubject(cam, list, float(w) / float(h));
    if (drive.switchOn) REQUIRE(cam.setFollow(true, list.camera));
    CHECK(cam.follow);
    const glm::vec3 start = cam.target;
    const double frame = 1.0 / 60.0;
    double credit = 0.0;
    int outside = 0, checked = 0;
    for (int f = 1; f <= 360; ++f) {
      for (credit += frame; credit >= scene->dt() - 1e-12; credit -= scene->dt()) scene->step(scene->dt(), in);
      list.clear();
      scene->draw(list);
      cam.update(list.camera, float(frame));
      if (f % 15 != 0) continue;
      // The subject: the vehicle (the follow hint's neighbourhood) or the orbiting body's sphere.
      SubjectBounds b = subjectBounds(list);
      if (drive.switchOn) {
        const glm::vec3 c(list.camera.subject[0], list.camera.subject[1], list.camera.subject[2]);
        b = {c - glm::vec3(list.camera.subjectRadius), c + glm::vec3(list.camera.subjectRadius), true};
      }
      const PixelBox p = projectBounds(cam, b, w, h);
      ++checked;
      if (!p.allInside) ++outside;
      if (!p.allInside && outside == 1)
        MESSAGE(name << " f " << f << " box " << p.x0 << " " << p.x1 << " " << p.y0 << " " << p.y1 << " dist " << cam.distance
                     << " lo " << b.lo.x << "," << b.lo.y << "," << b.lo.z << " hi " << b.hi.x << "," << b.hi.y << "," << b.hi.z);
    }
    CHECK(checked == 24);
    CHECK(outside == 0);
    // The subject went somewhere: the camera's target moved with it.
    CHECK(glm::length(cam.target - start) > 1.0f);
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
