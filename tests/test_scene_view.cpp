// What every scene puts on screen by default: a HUD of at most four short lines (the app adds its
// own line above them; details live in the panels), and for the rod scenes a face-on camera that
// frames the whole swing in the default layout's 3-D view with rods wide enough to see.
#include <doctest/doctest.h>

#include <cmath>

#include "render/camera.h"
#include "scene_harness.h"

using namespace varsim;
using varsim::test::makeScene;

namespace {

// The default 1280x720 layout's view above the SPOOK tuning panel (ui/core/view_layout.h).
constexpr int kViewW = 490, kViewH = 441;
constexpr size_t kMaxHudLines = 4;
constexpr size_t kMaxHudChars = 66;  // ~460 px in the 13 px font: fits the default view's width

DrawList drawAfterSteps(Scene& scene, int steps) {
  InputVector neutral;
  for (const auto& c : scene.controls()) neutral.push_back(c.neutral);
  for (int k = 0; k < steps; ++k) scene.step(scene.dt(), neutral);
  DrawList dl;
  scene.draw(dl);
  return dl;
}

void checkHud(const DrawList& dl, const std::string& what) {
  INFO(what);
  CHECK(!dl.hud.empty());
  CHECK(dl.hud.size() <= kMaxHudLines);
  for (const auto& line : dl.hud) {
    INFO(line);
    CHECK(line.size() <= kMaxHudChars);
  }
}

// Pixel position of a world point in the default view, after the camera adopted the scene's hint.
bool projectDefault(const DrawList& dl, const Vec3f& p, glm::vec2& px) {
  OrbitCamera cam;
  cam.update(dl.camera, 1.0f / 60);
  return cam.project({p[0], p[1], p[2]}, kViewW, kViewH, px);
}

}  // namespace

TEST_CASE("SceneHud: every scene shows at most four short lines") {
  for (const auto& info : SceneRegistry::all()) {
    if (info.name.rfind("test_", 0) == 0) continue;  // test-only scenes other files of this executable register
    auto scene = makeScene(info.name);
    checkHud(drawAfterSteps(*scene, 30), info.name);
  }
}

TEST_CASE("SceneHud: rod scenes with ghosts and an unstable setting stay within four lines") {
  for (const char* name : {"ladder", "chain", "sleigh"}) {
    auto scene = makeScene(name, {{"ghosts", "true"}});
    ParamSet live = scene->params();
    live.setFromString("tau", "0", "test");
    scene->applyLive(live);  // the ladder and chain refuse a start below tau = 0.1 dt: reached live here
    const DrawList dl = drawAfterSteps(*scene, 20);
    checkHud(dl, name);
    bool ghosts = false, warning = false;
    for (const auto& line : dl.hud) {
      ghosts = ghosts || line.rfind("ghosts: ", 0) == 0;
      warning = warning || line.rfind("WARNING: ", 0) == 0;
    }
    CHECK(ghosts);
    CHECK(warning);
  }
}

TEST_CASE("SceneView: the ladder is seen face-on and its whole swing fits the default view") {
  auto ladder = makeScene("ladder");  // 20 links of 1 m, hanging from the corner at the origin
  const DrawList dl = drawAfterSteps(*ladder, 0);
  REQUIRE(dl.camera.setsAngles);
  CHECK(dl.camera.yaw == doctest::Approx(-1.5707963));
  CHECK(dl.camera.pitch == doctest::Approx(0.12));
  const float R = float(std::hypot(20.0, 1.0));
  CHECK(dl.camera.distance == doctest::Approx(1.05 * R / (std::tan(0.3927) * 1.1)).epsilon(1e-4));
  CHECK(dl.camera.distance == doctest::Approx(46.15).epsilon(1e-3));
  // The swing's extremes (pin, horizontal either side, straight down) land inside the view.
  for (const Vec3f& p : {Vec3f{0, 0, 0}, Vec3f{R, 0, 0}, Vec3f{-R, 0, 0}, Vec3f{0, 0, -R}, Vec3f{20, 0, -1}}) {
    glm::vec2 px;
    CHECK(projectDefault(dl, p, px));
    CHECK(px.x >= 0.0f);
    CHECK(px.x <= float(kViewW));
    CHECK(px.y >= 0.0f);
    CHECK(px.y <= float(kViewH));
  }
  // Left to right: -R, pin, +R (face-on with +x to the right).
  glm::vec2 left, pin, right;
  projectDefault(dl, {-R, 0, 0}, left);
  projectDefault(dl, {0, 0, 0}, pin);
  projectDefault(dl, {R, 0, 0}, right);
  CHECK(left.x < pin.x);
  CHECK(pin.x < right.x);
  CHECK(std::abs(pin.x - 0.5f * kViewW) < 1.0f);
  // The ladder's 1 m rails are apart on screen (> 8 px) and each rod at least 1.2 px in radius.
  glm::vec2 top, bottom;
  projectDefault(dl, {10, 0, 0}, top);
  projectDefault(dl, {10, 0, -1}, bottom);
  CHECK(bottom.y - top.y > 8.0f);
  const float metresPerPixel = 2.0f * dl.camera.distance * std::tan(0.3927f) / float(kViewH);
  for (const auto& s : dl.shapes) {
    if (s.kind != ShapeKind::Capsule) continue;
    CHECK(s.size[0] / metresPerPixel >= 1.2f);
    CHECK(s.size[0] <= 0.15f + 1e-6f);  // never thicker than 0.15 of a rod: the rails stay apart
  }
}

TEST_CASE("SceneView: the chain is seen face-on to its tilted swing plane") {
  auto chain = makeScene("chain", {{"tilt", "0.3"}});  // 20 rods of 0.25 m
  const DrawList dl = drawAfterSteps(*chain, 0);
  REQUIRE(dl.camera.setsAngles);
  OrbitCamera cam;
  cam.update(dl.camera, 1.0f / 60);
  // The start direction (cos 0.3, sin 0.3, 0) lies across the view: perpendicular to the line of sight.
  const glm::vec3 along(std::cos(0.3f), std::sin(0.3f), 0.0f);
  CHECK(std::abs(glm::dot(cam.forward(), along)) < 1e-5f);
  glm::vec2 tip, pin;
  CHECK(projectDefault(dl, {5 * along.x, 5 * along.y, 0}, tip));
  CHECK(projectDefault(dl, {-5 * along.x, -5 * along.y, 0}, pin));
  CHECK(tip.x > pin.x);
  CHECK(tip.x - pin.x > 0.8f * kViewW);  // a full swing spans most of the view's width
  CHECK(projectDefault(dl, {0, 0, -5}, tip));
  const float metresPerPixel = 2.0f * dl.camera.distance * std::tan(0.3927f) / float(kViewH);
  for (const auto& s : dl.shapes)
    if (s.kind == ShapeKind::Capsule) CHECK(s.size[0] / metresPerPixel >= 1.2f);
}
