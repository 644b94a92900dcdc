// The joints' compliance against the system's weight (rod_scene_params.h kComplianceWeight): a system heavier than
// 2e6 N has its joints' and pins' ε scaled by 2e6 N / W, in the stepper and in every readout of the ε/τ rule; lighter
// systems keep ε bit for bit, and overrides and other groups are never scaled.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "scenes/rods/ladder_scene.h"
#include "scenes/rods/rod_scene_params.h"

using namespace varsim;

namespace {
std::unique_ptr<LadderScene> ladder(const std::string& links, const std::string& rodMass) {
  ParamSet p = SceneRegistry::defaults("ladder");
  p.setFromString("links", links, "test");
  p.setFromString("rod_mass", rodMass, "test");
  return std::make_unique<LadderScene>(p);
}
}  // namespace

TEST_CASE("ladder compliance: below 2e6 N the joints keep epsilon exactly") {
  auto light = ladder("20", "10");  // 61 rods of 10 kg: W = 5984.1 N
  CHECK(light->weight() == doctest::Approx(61 * 10 * 9.81).epsilon(1e-12));
  for (const char* g : {"joints", "pins", "unit"}) CHECK(light->groupRelaxation(g).epsilon == 1e-10);
  const int joint = light->system().jointConstraintIndices().front();
  CHECK(light->constraintRelaxation(joint).epsilon == 1e-10);
  CHECK(light->constraintStatus(joint).relaxation.epsilon == 1e-10);  // what the stepper holds
}

TEST_CASE("ladder compliance: a heavier system's joints and pins get epsilon x 2e6 N / W") {
  auto heavy = ladder("3", "1e5");  // 10 rods of 1e5 kg: W = 9.81e6 N, the scale 0.2039
  const double W = 10 * 1e5 * 9.81, scale = kComplianceWeight / W;
  CHECK(heavy->weight() == doctest::Approx(W).epsilon(1e-12));
  CHECK(scale == doctest::Approx(0.20387359836901).epsilon(1e-12));
  for (const char* g : {"joints", "pins"}) CHECK(heavy->groupRelaxation(g).epsilon == doctest::Approx(1e-10 * scale).epsilon(1e-14));
  CHECK(heavy->groupRelaxation("unit").epsilon == 1e-10);  // no load on a length row
  CHECK(heavy->groupRelaxation("joints").tau == 2.0 / 60);  // τ is not scaled
  for (int joint : heavy->system().jointConstraintIndices()) {
    CHECK(heavy->constraintRelaxation(joint).epsilon == doctest::Approx(1e-10 * scale).epsilon(1e-14));
    CHECK(heavy->constraintStatus(joint).relaxation.epsilon == doctest::Approx(1e-10 * scale).epsilon(1e-14));
  }
  // A per-constraint override replaces both values: the user's ε is used as given.
  const int joint = heavy->system().jointConstraintIndices().back();
  heavy->setConstraintRelaxation(joint, 3e-9, 0.05);
  CHECK(heavy->constraintStatus(joint).relaxation.epsilon == 3e-9);
  // The weight follows gravity (live): at g/2 the scale doubles, without gravity nothing is scaled.
  ParamSet live = heavy->params();
  live.setFromString("gravity", "0,0,-4.905", "test");
  heavy->applyLive(live);
  CHECK(heavy->groupRelaxation("joints").epsilon == doctest::Approx(2e-10 * scale).epsilon(1e-14));
  live.setFromString("gravity", "0,0,0", "test");
  heavy->applyLive(live);
  CHECK(heavy->groupRelaxation("pins").epsilon == 1e-10);
}

TEST_CASE("ladder compliance: the heavy ladder's joints stay within 1e-3 m over 1 s") {
  // At ε = 1e-10 unscaled the same ladder opened a joint to 2.2e-3 m in this second; scaled (2.04e-11) 4.1e-4 m.
  auto heavy = ladder("3", "1e5");
  double gap = 0;
  std::vector<double> row;
  const auto columns = heavy->columns();
  const size_t maxCol = size_t(std::find(columns.begin(), columns.end(), "constraint_max") - columns.begin());
  for (int k = 0; k < 60; ++k) {
    heavy->step(1.0 / 60, {});
    heavy->diagnostics(row);
    gap = std::max(gap, row[maxCol]);
  }
  MESSAGE("heavy 3-link ladder, 1 s: max joint gap " << gap << " m");
  CHECK(gap == doctest::Approx(4.13e-4).epsilon(0.01));
}
