// The rod scenes' SPOOK panel readouts without GL (scenes/rods/rod_panel.h, ui/core/scene_panel_state.h): joint
// picking along a ray, the picked constraint's trace (static chain: forces equal the weight carried), the
// whiplash profile with its running peak, stability warnings, ghost health, every scene's panels. The
// relaxation conventions and actions: test_rod_panel_data.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <map>

#include "engine/sim/errors.h"
#include "scenes/rods/ladder_scene.h"
#include "scenes/rods/rod_tuning.h"
#include "tests/rod_panel_harness.h"
#include "ui/core/scene_panel_state.h"

using namespace varsim;
using varsim::test::loadedDriver;
using varsim::test::Panel;
using varsim::test::relDiff;
using varsim::test::rodScene;

TEST_CASE("rod panel: picking a joint along a ray") {
  SimDriver d = loadedDriver("ladder", {{"links", "3"}});
  const RodScene& rod = rodScene(d);
  const auto joints = rod.system().jointConstraintIndices();
  const Eigen::Vector3d eye(1.3, -12.0, 2.5);
  int hits = 0;
  for (int j : joints) {
    const Eigen::Vector3d target = rod.jointPosition(j);
    const int got = pickJointOnRay(rod, eye, 7.0 * (target - eye), 1e-3);
    REQUIRE(got >= 0);
    // Joints at one corner share a position: any of them is right, and the lowest index wins.
    CHECK((rod.jointPosition(got) - target).norm() < 1e-12);
    CHECK(got <= j);
    hits += got == j;
    // The scene's pick hook says the same, as the Local edit that selects it.
    const Eigen::Vector3d dir = target - eye;
    const PanelPick pick = d.scene().pick({}, {eye.x(), eye.y(), eye.z()}, {dir.x(), dir.y(), dir.z()}, 1e-3);
    CHECK(pick.key == "pick");
    CHECK(pick.value == std::to_string(got));
  }
  MESSAGE(hits << " of " << joints.size() << " joints picked as themselves (the others share a corner)");
  // 1e-3 rad off the first joint: picked within 2e-3, not within 5e-4 (the next joint is ~0.08 rad away).
  const Eigen::Vector3d to = (rod.jointPosition(joints[2]) - eye).normalized();
  const Eigen::Vector3d side = to.cross(Eigen::Vector3d::UnitZ()).normalized();
  const Eigen::Vector3d off = (to + std::tan(1e-3) * side).normalized();
  CHECK(pickJointOnRay(rod, eye, off, 2e-3) >= 0);
  CHECK(pickJointOnRay(rod, eye, off, 5e-4) == -1);
  CHECK(pickJointOnRay(rod, eye, -to, 0.5) == -1);  // everything behind the eye
  CHECK(pickJointOnRay(rod, eye, Eigen::Vector3d::Zero(), 0.5) == -1);
  CHECK(pickJointOnRay(rod, Eigen::Vector3d(NAN, 0, 0), to, 0.5) == -1);
  CHECK(d.scene().pick({}, {eye.x(), eye.y(), eye.z()}, {-to.x(), -to.y(), -to.z()}, 0.5).key.empty());
}

// Worst errors over a hanging chain's joints of |λ|/h against the weight below each (relative) and of the gap
// against ε F (relative, and in ulps of the chain's largest coordinate: the resolution of a gap between two
// rod ends there).
struct StaticChainErrors {
  double force = 0, stretch = 0, stretchUlps = 0, extent = 0;
};
StaticChainErrors staticChainErrors(const RodScene& rod, int n, double weight, double eps) {
  StaticChainErrors e;
  e.extent = rod.state().q.cwiseAbs().maxCoeff();
  const double ulp = std::nextafter(e.extent, 2 * e.extent) - e.extent;
  const auto joints = rod.system().jointConstraintIndices();
  for (size_t k = 0; k < joints.size(); ++k) {
    const RodScene::ConstraintStatus s = rod.constraintStatus(joints[k]);
    e.force = std::max(e.force, relDiff(s.force, double(n - int(k)) * weight));
    e.stretch = std::max(e.stretch, relDiff(s.violation, eps * s.force));
    e.stretchUlps = std::max(e.stretchUlps, std::abs(s.violation - eps * s.force) / ulp);
  }
  return e;
}

