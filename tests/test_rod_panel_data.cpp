// The rod scenes' SPOOK tuning panel as scene-declared data (scenes/rod_panel.h, rod_tuning.h) and its
// generic app side (ui/core/scene_panel_state.h), without GL: conventions both ways, relaxation
// actions becoming recorded live edits through the driver (all or nothing, never clamped), the ε/τ
// rule in one function, joint picking along a ray, the picked constraint's trace (static chain:
// forces equal the weight carried), the whiplash profile with its running peak, ghost health.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <map>
#include <set>

#include "engine/sim/errors.h"
#include "scenes/ladder_scene.h"
#include "scenes/rod_tuning.h"
#include "ui/core/scene_panel_state.h"

using namespace varsim;

namespace {

const RodScene& rodScene(SimDriver& d) { return dynamic_cast<const RodScene&>(d.scene()); }

SimDriver loadedDriver(const std::string& scene, const std::vector<std::pair<std::string, std::string>>& set = {}) {
  SimDriver d(100, 1024);
  ParamSet p = SceneRegistry::defaults(scene);
  for (const auto& [k, v] : set) p.setFromString(k, v, "test");
  d.load(scene, p);
  return d;
}

// The app's panel state following the driver's scene, sampled after every step.
struct Panel {
  explicit Panel(SimDriver& d) : driver(d) {
    state.follow(&d.scene(), d.sceneName());
    d.afterStep = [this](long, const Scene& s) {
      state.follow(&s, driver.sceneName());
      state.afterStep(s);
    };
  }
  bool act(const std::string& action, const std::string& value) { return state.act(driver, action, value, action); }
  std::string error(const std::string& action) const { return state.errors.count(action) ? state.errors.at(action) : ""; }
  SimDriver& driver;
  ScenePanelState state;
};

double relDiff(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

}  // namespace

TEST_CASE("rod panel: conventions round trip (eps, tau) -> (a, b) -> (eps, tau) for every convention") {
  double worst = 0;
  for (double eps : {1e-12, 1e-8, 1e-4, 0.5})
    for (double ratio : {0.75, 2.0, 20.0})
      for (double h : {1.0 / 240, 1.0 / 60, 1.0 / 20})
        for (double m : {0.25, 1.0, 10.0})
          for (Convention c : kConventions) {
            const SpookParameters p{eps, ratio * h};
            const SpookParameters back = fromConvention(c, toConvention(c, p, h, m), h, m);
            worst = std::max({worst, relDiff(back.epsilon, eps), relDiff(back.tau, p.tau)});
          }
  MESSAGE("worst relative round-trip error over 4 conventions x 108 settings: " << worst);
  CHECK(worst < 1e-12);
}

TEST_CASE("rod panel: convention values at the paper's defaults (eps 1e-8, tau 2h, h 1/60) on m = 10 kg") {
  const double h = 1.0 / 60, eps = 1e-8, tau = 2 * h, m = 10;
  const SpookParameters p{eps, tau};
  const auto sd = toConvention(Convention::SpringDamperPerMass, p, h, m);
  CHECK(relDiff(sd[0], 1.0 / (eps * m)) < 1e-15);  // k/m = 1/(eps m)
  CHECK(relDiff(sd[1], tau / (eps * m)) < 1e-15);  // c/m = tau/(eps m)
  const auto ode = toConvention(Convention::OdeErpCfm, p, h, m);
  CHECK(relDiff(ode[0], 4.0 / 9.0) < 1e-15);          // ERP = 4h/(h + 8h)
  CHECK(relDiff(ode[1], 4 * eps / (9 * h)) < 1e-15);  // CFM = 4 eps/(h + 8h)
  const auto mj = toConvention(Convention::MujocoSolref, p, h, m);
  const double zeta = tau / (2 * std::sqrt(eps * m)), omega = 1 / std::sqrt(eps * m);
  CHECK(relDiff(mj[1], zeta) < 1e-15);
  CHECK(relDiff(mj[0], 1 / (zeta * omega)) < 1e-14);
  const auto b2 = toConvention(Convention::Box2dSoft, p, h, m);
  CHECK(relDiff(b2[0], omega / (2 * 3.14159265358979323846)) < 1e-14);
  CHECK(relDiff(b2[1], zeta) < 1e-15);
}

TEST_CASE("rod panel: conventions reject what they cannot represent, naming the value") {
  const double h = 1.0 / 60;
  CHECK_THROWS_AS(toConvention(Convention::MujocoSolref, {0.0, 2 * h}, h, 1.0), BadInput);  // rigid: no spring
  CHECK_THROWS_AS(toConvention(Convention::SpringDamperPerMass, {1e-8, 0.0}, h, 1.0), BadInput);
  CHECK_THROWS_AS(toConvention(Convention::Box2dSoft, {1e-8, 2 * h}, h, 0.0), BadInput);  // mass 0
  CHECK_THROWS_AS(fromConvention(Convention::OdeErpCfm, {NAN, 1e-6}, h, 1.0), BadInput);
  CHECK_THROWS_AS(fromConvention(Convention::Box2dSoft, {-5.0, 1.0}, h, 1.0), BadInput);
  // ODE has a value for the rigid, undamped corner: CFM = 0, ERP = 4.
  const auto ode = toConvention(Convention::OdeErpCfm, {0.0, 0.0}, h, 1.0);
  CHECK(ode[0] == 4.0);
  CHECK(ode[1] == 0.0);
  try {
    toConvention(Convention::SpringDamperPerMass, {1e-8, 1.0}, h, -2.0);
    FAIL("no throw");
  } catch (const BadInput& e) {
    CHECK(std::string(e.what()).find("-2") != std::string::npos);
  }
}

TEST_CASE("rod panel: the eps/tau rule is one function, and the stepper uses what it says") {
  SimDriver d = loadedDriver("ladder", {{"links", "3"}, {"epsilon", "2e-6"}, {"tau", "0.05"}, {"eps_unit", "10"},
                                        {"tau_pins", "0.5"}});
  const RodScene& rod = rodScene(d);
  const ParamSet& p = rod.params();
  CHECK(effectiveRelaxation(p, "unit").epsilon == 2e-6 * 10);
  CHECK(effectiveRelaxation(p, "unit").tau == 0.05);
  CHECK(effectiveRelaxation(p, "pins").tau == 0.05 * 0.5);
  CHECK(effectiveRelaxation(p, "no_multipliers").epsilon == 2e-6);  // a group without eps_/tau_: global
  const ConstraintRelaxation own{3e-3, 0.1, 1e-8};
  CHECK(effectiveRelaxation(p, "unit", &own).epsilon == 3e-3);
  CHECK(effectiveRelaxation(p, "unit", &own).tau == 0.1);
  // Every row of the SPOOK stepper has exactly the rule's value.
  Panel panel(d);
  const int joint = rod.system().jointConstraintIndices().back();
  REQUIRE(panel.act("eps:c:" + std::to_string(joint), "4e-4"));
  for (int i = 0; i < rod.constraintCount(); ++i) {
    const RodScene::ConstraintStatus s = rod.constraintStatus(i);
    const SpookParameters rule = rod.constraintRelaxation(i);
    CHECK(s.relaxation.epsilon == rule.epsilon);
    CHECK(s.relaxation.tau == rule.tau);
  }
  CHECK(rod.constraintRelaxation(joint).epsilon == 4e-4);
}

TEST_CASE("rod panel: global, group and per-constraint actions become recorded live edits") {
  SimDriver d = loadedDriver("ladder", {{"links", "3"}});
  Panel panel(d);
  const RodScene& rod = rodScene(d);
  const double h = d.h();
  CHECK(tunableGroups(rod) == std::vector<std::string>{"joints", "unit", "pins"});
  const int joint = rod.system().jointConstraintIndices().back();  // a joint (pins come first)
  REQUIRE(rod.constraintStatus(joint).group == kGroupJoints);
  int unitRow = -1;
  for (int i = 0; i < rod.constraintCount(); ++i)
    if (rod.constraintStatus(i).group == kGroupUnit) unitRow = i;
  REQUIRE(unitRow >= 0);
  d.startRecording();

  REQUIRE(panel.act("eps:global", "1e-6"));
  REQUIRE(panel.act("tauh:global", "4"));
  CHECK(d.params().real("epsilon") == 1e-6);
  CHECK(d.params().real("tau") == 4 * h);
  CHECK(rod.params().real("epsilon") == 1e-6);  // the running scene got the same values
  CHECK(rod.constraintStatus(unitRow).relaxation.epsilon == 1e-6);

  REQUIRE(panel.act("eps:g:joints", "1e-4"));
  REQUIRE(panel.act("tauh:g:joints", "6"));
  CHECK(d.params().real("eps_joints") == doctest::Approx(100).epsilon(1e-14));
  CHECK(d.params().real("tau_joints") == doctest::Approx(1.5).epsilon(1e-14));
  const SpookParameters g = targetRelaxation(rod, {RelaxationTarget::Kind::Group, "joints", -1});
  CHECK(relDiff(g.epsilon, 1e-4) < 1e-15);
  CHECK(relDiff(g.tau, 6 * h) < 1e-15);
  CHECK(relDiff(rod.constraintStatus(joint).relaxation.epsilon, 1e-4) < 1e-15);
  CHECK(rod.constraintStatus(unitRow).relaxation.epsilon == 1e-6);  // other groups untouched

  const std::string c = "c:" + std::to_string(joint);
  REQUIRE(panel.act("eps:" + c, "3e-3"));
  REQUIRE(panel.act("tauh:" + c, "0.5"));
  CHECK(rod.constraintStatus(joint).overridden);
  CHECK(rod.constraintStatus(joint).relaxation.epsilon == 3e-3);
  CHECK(targetRelaxation(rod, {RelaxationTarget::Kind::Constraint, "", joint}).tau == 0.5 * h);
  CHECK(d.params().real("eps_joints") == doctest::Approx(100).epsilon(1e-14));  // an override is not a parameter
  REQUIRE(rod.edits().size() == 1);
  CHECK(rod.edits()[0].first == "relax." + std::to_string(joint));
  // The override stays while the group changes, until cleared.
  REQUIRE(panel.act("eps:g:joints", "1e-5"));
  CHECK(rod.constraintStatus(joint).relaxation.epsilon == 3e-3);
  REQUIRE(panel.act("clear:" + std::to_string(joint), ""));
  CHECK(relDiff(rod.constraintStatus(joint).relaxation.epsilon, 1e-5) < 1e-15);
  CHECK(rod.edits().empty());
  for (int k = 0; k < 30; ++k) REQUIRE(d.stepOnce());
  // Every action went through the driver, so the recording holds it (one event per key and step).
  std::set<std::string> params, edits;
  const InputTrack track = d.recordedTrack();
  for (const InputEvent& e : track.events())
    (e.kind == InputEvent::Kind::Param ? params : edits).insert(e.key);
  CHECK(params == std::set<std::string>{"epsilon", "tau", "eps_joints", "tau_joints"});
  CHECK(edits == std::set<std::string>{"relax." + std::to_string(joint)});
}

TEST_CASE("rod panel: rejected actions change nothing and are never clamped") {
  SimDriver d = loadedDriver("ladder", {{"links", "2"}});
  Panel panel(d);
  const RodScene& rod = rodScene(d);
  const ParamSet before = d.params();
  auto unchanged = [&] {
    for (const char* k : {"epsilon", "tau", "eps_joints", "tau_joints"}) CHECK(d.params().real(k) == before.real(k));
  };
  // ε above the slider's top: rejected with the range.
  CHECK_FALSE(panel.act("eps:global", "2"));
  CHECK(panel.error("eps:global").find("epsilon") != std::string::npos);
  CHECK(panel.error("eps:global").find("[0, 1]") != std::string::npos);
  unchanged();
  // τ multiplier above 100 for the group; an ERP that needs both multipliers, one out of range: neither
  // is applied.
  CHECK_FALSE(panel.act("tauh:g:joints", "400"));
  REQUIRE(panel.act("conv.target", "1"));  // group joints
  CHECK_FALSE(panel.act("conv:ode:a", "0.001"));
  unchanged();
  CHECK_FALSE(panel.act("eps:g:no_such", "1e-8"));
  CHECK_FALSE(panel.act("eps:global", "0x10"));  // the one number parser
  CHECK_FALSE(panel.act("no such action", "1"));
  const int joint = rod.system().jointConstraintIndices().back();
  CHECK_FALSE(panel.act("eps:c:" + std::to_string(joint), "-1e-8"));
  CHECK_FALSE(rod.constraintStatus(joint).overridden);
  CHECK_FALSE(panel.act("eps:c:100000", "1e-8"));
  // With the global ε at 0 no multiplier gives a group a positive ε.
  REQUIRE(panel.act("eps:global", "0"));
  CHECK_FALSE(panel.act("eps:g:joints", "1e-6"));
  CHECK(panel.error("eps:g:joints").find("eps_joints") != std::string::npos);
  CHECK(d.params().real("eps_joints") == 1.0);
  // A success clears the row's message.
  REQUIRE(panel.act("eps:global", "1e-8"));
  CHECK(panel.error("eps:global").empty());
}

TEST_CASE("rod panel: conventions entry sets the chosen target's (eps, tau)") {
  // From the paper's ε = 1e-8: the entry keeps the row's other value, and from the ladder's default 1e-10 (Box2D
  // 5.0 kHz, ζ = 527 on 10 kg) hertz 5 would need τ = 34 s, outside tau's range, and is refused.
  SimDriver d = loadedDriver("ladder", {{"links", "2"}, {"epsilon", "1e-8"}});
  Panel panel(d);
  const RodScene& rod = rodScene(d);
  const double h = d.h();
  REQUIRE(panel.act("conv.mass", "10"));
  CHECK_FALSE(panel.act("conv.mass", "-1"));
  CHECK(panel.state.context.get("conv.mass") == "10");
  // Box2D hertz 5, zeta 1 on 10 kg for the global values: ω = 2π·5, ε = 1/(m ω²), τ = 2ζ/ω.
  REQUIRE(panel.act("conv:box2d:a", "5"));
  REQUIRE(panel.act("conv:box2d:b", "1"));
  const double omega = 2 * 3.14159265358979323846 * 5;
  CHECK(relDiff(d.params().real("epsilon"), 1 / (10 * omega * omega)) < 1e-12);
  CHECK(relDiff(d.params().real("tau"), 2 / omega) < 1e-12);
  // The picked joint as the target (index after global and the three groups).
  const int joint = rod.system().jointConstraintIndices().back();
  REQUIRE(panel.act("pick", std::to_string(rod.system().jointConstraintIndices().size() - 1)));
  CHECK(panel.state.context.get("pick") == std::to_string(joint));
  REQUIRE(panel.act("conv.target", "4"));
  REQUIRE(panel.act("conv:ode:a", "0.5"));  // ERP 0.5 → τ = 7h/4 for that joint only
  CHECK(rod.constraintStatus(joint).overridden);
  CHECK(relDiff(rod.constraintStatus(joint).relaxation.tau, 1.75 * h) < 1e-12);
  CHECK(relDiff(d.params().real("tau"), 2 / omega) < 1e-12);
}

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
  const double eps = d.params().real("epsilon");
  double worstForce = 0, worstStretch = 0;
  for (size_t k = 0; k < joints.size(); ++k) {
    const RodScene::ConstraintStatus s = rod.constraintStatus(joints[k]);
    worstForce = std::max(worstForce, relDiff(s.force, double(n - int(k)) * weight));
    worstStretch = std::max(worstStretch, relDiff(s.violation, eps * s.force));
  }
  MESSAGE("static chain after 1 s: worst relative error of |lambda|/h against the carried weight " << worstForce
          << ", of the gap against eps * force " << worstStretch);
  CHECK(worstForce < 1e-12);
  CHECK(worstStretch < 1e-6);
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
  // τ = 0.2 h everywhere: one line naming all three groups instead of three copies.
  REQUIRE(panel.act("tauh:global", "0.2"));
  auto lines = stabilityWarningLines(rod);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].rfind("joints, unit, pins: tau/h = 0.2 < 0.5", 0) == 0);
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
  CHECK(divergedAt.count("rattle"));
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
      CHECK(panels[0].tabs.size() == 5);
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
