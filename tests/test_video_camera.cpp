// The camera a video starts from (ui/video/video_camera.h): for every registered scene, exactly the app's
// default view at the video's aspect (render/subject_framing.h), and each --camera key replaces only its own
// part of it. GL-free: no context, no display.
#include <doctest/doctest.h>

#include "render/subject_framing.h"
#include "scenes/scene.h"
#include "scenes/scene_file.h"
#include "ui/video/video_camera.h"

namespace {

varsim::DrawList firstList(const std::string& name) {
  const auto scene = varsim::SceneRegistry::create(name, varsim::SceneRegistry::defaults(name));
  varsim::DrawList list;
  scene->draw(list);
  return list;
}

bool same(const OrbitCamera& a, const OrbitCamera& b) {
  return a.target == b.target && a.yaw == b.yaw && a.pitch == b.pitch && a.distance == b.distance &&
         a.follow == b.follow && a.maxDistance == b.maxDistance;
}

}  // namespace

TEST_CASE("video camera: every scene starts from the app's framing of it at the video's aspect") {
  int scenes = 0;
  for (const auto& entry : varsim::SceneRegistry::all()) {
    const varsim::DrawList list = firstList(entry.name);
    for (const float aspect : {16.0f / 9.0f, 1.0f}) {
      OrbitCamera app, video;
      frameSubject(app, list, aspect);
      varsim::video::startCamera(video, list, aspect, {});
      CHECK_MESSAGE(same(app, video), entry.name);
    }
    ++scenes;
  }
  CHECK(scenes >= 15);
}

TEST_CASE("video camera: each --camera key replaces its own part of the default view only") {
  const varsim::DrawList list = firstList("ladder");
  OrbitCamera base;
  frameSubject(base, list, 16.0f / 9.0f);
  varsim::video::CameraOverride o;
  o.azimuthDeg = 90.0f;
  OrbitCamera c;
  varsim::video::startCamera(c, list, 16.0f / 9.0f, o);
  CHECK(c.yaw == doctest::Approx(3.14159265 / 2).epsilon(1e-6));
  CHECK(c.pitch == base.pitch);
  CHECK(c.distance == base.distance);
  CHECK(c.target == base.target);
  o.distance = 12.5f;
  o.elevationDeg = -30.0f;
  o.target[0] = 1.0f, o.target[1] = 2.0f, o.target[2] = -3.0f;
  o.follow = true;
  varsim::video::startCamera(c, list, 16.0f / 9.0f, o);
  CHECK(c.distance == 12.5f);
  CHECK(c.pitch == doctest::Approx(-3.14159265 / 6).epsilon(1e-6));
  CHECK(c.target == glm::vec3(1.0f, 2.0f, -3.0f));
  CHECK(c.follow);
  // The default framing of a 20-link ladder (20 m of rods) is far enough to hold it: the distance is the
  // bounding sphere's over the narrower half-field, with the margin, so larger than half its length.
  CHECK(base.distance > 10.0f);
}
