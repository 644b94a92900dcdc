// The app driver's history ring (ui/core/history_ring.h through SimDriver): stepping back and resuming
// continues bit for bit, the ring keeps its newest entries within its byte budget, a full ring re-uses
// its oldest entry's buffer for the next state, and entries share one settings snapshot per edit.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "tests/double_pendulum_scene.h"
#include "tests/driver_states.h"
#include "ui/core/history_ring.h"
#include "ui/core/sim_driver.h"

using namespace varsim;

TEST_CASE("AppHistoryResume: stepping back and resuming continues exactly as before") {
  SimDriver d;
  d.load("test_double_pendulum", SceneRegistry::defaults("test_double_pendulum"));
  d.startReplay(randomTrack(13, 600));
  for (int i = 0; i < 400; ++i) REQUIRE(d.stepOnce());
  const auto at400 = bits(d.scene().saveState());
  const auto plotsAt400 = d.plotData().size();
  for (int i = 0; i < 150; ++i) REQUIRE(d.stepBack());
  CHECK(d.step() == 250);
  CHECK(d.paused());
  CHECK_FALSE(d.atPresent());
  d.scrubTo(d.historyCursor() - 50);  // the slider: further back
  CHECK(d.step() == 200);
  for (int i = 0; i < 200; ++i) REQUIRE(d.stepOnce());
  CHECK(d.step() == 400);
  CHECK(bits(d.scene().saveState()) == at400);
  CHECK(d.plotData().size() == plotsAt400);  // the rewritten future replaced the old one
  CHECK(d.history().size() == 401);
  // Running through frames while paused does nothing; reset restores the initial state exactly.
  CHECK(d.frame(1.0) == 0);
  const auto initial = bits(d.history().at(0).state);
  d.reset();
  CHECK(d.step() == 0);
  CHECK(bits(d.scene().saveState()) == initial);
}

TEST_CASE("AppHistoryCapacity: the ring keeps the newest 2000 states") {
  SimDriver d;
  d.load("test_double_pendulum", SceneRegistry::defaults("test_double_pendulum"));
  for (int i = 0; i < 2100; ++i) d.stepOnce();
  CHECK(d.history().size() == 2000);
  CHECK(d.history().at(0).step == 101);
  CHECK(d.history().newest().step == 2100);
  int back = 0;
  while (d.stepBack()) ++back;
  CHECK(back == 1999);
  CHECK(d.step() == 101);
}

TEST_CASE("AppHistoryRecycle: a full ring re-uses its oldest entry's buffer; every entry holds the state's exact bits and size") {
  HistoryRing ring(3);
  CHECK(ring.recycleOldest(4).empty());  // not full: nothing to recycle
  for (int k = 0; k < 3; ++k) ring.push(k, 0.1 * k, std::vector<double>(4, double(k)));
  const double* oldest = ring.at(0).state.data();
  std::vector<double> buffer = ring.recycleOldest(4);
  CHECK(buffer.empty());
  CHECK(buffer.capacity() >= 4);
  CHECK(buffer.data() == oldest);  // the same heap, no allocation
  CHECK(ring.size() == 2);
  CHECK(ring.at(0).step == 1);

  ParamSet p = SceneRegistry::defaults("ladder");
  p.setReal("links", 30);
  p.setFromString("ghosts", "true", "test");
  SimDriver d(20);  // a 20-entry ring: full after 19 steps
  d.load("ladder", p);
  std::vector<std::vector<uint64_t>> saved;
  d.afterStep = [&](long, const Scene& s) { saved.push_back(bits(s.saveState())); };
  long recycled = 0;
  for (int i = 0; i < 60; ++i) {
    const double* oldest = d.history().at(0).state.data();
    const bool full = d.history().size() == 20;
    REQUIRE(d.stepOnce());
    recycled += full && d.history().newest().state.data() == oldest;  // the step's state went into the dropped buffer
  }
  CHECK(recycled == 60 - 19);
  d.afterStep = nullptr;
  const HistoryRing& h = d.history();
  REQUIRE(h.size() == 20);
  for (size_t i = 0; i < h.size(); ++i) {
    CHECK(bits(h.at(i).state) == saved[size_t(h.at(i).step) - 1]);
    CHECK(h.at(i).state.capacity() == h.at(i).state.size());  // reserved exactly: the byte budget counts what is held
  }
  std::vector<double> junk(7, std::nan(""));  // saveStateInto replaces whatever the buffer held
  d.scene().saveStateInto(junk);
  CHECK(bits(junk) == bits(d.scene().saveState()));
}

TEST_CASE("AppHistorySettings: entries share one settings snapshot per edit (memory of a big ladder)") {
  ParamSet p = SceneRegistry::defaults("ladder");
  p.setReal("links", 200);
  SimDriver d;
  d.load("ladder", p);
  for (int i = 0; i < 300; ++i) {
    if (i == 100) d.setParam("epsilon", ParamValue{{1e-6}, {}});
    if (i == 200) d.applyEdit("relax.7", "1e-05,0.05");
    REQUIRE(d.stepOnce());
  }
  const HistoryRing& h = d.history();
  CHECK(h.size() == 301);
  CHECK(h.distinctSettings() == 3);
  MESSAGE("ladder N=200, 301 entries: states " << h.stateBytes() / 1024 << " KiB, settings " << h.settingsBytes() / 1024
                                               << " KiB in " << h.distinctSettings() << " snapshots");
  CHECK(h.settingsBytes() * 100 < h.stateBytes());
  // Worst case, a slider dragged while running: one snapshot per step, still small beside the states.
  d.reset();
  for (int i = 0; i < 300; ++i) {
    d.setParam("epsilon", ParamValue{{1e-8 * (1 + i % 7)}, {}});
    REQUIRE_MESSAGE(d.stepOnce(), d.divergedMessage());
  }
  MESSAGE("edit every step, " << h.size() << " entries: states " << h.stateBytes() / 1024 << " KiB, settings "
                              << h.settingsBytes() / 1024 << " KiB in " << h.distinctSettings() << " snapshots");
  CHECK(h.settingsBytes() * 10 < h.stateBytes());
}
