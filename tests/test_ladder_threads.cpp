// The rod scenes' `threads` parameter: the SPOOK solve on two threads (the block solver's two elimination lanes)
// leaves the ladder and the chain in the state of one thread, bit for bit, whether set at creation or switched
// live, and the automatic choice (threads = 0) takes two from kTwoThreadBodies on.
#include <doctest/doctest.h>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/sim/errors.h"
#include "scenes/rods/rod_scene.h"
#include "scenes/rods/rod_scene_params.h"

using namespace varsim;

namespace {
std::unique_ptr<Scene> makeRods(const std::string& name, const std::string& key, int n, const std::string& threads) {
  ParamSet p = SceneRegistry::defaults(name);
  p.setFromString(key, std::to_string(n), "test");
  p.setFromString("threads", threads, "test");
  return SceneRegistry::create(name, p);
}

// The diagnostics row without its wall-clock columns (solve_us, step_us).
std::vector<double> untimedRow(const Scene& scene) {
  std::vector<double> row, out;
  scene.diagnostics(row);
  const std::vector<std::string> columns = scene.columns();
  for (size_t c = 0; c < row.size(); ++c)
    if (columns[c] != "solve_us" && columns[c] != "step_us") out.push_back(row[c]);
  return out;
}
}  // namespace

TEST_CASE("ladder and chain scenes: two solver threads give one thread's state bit for bit") {
  for (const auto& [name, key, n] : {std::tuple<std::string, std::string, int>{"ladder", "links", 40}, {"chain", "rods", 120}}) {
    CAPTURE(name);
    auto one = makeRods(name, key, n, "1"), two = makeRods(name, key, n, "2"), live = makeRods(name, key, n, "1");
    for (int k = 0; k < 90; ++k) {  // 1.5 s: the free end is falling fast, SPOOK re-linearises
      if (k == 30) {  // switched live mid-run, as from the panel
        ParamSet p = live->params();
        p.setFromString("threads", "2", "test");
        live->applyLive(p);
      }
      one->step(one->dt(), {});
      two->step(two->dt(), {});
      live->step(live->dt(), {});
    }
    CHECK(one->time() == doctest::Approx(1.5));
    CHECK(one->saveState() == two->saveState());
    CHECK(one->saveState() == live->saveState());
    CHECK(untimedRow(*one) == untimedRow(*two));
    CHECK(dynamic_cast<const RodScene&>(*one).lastSolves() >= 1);
  }
}

TEST_CASE("rod scenes: automatic solver threads, two from kTwoThreadBodies bodies on") {
  CHECK(SceneRegistry::defaults("ladder").integer("threads") == 0);
  CHECK(SceneRegistry::defaults("chain").integer("threads") == 0);
  CHECK(solverThreads(0, size_t(kTwoThreadBodies) - 1) == 1);
  CHECK(solverThreads(0, size_t(kTwoThreadBodies)) == 2);
  CHECK(solverThreads(1, 1000000) == 1);
  CHECK(solverThreads(2, 5) == 2);
  ParamSet p = SceneRegistry::defaults("ladder");
  CHECK_THROWS_AS(p.setFromString("threads", "3", "test"), BadInput);
}
