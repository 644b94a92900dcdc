// tests/test_ground_grid.cpp — the ground grid's line geometry (render/ground_grid.cpp): lines on the
// ground at multiples of their spacing, no family drawn twice, fades that vanish where cells span
// 4 px, haze matching the ground shader's formula, bounded vertex counts, and bad views refused.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "render/ground_grid.h"

using namespace varsim::render;

namespace {

bool multipleOf(float v, float spacing) {
  const float k = v / spacing;
  return std::abs(k - std::round(k)) < 1e-4f;
}

}  // namespace

TEST_CASE("family fade is 1 near the eye, 0 exactly at the family radius, and never increases outwards") {
  const float ppr = 900.0f, h = 3.0f;
  CHECK(gridFamilyFade(1.0f, ppr, h, 0.0f) == doctest::Approx(1.0));
  const float radius = gridFamilyRadius(1.0f, ppr, h, 1e6f);
  // Cells span 4 px there: spacing * ppr * h / D^2 = 4.
  CHECK(1.0f * ppr * h / (radius * radius + h * h) == doctest::Approx(4.0).epsilon(1e-5));
  CHECK(gridFamilyFade(1.0f, ppr, h, radius) == doctest::Approx(0.0).epsilon(1e-5));
  float previous = 2.0f;
  for (float r = 0.0f; r < 2.0f * radius; r += 0.25f) {
    const float fade = gridFamilyFade(1.0f, ppr, h, r);
    CHECK(fade >= 0.0f);
    CHECK(fade <= previous + 1e-7f);
    previous = fade;
  }
  // Coarser lines stay visible farther; the radius never exceeds the haze distance.
  CHECK(gridFamilyRadius(10.0f, ppr, h, 1e6f) > 3.0f * radius);
  CHECK(gridFamilyRadius(10.0f, ppr, h, 40.0f) == doctest::Approx(40.0));
}

TEST_CASE("haze and fog follow grid.vert.glsl") {
  GroundGridStyle style;
  CHECK(groundFog(100.0f, 15.0f) == doctest::Approx(0.0));
  CHECK(groundFog(100.0f, 90.0f) == doctest::Approx(1.0));
  CHECK(groundFog(100.0f, 52.5f) == doctest::Approx(0.5));
  const glm::vec3 eye(0, 0, 10);
  // Looking steeply down: the far-ground colour; at the horizon: the horizon colour.
  const glm::vec3 down = groundHaze(style, eye, {1, 0, 0});
  CHECK(down.x == doctest::Approx(style.groundFar.x));
  const glm::vec3 flat = groundHaze(style, eye, {1e6f, 0, 9.9999f});
  CHECK(flat.x == doctest::Approx(style.horizon.x).epsilon(1e-3));
}

TEST_CASE("grid lines lie on the ground at multiples of their spacing, axes once, within the haze disc") {
  GroundGridStyle style;
  GroundGridView view;
  view.eye = {3.3f, -7.1f, 4.0f};
  view.groundHeight = -0.5f;
  view.fadeEnd = 112.0f;
  view.pixelsPerRadian = 917.0f;
  std::vector<GridVertex> v;
  const int segments = appendGroundGrid(view, style, v);
  REQUIRE(segments > 50);
  CHECK(v.size() == 2 * std::size_t(segments));
  CHECK(segments < 6000);  // bounded: cost grows with what is visible, not with the disc area
  int axisX = 0, axisY = 0;
  for (std::size_t i = 0; i + 1 < v.size(); i += 2) {
    const GridVertex& a = v[i];
    const GridVertex& b = v[i + 1];
    CHECK(a.position.z == doctest::Approx(view.groundHeight));
    CHECK(b.position.z == doctest::Approx(view.groundHeight));
    // Each segment runs along x or along y, on a line x = k*s or y = k*s.
    const bool alongY = a.position.x == b.position.x, alongX = a.position.y == b.position.y;
    REQUIRE((alongX || alongY));
    const float fixed = alongY ? a.position.x : a.position.y;
    CHECK(multipleOf(fixed, style.minorSpacing));
    for (const GridVertex* p : {&a, &b}) {
      CHECK(std::hypot(p->position.x - view.eye.x, p->position.y - view.eye.y) <= view.fadeEnd + 1e-3f);
      CHECK(p->color.a >= 0.0f);
      CHECK(p->color.a <= 1.0f);
      CHECK(std::isfinite(p->color.r + p->color.g + p->color.b));
    }
    if (fixed == 0.0f) {
      // Only the axes sit on 0: opaque, red along x, green along y.
      CHECK(a.color.a == doctest::Approx(1.0));
      // Red along x, green along y, until the haze takes over far away.
      const bool clear = groundFog(view.fadeEnd, glm::length(a.position - view.eye)) < 0.5f;
      if (alongX) {
        ++axisX;
        if (clear) CHECK(a.color.r > a.color.g + 0.1f);
      } else {
        ++axisY;
        if (clear) CHECK(a.color.g > a.color.r + 0.1f);
      }
    } else if (multipleOf(fixed, style.majorSpacing)) {
      CHECK(a.color.a <= style.majorStrength + 1e-6f);
    } else {
      CHECK(a.color.a <= style.minorStrength + 1e-6f);
    }
  }
  CHECK(axisX > 0);
  CHECK(axisY > 0);
}

