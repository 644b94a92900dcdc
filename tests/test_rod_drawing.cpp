// Drawing of rod scenes (issue 16 item 4): every rod's capsule frame is a rotation whose z axis is
// the rod's direction, placed at the rod's centre, with the drawn length |u| l, in both rod models;
// the draw list keeps its storage when cleared and refilled.
#include <doctest/doctest.h>

#include <Eigen/Core>
#include <Eigen/LU>
#include <cmath>

#include "scenes/rods/ladder_scene.h"

using namespace varsim;

TEST_CASE("RodDrawing: capsule frames are rotations along u at the rod centres") {
  for (const char* model : {"director", "rigid"}) {
    CAPTURE(model);
    ParamSet p = SceneRegistry::defaults("ladder");
    p.setFromString("links", "6", "test");
    p.setFromString("rod_model", model, "test");
    auto scene = SceneRegistry::create("ladder", p);
    for (int k = 0; k < 90; ++k) scene->step(1.0 / 60, {});  // rods turned every way by the fall
    auto& rods = static_cast<RodScene&>(*scene);
    DrawList dl;
    rods.draw(dl);
    const auto& bodies = rods.system().bodies();
    size_t shape = 0, checked = 0;
    for (size_t b = 0; b < bodies.size(); ++b, ++shape) {
      REQUIRE(shape < dl.shapes.size());
      const ShapeItem& s = dl.shapes[shape];
      if (!bodies[b].isRod) continue;
      REQUIRE(s.kind == ShapeKind::Capsule);
      Eigen::Matrix4d T;
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) T(r, c) = s.transform[size_t(4 * c + r)];
      const Eigen::Matrix3d R = T.topLeftCorner<3, 3>();
      CHECK((R.transpose() * R - Eigen::Matrix3d::Identity()).norm() < 1e-6);
      CHECK(R.determinant() == doctest::Approx(1.0).epsilon(1e-6));
      const Eigen::Vector3d u = rods.system().direction(int(b), rods.state().q);
      CHECK((R.col(2) - u.normalized()).norm() < 1e-6);
      CHECK((T.topRightCorner<3, 1>() - rods.state().q.segment<3>(bodies[b].offset)).norm() < 1e-4);
      CHECK(s.size[2] == doctest::Approx(bodies[b].length * u.norm()).epsilon(1e-6));
      ++checked;
    }
    CHECK(checked == 3 * 6 + 1);
    const size_t capacity = dl.shapes.capacity();
    dl.clear();
    CHECK(dl.shapes.empty());
    CHECK(dl.hud.empty());
    CHECK(dl.shapes.capacity() == capacity);  // refilled every frame without reallocating
    rods.draw(dl);
    CHECK(dl.shapes.capacity() == capacity);
  }
}