TEST_CASE("rod panel: a static chain at eps = 1e-8 stretches by eps * force to 1e-6") {
  const int n = 8;
  SimDriver d = loadedDriver("chain", {{"rods", std::to_string(n)}, {"angle", "0"}, {"tilt", "0"}, {"epsilon", "1e-8"}});
  for (int k = 0; k < 60; ++k) REQUIRE(d.stepOnce());
  const StaticChainErrors e = staticChainErrors(rodScene(d), n, d.params().real("rod_mass") * 9.81, 1e-8);
  MESSAGE("static chain at eps 1e-8: force " << e.force << ", stretch " << e.stretch << " relative");
  CHECK(e.force < 1e-12);
  CHECK(e.stretch < 1e-6);
}

TEST_CASE("rod panel: the picked constraint's force is the weight it carries (static chain), traced per step") {
  // A chain hanging straight down at rest: the pin carries all n rods, joint k the n − k below it.
  const int n = 8;
  SimDriver d = loadedDriver("chain", {{"rods", std::to_string(n)}, {"angle", "0"}, {"tilt", "0"}});
  const RodScene& rod = rodScene(d);
  const double weight = d.params().real("rod_mass") * 9.81;
  const auto joints = rod.system().jointConstraintIndices();
  REQUIRE(joints.size() == size_t(n));
  REQUIRE(rod.constraintStatus(joints[0]).group == kGroupPins);
  Panel panel(d);
  panel.state.traces = PanelTraces(64);
  REQUIRE(panel.act("pick", "3"));
  panel.state.afterStep(d.scene());
  const std::string trace = "joint " + std::to_string(joints[3]);
  for (int k = 0; k < 60; ++k) REQUIRE(d.stepOnce());
  // At rest SPOOK's row Σλ = −(4/h)Υ g with Σ/Υ = 4ε/h² and λ = h F gives the static stretch |g| = ε F.
  // At the default ε = 1e-10 the lowest joint's stretch is ~1e-9 m, the difference of rod-end positions metres
  // from the origin, where one ulp of a coordinate (~9e-16 m) is already ~1e-6 of it: there the law holds to
  // 1e-6 relative or to 4 ulps of the chain's largest coordinate (the gap's resolution), whichever is larger.
  // The ε = 1e-8 case below, a stretch 100× above that floor, checks it to 1e-6 relative alone.
  const StaticChainErrors e = staticChainErrors(rod, n, weight, d.params().real("epsilon"));
  MESSAGE("static chain after 1 s: worst relative error of |lambda|/h against the carried weight " << e.force
          << ", of the gap against eps * force " << e.stretch << " (" << e.stretchUlps << " ulps of "
          << e.extent << " m)");
  CHECK(e.force < 1e-12);
  CHECK((e.stretch < 1e-6 || e.stretchUlps <= 4));
  const PlotHistory* data = panel.state.traces.series(trace);
  REQUIRE(data);
  REQUIRE(data->size() == 61);
  CHECK(data->names() == std::vector<std::string>{"gap (m)", "force (N)"});
  CHECK(data->value(1, 60) == rod.constraintStatus(joints[3]).force);
  CHECK(data->value(0, 60) == rod.constraintStatus(joints[3]).violation);
  // Resuming from an earlier state rewrites the trace's future.
  d.scrubTo(30);
  REQUIRE(d.stepOnce());
  CHECK(panel.state.traces.series(trace)->size() == 32);
  CHECK(panel.state.traces.series(trace)->newestTime() == doctest::Approx(31 * d.h()).epsilon(1e-12));
  // The ring keeps the newest samples when full; unpicking drops the trace.
  for (int k = 0; k < 100; ++k) REQUIRE(d.stepOnce());
  CHECK(panel.state.traces.series(trace)->size() == 64);
  CHECK(panel.state.traces.series(trace)->newestTime() == doctest::Approx(131 * d.h()).epsilon(1e-12));
  REQUIRE(panel.act("pick", ""));
  REQUIRE(d.stepOnce());
  CHECK(panel.state.traces.series(trace) == nullptr);
}