TEST_CASE("a view from far above keeps the vertex count bounded and drops the minor lines") {
  GroundGridStyle style;
  GroundGridView high;
  high.eye = {0, 0, 800};
  high.fadeEnd = 1800;
  high.pixelsPerRadian = 917;
  std::vector<GridVertex> v;
  const int segments = appendGroundGrid(high, style, v);
  CHECK(segments > 0);
  CHECK(segments < 10000);  // 20k GL_LINES vertices: about a millisecond on a CPU rasterizer
  for (const GridVertex& g : v)
    if (g.position.x != 0.0f && g.position.y != 0.0f) {
      // Seen from 800 m, 1 m cells span ~1 px: every remaining line is a major line or an axis.
      const float fixed = multipleOf(g.position.x, style.majorSpacing) ? g.position.x : g.position.y;
      CHECK(multipleOf(fixed, style.majorSpacing));
    }
}

TEST_CASE("bad views append nothing") {
  GroundGridStyle style;
  std::vector<GridVertex> v;
  GroundGridView view;
  view.eye.x = std::numeric_limits<float>::quiet_NaN();
  CHECK(appendGroundGrid(view, style, v) == 0);
  view = GroundGridView{};
  view.fadeEnd = 0.0f;
  CHECK(appendGroundGrid(view, style, v) == 0);
  view = GroundGridView{};
  view.pixelsPerRadian = std::numeric_limits<float>::infinity();
  CHECK(appendGroundGrid(view, style, v) == 0);
  GroundGridStyle badStyle;
  badStyle.minorSpacing = -1.0f;
  CHECK(appendGroundGrid(GroundGridView{}, badStyle, v) == 0);
  CHECK(v.empty());
}

TEST_CASE("culling to the view keeps every segment with a visible end and drops most of the disc") {
  GroundGridStyle style;
  GroundGridView view;
  view.eye = {6.0f, -5.0f, 3.5f};
  view.fadeEnd = 112.0f;
  view.pixelsPerRadian = 917.0f;
  const glm::vec3 target(0.0f, 0.0f, 0.5f);
  const glm::mat4 projection = glm::perspective(0.785f, 16.0f / 9.0f, 0.05f, 2000.0f);
  const glm::mat4 viewProj = projection * glm::lookAt(view.eye, target, glm::vec3(0, 0, 1));
  std::vector<GridVertex> all, culled;
  const int allSegments = appendGroundGrid(view, style, all);
  view.cullToView = true;
  view.viewProj = viewProj;
  const int culledSegments = appendGroundGrid(view, style, culled);
  CHECK(culledSegments < allSegments / 2);
  CHECK(culledSegments > 20);
  auto inside = [&](const glm::vec3& p) {
    const glm::vec4 c = viewProj * glm::vec4(p, 1.0f);
    return c.w > 0 && std::abs(c.x) < c.w && std::abs(c.y) < c.w && std::abs(c.z) < c.w;
  };
  auto kept = [&](const GridVertex& a, const GridVertex& b) {
    for (std::size_t j = 0; j + 1 < culled.size(); j += 2)
      if (culled[j].position == a.position && culled[j + 1].position == b.position) return true;
    return false;
  };
  int visible = 0, lost = 0;
  for (std::size_t i = 0; i + 1 < all.size(); i += 2)
    if (inside(all[i].position) || inside(all[i + 1].position)) {
      ++visible;
      lost += kept(all[i], all[i + 1]) ? 0 : 1;
    }
  CHECK(visible > 20);
  CHECK(lost == 0);
}
