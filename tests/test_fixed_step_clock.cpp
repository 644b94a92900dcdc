// Fixed-step clock: the number of steps depends only on accumulated wall time, never on how it was
// split into frames (so frame rate cannot change the trajectory), and a backlog is bounded.
#include <doctest/doctest.h>

#include <initializer_list>

#include "engine/sim/fixed_step_clock.h"

using namespace varsim;

TEST_CASE("clock: same total wall time gives the same step count at any frame rate") {
  const double h = 1.0 / 60;
  for (double fps : {30.0, 60.0, 144.0, 17.0}) {
    FixedStepClock c;
    long steps = 0;
    const int frames = int(10.0 * fps);
    for (int i = 0; i < frames; ++i) steps += c.advance(1.0 / fps, h);
    CHECK(steps >= 599);
    CHECK(steps <= 600);
    CHECK(c.missedTicks() == 0);
  }
}

TEST_CASE("clock: speed scales simulated time; bad wall times are ignored") {
  FixedStepClock c;
  c.speed = 0.5;
  long steps = 0;
  for (int i = 0; i < 600; ++i) steps += c.advance(1.0 / 60, 1.0 / 60);
  CHECK(steps >= 299);
  CHECK(steps <= 300);
  CHECK(c.advance(-1.0, 0.01) == 0);
  CHECK(c.advance(0.1, 0.0) == 0);
}

TEST_CASE("clock: a huge frame is capped and reported as missed ticks") {
  FixedStepClock c;
  c.maxStepsPerFrame = 10;
  CHECK(c.advance(1.0, 0.01) == 10);
  CHECK(c.missedTicks() == 90);
}