TEST_CASE("rod panel: whiplash profile of the ladder and its running peak") {
  SimDriver d = loadedDriver("ladder");
  Panel panel(d);
  const auto& ladder = dynamic_cast<const LadderScene&>(d.scene());
  const int N = int(d.params().integer("links"));
  for (int k = 0; k < 180; ++k) REQUIRE(d.stepOnce());  // 3 s: through the whiplash
  const RodScene::SpeedProfile prof = ladder.speedProfile();
  REQUIRE(prof.speeds.size() == size_t(N));
  CHECK(std::string(prof.axis) == "link");
  double profileMax = 0;
  for (int k = 0; k < N; ++k) {
    CHECK(prof.speeds[size_t(k)] == ladder.whiplashProfile()[k]);
    profileMax = std::max(profileMax, prof.speeds[size_t(k)]);
  }
  // Every rod but the first pinned rung belongs to a link, so the profile's max is the max rod speed.
  const RodDiagnostics diag = rodDiagnostics(ladder.system(), ladder.state());
  CHECK(profileMax == diag.maxSpeed);
  const ProfilePeak* env = panel.state.traces.profile("speed profile");
  REQUIRE(env);
  const auto& peak = env->peak();
  REQUIRE(peak.size() == size_t(N));
  size_t argmax = 0;
  for (size_t k = 0; k < peak.size(); ++k)
    if (peak[k] > peak[argmax]) argmax = k;
  MESSAGE("ladder N=" << N << ", 3 s: peak link speed " << peak[0] << " m/s at link 1, " << peak[size_t(N / 2)] << " at link "
                      << N / 2 + 1 << ", " << peak.back() << " at link " << N << "; overall max at link " << argmax + 1
                      << " (" << peak[argmax] << " m/s, t = " << env->peakTime()[argmax] << " s)");
  // The whip: the free end's peak is several times the pinned end's.
  CHECK(peak.back() > 3.0 * peak[0]);
  CHECK(argmax + 1 > size_t(N / 2));
  // A reset (a new scene object, time back to 0) restarts the peak from the current profile.
  d.reset();
  panel.state.follow(&d.scene(), d.sceneName());
  for (double p : panel.state.traces.profile("speed profile")->peak()) CHECK(p == 0.0);
}

TEST_CASE("rod panel: profile peak keeps the elementwise peak and restarts on a size change or time going back") {
  ProfilePeak env;
  env.update(0.0, {1, 2, 3});
  env.update(0.1, {3, 1, 2});
  env.update(0.2, {2, 5, 1});
  CHECK(env.peak() == std::vector<double>{3, 5, 3});
  CHECK(env.peakTime() == std::vector<double>{0.1, 0.2, 0.0});
  env.update(0.3, {1, 1});
  CHECK(env.peak() == std::vector<double>{1, 1});
  env.update(0.05, {0.5, 0.25});
  CHECK(env.peak() == std::vector<double>{0.5, 0.25});
}

TEST_CASE("rod panel: stability warnings merged per text, same verdicts as the scene") {
  SimDriver d = loadedDriver("ladder", {{"links", "2"}});
  Panel panel(d);
  const RodScene& rod = rodScene(d);
  CHECK(stabilityWarningLines(rod).empty());
  CHECK(rod.stabilityWarning().empty());
  // τ = 0.2 h everywhere: one line naming both groups instead of two copies (rigid rods: the unit group has no rows).
  REQUIRE(panel.act("tauh:global", "0.2"));
  auto lines = stabilityWarningLines(rod);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].rfind("joints, pins: tau/h = 0.2 < 0.5", 0) == 0);
  CHECK_FALSE(rod.stabilityWarning().empty());
  // Back inside; then only a picked joint's override outside.
  REQUIRE(panel.act("tauh:global", "2"));
  const int joint = rod.system().jointConstraintIndices().back();
  REQUIRE(panel.act("tauh:c:" + std::to_string(joint), "0"));
  lines = stabilityWarningLines(rod);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].rfind(rod.constraintStatus(joint).name + ": tau/h = 0", 0) == 0);
  CHECK(rod.stabilityWarning().find(rod.constraintStatus(joint).name) != std::string::npos);
  // The panel shows them in a warning box above the tabs.
  const auto panels = d.scene().panels(panel.state.context);
  REQUIRE(panels.size() == 1);
  REQUIRE(!panels[0].header.empty());
  CHECK(panels[0].header[0].kind == PanelWidget::Kind::Warning);
  CHECK(panels[0].header[0].label.find(lines[0]) != std::string::npos);
}

