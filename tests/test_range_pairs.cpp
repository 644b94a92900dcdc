// tests/test_range_pairs.cpp — pairs of accepted range ends (issue 36): every scene, pairs of numeric keys set
// together to their range ends or an interior point, run in-process through RunSession (the loop `varsim run`
// uses) for a short time. Each start is refused up front (BadInput, exit 2) or runs without a divergence (exit 3)
// and without an energy flag. Cases are sampled deterministically (a hash of scene, keys and values) so the
// Release run stays short; the full sweep through the binary is scripts/range_pairs_sweep.py.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "engine/sim/errors.h"
#include "scenes/run_cost.h"
#include "scenes/run_session.h"
#include "scenes/scene.h"

using namespace varsim;

namespace {

struct KeyValues {
  std::string key;
  std::vector<ParamValue> values;  // low end, high end, an interior point
  std::vector<std::string> names;
};

// The accepted ends of a numeric key (an exclusive lower bound 0 is taken as 1e-308, as a user typing the smallest
// positive number would) and the geometric (positive range) or arithmetic midpoint.
std::vector<KeyValues> numericKeys(const ParamSet& defaults) {
  std::vector<KeyValues> out;
  for (const ParamSpec& s : defaults.specs()) {
    const bool vector = s.type == ParamType::Vector && s.size > 0;
    if (!(s.type == ParamType::Real || s.type == ParamType::Integer || vector)) continue;
    if (!(s.minValue > -1e299 && s.maxValue < 1e299)) continue;
    double lo = s.minValue, hi = s.maxValue;
    if (s.minExclusive) lo = lo == 0 ? 1e-308 : lo + 1e-9 * std::max(1.0, std::abs(lo));
    double mid = lo > 0 ? std::sqrt(lo * hi) : 0.5 * (lo + hi);
    if (s.type == ParamType::Integer) lo = std::ceil(lo), hi = std::floor(hi), mid = std::round(mid);
    KeyValues k{s.key, {}, {"lo", "hi", "mid"}};
    for (double v : {lo, hi, mid}) k.values.push_back(ParamValue{std::vector<double>(size_t(s.size), v), {}});
    out.push_back(k);
  }
  return out;
}

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

struct Case {
  std::uint64_t hash;
  std::string scene, label;
  ParamSet params;
};

// Every pair of numeric keys at every combination of (lo, hi, mid) except (mid, mid), sorted by hash; the first
// `count` of them.
std::vector<Case> sampledCases(const SceneInfo& info, size_t count) {
  const ParamSet defaults = SceneRegistry::defaults(info.name);
  const std::vector<KeyValues> keys = numericKeys(defaults);
  std::vector<Case> all;
  for (size_t a = 0; a < keys.size(); ++a)
    for (size_t b = a + 1; b < keys.size(); ++b)
      for (size_t i = 0; i < 3; ++i)
        for (size_t j = 0; j < 3; ++j) {
          if (i == 2 && j == 2) continue;
          ParamSet p = defaults;
          p.set(keys[a].key, keys[a].values[i], "pair");
          p.set(keys[b].key, keys[b].values[j], "pair");
          const std::string label = info.name + " " + keys[a].key + "=" + p.valueText(keys[a].key) + " " +
                                    keys[b].key + "=" + p.valueText(keys[b].key);
          all.push_back({fnv1a(label), info.name, label, p});
        }
  std::sort(all.begin(), all.end(), [](const Case& x, const Case& y) { return x.hash < y.hash; });
  if (all.size() > count) all.resize(count);
  return all;
}

enum class Outcome { Refused, Ran, Flagged, Diverged, Slow };

// Runs `seconds` simulated (at most 60 steps, so a tiny dt stays quick) or until `wallBudget` seconds of wall time.
Outcome runCase(const Case& c, double seconds, double wallBudget, std::string& why) {
  const auto start = std::chrono::steady_clock::now();
  try {
    RunSession run(SceneConfig{c.scene, c.params}, [](const std::string&) {});
    const long steps = std::min(60L, std::max(1L, long(std::ceil(seconds / run.h()))));
    const InputVector neutral = neutralInputs(run.scene().controls());
    for (long k = 0; k < steps; ++k) {
      run.step(neutral);
      if (run.monitor().flagged()) return why = run.monitor().message(), Outcome::Flagged;
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > wallBudget)
        return why = "step " + std::to_string(k + 1) + " of " + std::to_string(steps), Outcome::Slow;
    }
    return Outcome::Ran;
  } catch (const BadInput& e) {
    return why = e.what(), Outcome::Refused;
  } catch (const SimulationDiverged& e) {
    return why = e.what(), Outcome::Diverged;
  }
}

