// tests/test_planar_obstacles.cpp — the planar obstacle geometry (engine/models/planar_obstacles): separating-
// axis separation and penetration against closed forms, and the swept contact along an SE(2) segment (time
// of touch to round-off, no tunnelling through thin walls, turning into a box, leaving an initial overlap).
#include <doctest/doctest.h>

#include <cmath>

#include "engine/models/planar_obstacles.h"
#include "engine/sim/errors.h"

using namespace varsim;

TEST_CASE("SeparationMatchesClosedForms") {
  const Footprint unit{-0.5, 0.5, -0.5, 0.5};
  const PlanarBox box{2.0, 0.0, 0.0, 0.5, 0.5};
  CHECK(separation(unit, {0.0, 0.5, 0.0}, box) == doctest::Approx(0.5).epsilon(1e-15));   // gap 0.5
  CHECK(separation(unit, {0.0, 1.2, 0.0}, box) == doctest::Approx(-0.2).epsilon(1e-15));  // overlap 0.2
  CHECK(separation(unit, {0.0, 1.0, 0.0}, box) == 0.0);                                   // touching
  // A box turned 45 deg: its corner sits at 1/sqrt(2) from its centre; the footprint's face at x = 1.
  const PlanarBox diamond{0.0, 0.0, 0.7853981633974483, 0.5, 0.5};
  CHECK(separation({1.0, 2.0, -0.5, 0.5}, {}, diamond) == doctest::Approx(1.0 - std::sqrt(0.5)).epsilon(1e-14));
  // The footprint turned by 1 rad: its corner reaches x = (cos 1 + sin 1)/2 towards the box face at x = 2.5.
  CHECK(separation(unit, {1.0, 0.0, 0.0}, {3.0, 0.0, 0.0, 0.5, 0.5}) ==
        doctest::Approx(2.5 - 0.5 * (std::cos(1.0) + std::sin(1.0))).epsilon(1e-14));
  int which = -2;
  CHECK(clearance(unit, {}, {}, &which) == INFINITY);
  CHECK(which == -1);
  CHECK(clearance(unit, {0.0, 0.5, 0.0}, {{5, 0, 0, 0.5, 0.5}, box}, &which) == doctest::Approx(0.5));
  CHECK(which == 1);
  CHECK_THROWS_AS(validateObstacles(unit, {{0, 0, 0, 0.0, 1.0}}, "test"), BadInput);
  CHECK_THROWS_AS(validateObstacles({1, 0, 0, 1}, {}, "test"), BadInput);
}

TEST_CASE("SweepFindsTheTouchWithoutTunnelling") {
  const Footprint f{-0.5, 0.5, -0.25, 0.25};
  const std::vector<PlanarBox> wall = {{2.0, 0.0, 0.0, 0.1, 3.0}};
  // Straight at 3 m per step: the front face x = 0.5 + 3 lambda meets the wall face x = 1.9 at lambda = 1.4/3.
  SweptContact c = sweep(f, {}, {0.0, 3.0, 0.0}, wall);
  CHECK(c.hit);
  CHECK(c.obstacle == 0);
  CHECK(c.lambda == doctest::Approx(1.4 / 3.0).epsilon(1e-14));
  const se2::Pose2 at = se2::exp(c.lambda * Vector3d(0.0, 3.0, 0.0));
  CHECK(separation(f, at, wall[0]) >= 0.0);
  CHECK(separation(f, at, wall[0]) <= 1e-14);
  // A 1 cm wall crossed in one 100 m step is still found; stopping short never leaves an overlap.
  const std::vector<PlanarBox> thin = {{20.0, 0.0, 0.0, 0.005, 3.0}};
  c = sweep(f, {}, {0.0, 100.0, 0.0}, thin);
  CHECK(c.hit);
  CHECK(c.lambda == doctest::Approx((20.0 - 0.005 - 0.5) / 100.0).epsilon(1e-13));
  // Clear path: no hit, lambda = 1.
  c = sweep(f, {}, {0.0, 1.0, 0.0}, wall);
  CHECK_FALSE(c.hit);
  CHECK(c.lambda == 1.0);
  // Turning in place: the corner (0.5, 0.25), at 0.559 m from the origin, swings into a post at (0, 0.5).
  const std::vector<PlanarBox> post = {{0.0, 0.5, 0.0, 0.1, 0.1}};
  c = sweep(f, {}, {1.5, 0.0, 0.0}, post);
  CHECK(c.hit);
  CHECK(separation(f, se2::exp(c.lambda * Vector3d(1.5, 0.0, 0.0)), post[0]) >= 0.0);
  // Already overlapping (placed inside): moving out is allowed, moving deeper is not.
  const std::vector<PlanarBox> around = {{0.6, 0.0, 0.0, 0.2, 1.0}};
  CHECK_FALSE(sweep(f, {}, {0.0, -1.0, 0.0}, around).hit);
  c = sweep(f, {}, {0.0, 1.0, 0.0}, around);
  CHECK(c.hit);
  CHECK(c.lambda <= 1e-15);
}
