// The app driver's history ring (ui/core/history_ring.h through SimDriver): stepping back and resuming
// continues bit for bit, the ring keeps its newest entries within its byte budget, a full ring re-uses
// its oldest entry's buffer for the next state, entries share one settings snapshot per edit, and entries
// between checkpoints (large states) come back bit for bit, also after a failed step.
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

// Large states (setHistoryCheckpoints; here every state, to test it on a small scene): a checkpoint every 4 steps and
// at each edit, the entries between rebuilt by stepping again with their inputs, to the same bits.
TEST_CASE("AppHistoryCheckpoints: entries between checkpoints hold their inputs and come back bit for bit") {
  SimDriver d;
  d.setHistoryCheckpoints(0, 4);
  d.load("test_double_pendulum", SceneRegistry::defaults("test_double_pendulum"));
  d.startReplay(randomTrack(7, 400));
  std::vector<std::vector<uint64_t>> saved{bits(d.scene().saveState())};  // saved[k]: after step k
  d.afterStep = [&](long, const Scene& s) { saved.push_back(bits(s.saveState())); };
  for (int i = 0; i < 200; ++i) {
    if (i == 101) d.setParam("damping", ParamValue{{0.4}, {}});  // an edit: the next entry is a checkpoint
    REQUIRE(d.stepOnce());
  }
  d.afterStep = nullptr;
  const HistoryRing& h = d.history();
  REQUIRE(h.size() == 201);
  size_t checkpoints = 0;
  for (size_t i = 0; i < h.size(); ++i) {
    checkpoints += h.at(i).checkpoint;
    CHECK(h.at(i).checkpoint == (i < 102 ? i % 4 == 0 : (i - 102) % 4 == 0));
    CHECK(h.at(i).state.empty() != h.at(i).checkpoint);
  }
  CHECK(checkpoints == 51);
  for (size_t i = h.size(); i-- > 0;) {  // backwards across the edit, as the slider does
    d.scrubTo(i);
    CHECK(d.step() == long(i));
    CHECK(bits(d.scene().saveState()) == saved[i]);
    CHECK(d.scene().params().real("damping") == (i >= 102 ? 0.4 : 0.0));
  }
  d.scrubTo(151);  // not a checkpoint; resuming from it continues exactly
  REQUIRE_FALSE(h.at(151).checkpoint);
  while (d.step() < 200) REQUIRE(d.stepOnce());
  CHECK(bits(d.scene().saveState()) == saved[200]);
  CHECK(h.size() == 201);
}

TEST_CASE("AppHistoryCheckpoints: a failed step after an edit restores the state before it, the edit kept") {
  ParamSet p = SceneRegistry::defaults("test_double_pendulum");
  p.setReal("blowup_time", 0.5);  // 60 steps of 1/120 s succeed, the 61st throws
  SimDriver plain, thinned;
  thinned.setHistoryCheckpoints(0, 7);  // checkpoints at steps 0, 7, ..., 56, 63
  for (SimDriver* d : {&plain, &thinned}) {
    d->load("test_double_pendulum", p);
    d->startReplay(randomTrack(3, 100));
    for (int i = 0; i < 59; ++i) REQUIRE(d->stepOnce());
  }
  const auto at59 = bits(plain.scene().saveState());
  for (SimDriver* d : {&plain, &thinned}) {
    REQUIRE(d->stepOnce());  // step 60
    d->setParam("damping", ParamValue{{0.7}, {}});
    CHECK_FALSE(d->stepOnce());  // step 61 throws
    CHECK(d->diverged());
    CHECK(d->step() == 60);
    CHECK(d->scene().params().real("damping") == 0.7);
  }
  CHECK(bits(thinned.scene().saveState()) == bits(plain.scene().saveState()));
  CHECK(bits(thinned.scene().saveState()) != at59);
  CHECK(plain.history().newest().checkpoint);
  CHECK_FALSE(thinned.history().newest().checkpoint);  // step 60 was rebuilt from step 56's checkpoint
}

TEST_CASE("AppHistoryCheckpoints: a full ring drops its oldest checkpoint with the entries it rebuilds") {
  SimDriver d(20);
  d.setHistoryCheckpoints(0, 4);
  d.load("test_double_pendulum", SceneRegistry::defaults("test_double_pendulum"));
  d.startReplay(randomTrack(5, 200));
  std::vector<std::vector<uint64_t>> saved{bits(d.scene().saveState())};
  d.afterStep = [&](long, const Scene& s) { saved.push_back(bits(s.saveState())); };
  for (int i = 0; i < 100; ++i) {
    REQUIRE(d.stepOnce());
    CHECK(d.history().at(0).checkpoint);
    CHECK(d.history().size() <= 20);
    CHECK(d.history().size() >= (i < 19 ? size_t(i + 2) : 17));
  }
  d.afterStep = nullptr;
  CHECK(d.history().newest().step == 100);
  for (size_t i = d.history().size(); i-- > 0;) {
    d.scrubTo(i);
    CHECK(bits(d.scene().saveState()) == saved[size_t(d.step())]);
  }
}

TEST_CASE("AppHistoryCheckpoints: the ladder (SPOOK rods with ghosts) rebuilt between checkpoints, bit for bit") {
  ParamSet p = SceneRegistry::defaults("ladder");
  p.setReal("links", 30);
  p.setFromString("ghosts", "true", "test");
  SimDriver d(20);
  d.setHistoryCheckpoints(0, 4);
  d.load("ladder", p);
  std::vector<std::vector<uint64_t>> saved{bits(d.scene().saveState())};
  d.afterStep = [&](long, const Scene& s) { saved.push_back(bits(s.saveState())); };
  for (int i = 0; i < 40; ++i) REQUIRE(d.stepOnce());
  d.afterStep = nullptr;
  for (size_t i = d.history().size(); i-- > 0;) {
    d.scrubTo(i);
    CHECK(bits(d.scene().saveState()) == saved[size_t(d.step())]);
  }
}