TEST_CASE("rod panel: ghost divergence indicator (energy growth latched in the scene state before RK4-Baumgarte freezes)") {
  RodScene::GhostStatus g;
  CHECK(ghostHealth(g) == GhostHealth::Running);
  g.energyGrowthAt = 0.5;
  CHECK(ghostHealth(g) == GhostHealth::EnergyGrowth);
  g.diverged = true;
  CHECK(ghostHealth(g) == GhostHealth::Diverged);
  // The ladder at h = 1/60 (N = 20): the baselines as ghosts next to SPOOK.
  SimDriver d = loadedDriver("ladder", {{"ghosts", "true"}});
  const RodScene& rod = rodScene(d);
  const double e0 = rod.initialEnergy();
  CHECK(e0 == rodDiagnostics(rod.system(), rod.state()).energy);
  std::map<std::string, double> growthAt, divergedAt;
  for (int k = 0; k < 180; ++k) {
    REQUIRE(d.stepOnce());
    for (const auto& gs : rod.ghosts()) {
      // Latched: once set it never changes while time goes forward.
      if (growthAt.count(gs.stepper)) CHECK(gs.energyGrowthAt == growthAt[gs.stepper]);
      if (gs.energyGrowthAt >= 0) growthAt[gs.stepper] = gs.energyGrowthAt;
      if (gs.diverged && !divergedAt.count(gs.stepper)) divergedAt[gs.stepper] = gs.divergedAt;
      if (!gs.diverged && gs.energyGrowthAt < 0) CHECK(gs.energy <= e0 + 1e-3 * std::max(std::abs(e0), 1.0));
    }
    // SPOOK itself never gains energy.
    CHECK(rodDiagnostics(rod.system(), rod.state()).energy <= e0 + 1e-9 * std::abs(e0));
  }
  for (const auto& [name, t] : divergedAt)
    MESSAGE(name << ": energy above E(0) from t = " << (growthAt.count(name) ? growthAt[name] : -1) << " s, froze at t = " << t
                 << " s");
  REQUIRE(divergedAt.count("rk4_baumgarte"));
  REQUIRE(growthAt.count("rk4_baumgarte"));
  CHECK(growthAt["rk4_baumgarte"] < divergedAt["rk4_baumgarte"]);
  CHECK(!divergedAt.count("rattle"));  // its failed Newton steps are redone in sub-steps (rattle.h)
  // Stepping back before the growth forgets it (it is part of the saved state).
  const long back = d.step() - (long(std::floor(growthAt["rk4_baumgarte"] / d.h())) - 2);  // steps before the growth
  REQUIRE(back < long(d.history().size()));
  d.scrubTo(d.history().size() - 1 - size_t(back));
  CHECK(rod.time() < growthAt["rk4_baumgarte"]);
  for (const auto& gs : rod.ghosts())
    if (gs.stepper == "rk4_baumgarte") CHECK(gs.energyGrowthAt < 0);
}

TEST_CASE("scene panels: every scene's panels build, sample and name their actions; no panel needs a cast") {
  for (const SceneInfo& info : SceneRegistry::all()) {
    CAPTURE(info.name);
    SimDriver d = loadedDriver(info.name);
    Panel panel(d);
    for (int k = 0; k < 5; ++k) REQUIRE(d.stepOnce());
    const auto panels = d.scene().panels(panel.state.context);
    size_t widgets = 0;
    for (const auto& p : panels) {
      CHECK_FALSE(p.title.empty());
      widgets += p.header.size();
      for (const auto& t : p.tabs) widgets += t.widgets.size();
    }
    MESSAGE(info.name << ": " << panels.size() << " panel(s), " << widgets << " top-level widgets");
    if (dynamic_cast<const RodScene*>(&d.scene())) {
      REQUIRE(panels.size() == 1);
      CHECK(panels[0].title == "SPOOK tuning");
      const bool chain = info.name != "sleigh";  // one blade: no whiplash profile to show
      CHECK(panels[0].tabs.size() == (chain ? 5u : 4u));
      bool whiplash = false;
      for (const auto& t : panels[0].tabs) whiplash = whiplash || t.title == "Whiplash";
      CHECK(whiplash == chain);
    }
  }
  // A non-rod scene declares its own readout panel and a per-step trace.
  SimDriver d = loadedDriver("tumbling_body");
  Panel panel(d);
  for (int k = 0; k < 10; ++k) REQUIRE(d.stepOnce());
  const auto panels = d.scene().panels(panel.state.context);
  REQUIRE(panels.size() == 1);
  CHECK(panels[0].title == "LGVI vs RK4");
  const PlotHistory* trace = panel.state.traces.series("energy error");
  REQUIRE(trace);
  CHECK(trace->size() == 11);
  CHECK_FALSE(panel.act("anything", "1"));  // no actions: refused with a message, nothing changes
  CHECK_FALSE(panel.error("anything").empty());
}