// Pairs the sample meets that still misbehave, with what was measured: listed here (and in docs/numerics.md, "Range
// ends") rather than hidden, and printed on every run.
const std::vector<std::string> kKnownOpen = {};

// The message a scene built with `sets` over its defaults is refused with ("" if it is built).
std::string refusalOf(const char* scene, const std::vector<std::pair<const char*, const char*>>& sets) {
  ParamSet p = SceneRegistry::defaults(scene);
  try {
    for (const auto& [k, v] : sets) p.setFromString(k, v, "test");
    SceneRegistry::create(scene, p);
  } catch (const BadInput& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("RangePairsSweepOfTheAcceptedRanges") {
  // 14 cases per scene (15 scenes: 210 runs of 0.3 s or 60 steps). A run past 3 s of wall time is counted as slow
  // (the cost guard's business, not a failure).
  int refused = 0, ran = 0, slow = 0;
  for (const SceneInfo& info : SceneRegistry::all()) {
    for (const Case& c : sampledCases(info, 14)) {
      std::string why;
      if (std::find(kKnownOpen.begin(), kKnownOpen.end(), c.label) != kKnownOpen.end()) {
        std::printf("range pair (known open, see kKnownOpen): %s\n", c.label.c_str());
        continue;
      }
      const Outcome o = runCase(c, 0.3, 3.0, why);
      CAPTURE(c.label);
      CAPTURE(why);
      CHECK(o != Outcome::Diverged);
      CHECK(o != Outcome::Flagged);
      refused += o == Outcome::Refused, ran += o == Outcome::Ran, slow += o == Outcome::Slow;
      if (o != Outcome::Ran && o != Outcome::Refused) std::printf("range pair: %s :: %s\n", c.label.c_str(), why.c_str());
    }
  }
  std::printf("range pairs: %d ran, %d refused at the start, %d slow\n", ran, refused, slow);
  CHECK(ran > refused);
}

namespace {

struct Repro {
  const char* scene;
  std::vector<std::pair<const char*, const char*>> sets;
  Outcome expected;
};

// Each combination refused up front with the measured bound, or run (60 steps) without a divergence or an energy flag.
void checkRepros(const std::vector<Repro>& cases) {
  for (const Repro& r : cases) {
    ParamSet p = SceneRegistry::defaults(r.scene);
    std::string label = r.scene;
    Outcome o = Outcome::Refused;
    std::string why;
    try {
      for (const auto& [k, v] : r.sets) p.setFromString(k, v, "repro"), label += std::string(" ") + k + "=" + v;
      o = runCase(Case{0, r.scene, label, p}, 1e9, 30.0, why);
    } catch (const BadInput& e) {
      why = e.what();  // refused by the key's own range
    }
    CAPTURE(label);
    CAPTURE(why);
    // Wall time is not a result: on a loaded machine a heavy case can use the budget before its 60 steps, and every
    // step done ran without divergence or flag.
    if (o == Outcome::Slow && r.expected == Outcome::Ran) std::printf("range repro (slow, ran so far): %s\n", label.c_str());
    else CHECK(o == r.expected);
  }
}

}  // namespace

// The boat's finest hull (40 000 patches at patch_size 0.03) steps 60 times in 0.8 s optimised and 18 s under the
// sanitizers: it runs in the optimised build (tests/CMakeLists.txt, VARSIM_SWEEP_CASES); its refused neighbour
// patch_size 0.01 stays in the case below.
TEST_CASE("RangePairsBoatFinestHullRuns") { checkRepros({{"boat", {{"patch_size", "0.03"}}, Outcome::Ran}}); }

TEST_CASE("RangePairsIssueReproducersRunOrAreRefusedAtTheStart") {
  // The combinations issue 36 listed (each value inside its range), with what they do now.
  const std::vector<Repro> cases = {
      {"helicopter", {{"start_position", "-100000,-100000,-100000"}}, Outcome::Refused},
      {"helicopter", {{"start_position", "0,0,1"}}, Outcome::Refused},  // skids 10 cm into the start pad
      {"helicopter", {{"start_position", "0,0,-1"}, {"world", "none"}}, Outcome::Ran},
      {"marionette", {{"string_length", "0.2"}, {"damping", "0.0005"}}, Outcome::Ran},
      {"marionette", {{"string_length", "0.2"}, {"dt", "0.03"}}, Outcome::Ran},
      {"urdf", {{"limit_frequency", "5"}, {"dt", "0.05"}}, Outcome::Ran},
      {"pendulum", {{"damping", "100"}, {"alpha", "1"}}, Outcome::Refused},
      {"pendulum", {{"damping", "100"}, {"integrator", "rk4"}}, Outcome::Refused},
      {"boat", {{"mass", "0.001"}, {"pressure", "-100000"}}, Outcome::Refused},
      {"boat", {{"mass", "0.1"}, {"pressure", "-100000"}}, Outcome::Refused},
      {"boat", {{"hull", "100,100,100"}}, Outcome::Refused},
      {"boat", {{"patch_size", "0.01"}}, Outcome::Refused},
      {"boat", {{"water_density", "1e-308"}}, Outcome::Refused},
      {"ladder", {{"rod_length", "1e-5"}}, Outcome::Refused},
      {"ladder", {{"rod_length", "1e-4"}}, Outcome::Ran},
      {"chain", {{"rod_length", "1e-12"}}, Outcome::Refused},
      {"sleigh", {{"length", "1e-12"}}, Outcome::Refused},
      {"sleigh", {{"length", "0.01"}, {"speed", "100"}}, Outcome::Ran},
      {"snakeboard", {{"gait_frequency", "5"}}, Outcome::Refused},
      {"snakeboard", {{"dt", "0.5"}}, Outcome::Refused},
      {"snakeboard", {{"gait_frequency", "3"}}, Outcome::Ran},
      {"tumbling_body", {{"inertia", "1e-6,1e-6,1e-6"}}, Outcome::Ran},
      {"sleigh", {{"mass", "1e-308"}}, Outcome::Refused},
      {"car", {{"l", "1e-308"}}, Outcome::Refused},
      {"car", {{"l", "1e-6"}}, Outcome::Ran},
      {"orbit", {{"ball_mass", "1e-308"}}, Outcome::Refused},
      {"tumbling_body", {{"mass", "1e-6"}}, Outcome::Ran},
      // Refused while the LGVI stopped at a failed Newton; its substeps now solve them.
      {"tumbling_body", {{"newton_max_iter", "1"}}, Outcome::Ran},
      {"tumbling_body", {{"omega", "1000,1000,1000"}, {"dt", "1"}}, Outcome::Ran},
      {"rigid_body", {{"omega", "1000,1000,1000"}, {"velocity", "10000,10000,10000"}}, Outcome::Ran},
      {"rigid_body", {{"newton_max_iter", "1"}, {"omega", "100,300,-200"}, {"dt", "0.1"}}, Outcome::Refused},
      {"ladder", {{"eps_joints", "5e7"}, {"tau_pins", "0"}}, Outcome::Refused},  // flagged at 0.17 s before the rule
      {"chain", {{"tau", "0"}}, Outcome::Refused},
      {"chain", {{"tau", "0.0008"}}, Outcome::Refused},  // tau/h = 0.048
      {"chain", {{"tau", "0.0017"}}, Outcome::Ran},      // tau/h = 0.102
      {"chain", {{"max_chord", "0"}}, Outcome::Refused},  // flagged at 1.2 s before the rule
      {"chain", {{"max_chord", "0"}, {"max_turn", "0.03"}}, Outcome::Ran},
      // Singular SPOOK systems (issue 36): a heavy tip on light rods, a ladder's redundant joints at epsilon 0.
      {"chain", {{"rod_mass", "1e-6"}, {"tip_mass", "1e6"}}, Outcome::Refused},  // stopped at step 15
      {"chain", {{"rod_mass", "1e-6"}, {"tip_mass", "10"}}, Outcome::Ran},       // 1e7, the bound at 0.25 m rods
      {"chain", {{"rod_length", "1e-4"}, {"tip_mass", "1e6"}}, Outcome::Refused},
      {"chain", {{"rod_mass", "1e6"}, {"tip_mass", "1e-6"}}, Outcome::Ran},
      {"ladder", {{"rod_length", "1e-4"}, {"epsilon", "0"}}, Outcome::Refused},  // stopped at step 56
      {"ladder", {{"rod_length", "1e-4"}, {"epsilon", "1e-16"}}, Outcome::Ran},
      // The sleigh's ground rows follow the rods' tau rule (tau = 0 lifted the rod 8.6 m, flagged at 0.43 s).
      {"sleigh", {{"tau", "0"}, {"speed", "100"}}, Outcome::Refused},
      {"sleigh", {{"tau_plane", "0"}, {"yaw_rate", "100"}}, Outcome::Refused},
      {"sleigh", {{"tau", "0.00167"}, {"speed", "100"}}, Outcome::Ran},  // tau/h = 0.1
      // max_chord capped at 1 % of the rod (flagged at step 1 at the default 1e-4 m chord on 1e-4 m rods).
      {"ladder", {{"links", "1"}, {"rod_length", "1e-4"}}, Outcome::Ran},
      {"floating_chain", {{"sizes", "1e-3,1e-3,1e-3,1e-3,1e-3,1e-3,1e-3,1e-3,1e-3"}}, Outcome::Ran},
      {"space_robot", {{"link_lengths", "1e-3,1e-3,1e-3"}, {"link_masses", "1e-6,1e-6,1e-6"}}, Outcome::Ran},
      // A suction of 1e5 Pa (flagged at step 1 before: +2.7 kJ against a 1.6 kJ tolerance).
      {"boat", {{"water_density", "5000"}, {"pressure", "-100000"}}, Outcome::Ran},
      // The pressure on the implicit LGVI is applied with the end-of-step wrench: its half impulse no longer sits in
      // the node momentum while the implicit drag cancels it (flagged at step 1 before: +8484 J > 815 J).
      {"boat", {{"damping", "1e6,1e6,1e6"}, {"pressure", "-100000"}}, Outcome::Ran},
      {"boat", {{"dt", "0.1"}, {"pressure", "-100000"}}, Outcome::Ran},
      // First-order midpoint (alpha != 1/2): flagged at length 0.05 (+0.44 J > 0.43 J), stopped at 40 links; the
      // default chain at dt 0.01 ran 20 s with alpha 0 and 1 (the sweep's table), at dt 0.02 it was flagged.
      {"pendulum", {{"alpha", "0"}, {"length", "0.05"}}, Outcome::Refused},
      {"pendulum", {{"alpha", "1"}, {"links", "40"}}, Outcome::Refused},
      {"pendulum", {{"alpha", "0"}, {"dt", "0.006"}}, Outcome::Ran},
      {"pendulum", {{"alpha", "0.25"}}, Outcome::Ran},
      {"pendulum", {{"alpha", "0"}}, Outcome::Ran},
      {"pendulum", {{"alpha", "1"}}, Outcome::Ran},
      {"pendulum", {{"alpha", "1"}, {"dt", "0.02"}}, Outcome::Refused},
      // The blade's work booked from its SPOOK impulse, sub-step by sub-step (flagged at steps 4 and 8 before).
      {"sleigh", {{"side_slip", "10"}, {"length", "0.01"}}, Outcome::Ran},
      {"sleigh", {{"side_slip", "-10"}, {"dt", "0.1"}}, Outcome::Ran},
      // The director rods' unit rows ran away beyond dt sqrt(|g| / l) = 0.15 (1e-3 m rods at dt 1/60: step 2).
      {"chain", {{"rod_model", "director"}, {"rod_length", "1e-3"}}, Outcome::Refused},
      {"ladder", {{"rod_model", "director"}, {"rod_length", "1e-3"}, {"dt", "0.0014"}}, Outcome::Ran},
      // The whole drag -c (v - w) at the end of the step: with the wind's c w explicit at the node the run was flagged
      // at step 1 (+5.0e8 J) and a 1 kg helicopter thrown out at 3.6e5 m/s.
      {"helicopter", {{"drag_linear", "1e6"}, {"wind", "-50,-50,-50"}}, Outcome::Ran},
      {"helicopter", {{"drag_linear", "1e6"}, {"wind", "-50,-50,-50"}, {"mass", "1"}}, Outcome::Ran},
      // Choice keys at the range ends: explicit RK4 on a stiff drag diverged at step 1 (h c / m = 28 at drag_linear
      // 1e6); refused beyond RK4's real-axis bound h c / m = 2.785 (2.806 was flagged at 1.8 s, 2.785 ran 10 s).
      {"helicopter", {{"integrator", "rk4"}, {"drag_linear", "1e6"}, {"wind", "50,50,50"}}, Outcome::Refused},
      {"helicopter", {{"integrator", "rk4"}, {"drag_angular", "1e7"}}, Outcome::Refused},
      {"helicopter", {{"integrator", "rk4"}, {"drag_linear", "100260"}, {"world", "none"}}, Outcome::Ran},
      // RK4 on the canyon's explicit contact: 1000 m/s per axis gained 8e10 J at step 2 and diverged at step 3.
      {"helicopter", {{"integrator", "rk4"}, {"start_velocity", "-1000,-1000,-1000"}}, Outcome::Refused},
      {"helicopter", {{"integrator", "rk4"}, {"start_velocity", "0,636,-636"}}, Outcome::Ran},
      {"helicopter", {{"start_velocity", "-1000,-1000,-1000"}}, Outcome::Ran},  // the LGVI's implicit contact
      // rigid_body's explicit baselines at omega 1000 per axis (h |omega| = 29.8 rad) overflowed at steps 1-2; RK4 is
      // refused beyond h |omega| = 2.828 (about axis 3: 2.82 ran 20 s, 2.84 diverged), RK2 beyond the spin whose
      // predicted energy growth (1 + (h |omega|)^4/4)^(20 s / h) exceeds the monitor's 5 % (0.11 ran, 0.115 flagged).
      {"rigid_body", {{"integrator", "rk4"}, {"omega", "1000,1000,1000"}}, Outcome::Refused},
      {"rigid_body", {{"integrator", "rk4"}, {"omega", "0,0,169"}}, Outcome::Ran},
      {"rigid_body", {{"integrator", "rk2"}, {"omega", "1000,1000,1000"}}, Outcome::Refused},
      {"rigid_body", {{"integrator", "rk2"}, {"omega", "0,0,6.9"}, {"velocity", "1000,0,0"}}, Outcome::Refused},
      {"rigid_body", {{"integrator", "rk2"}, {"omega", "0,0,6.6"}, {"velocity", "1000,0,0"}}, Outcome::Ran},
      // The boat's explicit hull forces with one Newton iteration stopped at step 1; refused, 2 iterations run.
      {"boat", {{"hull_forces", "explicit"}, {"newton_max_iter", "1"}}, Outcome::Refused},
      {"boat", {{"hull_forces", "explicit"}, {"newton_max_iter", "2"}}, Outcome::Ran},
  };
  checkRepros(cases);
}

TEST_CASE("RangePairsPendulumFirstOrderRefusalNamesTheSweepAndWhatRuns") {
  // The first-order midpoint takes the steps its sweep ran 20 s (every swept step up to this one) or the fraction of
  // the curled rule, whichever allows more; a refusal names both and the largest dt that runs.
  struct Refusal {
    const char* alpha;
    const char* dt;
    const char* links;
    const char* sweep;    // what the message says of the measured sweep
    const char* allowed;  // the dt it names
  };
  const std::vector<Refusal> cases = {
      {"1", "0.02", "3", "every swept step up to 0.0443 ran", "allowed here dt <= 0.01 s"},  // alpha 1 flagged at 0.02
      {"0", "0.01", "19", "every swept step up to 0.00443 ran", "allowed here dt <= 0.001 s"},
      {"1", "0.01", "40", "none ran", "(below the smallest dt, 1e-4 s)"},
  };
  for (const Refusal& r : cases) {
    const std::string why = refusalOf("pendulum", {{"alpha", r.alpha}, {"dt", r.dt}, {"links", r.links}});
    CAPTURE(why);
    CHECK(why.find(std::string("alpha = ") + r.alpha + " ran 20 s in the measured sweep") != std::string::npos);
    CHECK(why.find(r.sweep) != std::string::npos);
    CHECK(why.find(r.allowed) != std::string::npos);
  }
}

TEST_CASE("RangePairsHelicopterRk4DragRefusalNamesTheBoundAndWhatRuns") {
  const std::string why = refusalOf("helicopter", {{"integrator", "rk4"}, {"drag_linear", "1e6"}});
  CAPTURE(why);
  CHECK(why.find("h drag_linear / mass = 27.7") != std::string::npos);  // 1e6 / 600 kg at 1/60 s
  CHECK(why.find("stability bound 2.785") != std::string::npos);
  CHECK(why.find("allowed here dt <= 0.001671 s, or drag_linear <= 100260") != std::string::npos);
}

TEST_CASE("RangePairsRigidBodyBaselineSpinRefusalNamesTheBoundAndWhatRuns") {
  const std::string rk4 = refusalOf("rigid_body", {{"integrator", "rk4"}, {"omega", "1000,1000,1000"}});
  CAPTURE(rk4);
  CHECK(rk4.find("the motion reaches |omega| = 1789 rad/s") != std::string::npos);  // 1000 per axis, J = 2, 4, 5
  CHECK(rk4.find("h |omega| = 29.81 rad is beyond explicit RK4's stability bound 2.828") != std::string::npos);
  CHECK(rk4.find("allowed here dt <= 0.001581 s, or |omega| <= 169.7 rad/s") != std::string::npos);
  const std::string rk2 = refusalOf("rigid_body", {{"integrator", "rk2"}, {"omega", "0,0,6.9"}});
  CAPTURE(rk2);
  CHECK(rk2.find("over 20 s that is 5.387 %, beyond the energy monitor's 5 %") != std::string::npos);
  CHECK(rk2.find("or |omega| <= 6.776 rad/s") != std::string::npos);
}

TEST_CASE("RangePairsRigidBodyLgviRetriesAFailedNewtonInSubsteps") {
  // omega 1000 and gravity 1000 per axis (issue 36): the SE(3) LGVI's Newton failed at t = 2.2 s (step 133, h|omega|
  // = 4.1 rad before the step) and the run stopped with exit 3; the step is now redone in substeps and the 3 s run
  // completes without an energy flag, through the same loop `varsim run` uses.
  for (const char* sign : {"1000,1000,1000", "-1000,-1000,-1000"}) {
    ParamSet p = SceneRegistry::defaults("rigid_body");
    p.setFromString("omega", "1000,1000,1000", "repro");
    p.setFromString("gravity", sign, "repro");
    RunSession run(SceneConfig{"rigid_body", p}, [](const std::string&) {});
    const InputVector neutral = neutralInputs(run.scene().controls());
    for (int k = 0; k < 180; ++k) run.step(neutral);  // throws SimulationDiverged on a failure
    CHECK(run.stepCount() == 180);
    CHECK(run.row()[0] == doctest::Approx(3.0));  // column t
    CHECK_FALSE(run.monitor().flagged());
  }
}

TEST_CASE("RangePairsTinyBodyValuesAreRefusedNamingTheKeyAndTheMeasuredBound") {
  // Values near the smallest doubles gave singular or non-finite inertias while the scene was built; the keys'
  // ranges now start at the measured floors (1e-6 kg, 1e-3 m) and the refusal names the key and the range.
  struct Tiny {
    const char* scene;
    const char* key;
    int size;
    const char* value;
    const char* bound;
  };
  const std::vector<Tiny> cases = {
      {"tumbling_body", "mass", 1, "1e-308", "1e-06"},      {"rigid_body", "mass", 1, "5e-324", "1e-06"},
      {"floating_chain", "masses", 3, "5e-324", "1e-06"},   {"floating_chain", "sizes", 9, "1e-4", "0.001"},
      {"space_robot", "base_mass", 1, "5e-324", "1e-06"},   {"space_robot", "base_size", 3, "1e-308", "0.001"},
      {"space_robot", "link_masses", 3, "5e-324", "1e-06"}, {"space_robot", "link_lengths", 3, "1e-308", "0.001"},
  };
  for (const Tiny& t : cases) {
    std::string text = t.value;
    for (int i = 1; i < t.size; ++i) text += std::string(",") + t.value;
    ParamSet p = SceneRegistry::defaults(t.scene);
    std::string why;
    try {
      p.setFromString(t.key, text, "--set");
    } catch (const BadInput& e) {
      why = e.what();
    }
    const std::string scene = t.scene;
    CAPTURE(scene);
    CAPTURE(why);
    CHECK(why.find(std::string("'") + t.key + "'") != std::string::npos);
    CHECK(why.find(t.bound) != std::string::npos);
  }
}

TEST_CASE("RangePairsCostGuardWarnsOnceWhenTheEstimateExceedsTheBudget") {
  RunCost over(1000000, 1e-9);  // any wall time at all is beyond a budget of 1 ns
  const std::string w = over.afterStep(RunCost::kSampleSteps);
  CHECK(w.find("estimated wall time") != std::string::npos);
  CHECK(over.estimate() > 1e-9);
  CHECK(over.afterStep(RunCost::kSampleSteps + 1).empty());  // said once
  RunCost within(100, 1e9);
  for (long k = 1; k <= 100; ++k) CHECK(within.afterStep(k).empty());
  CHECK(within.estimate() > 0.0);
  CHECK(within.estimate() < 1e9);
}
