// Data side of the app's SPOOK tuning panel (ui/core/rod_panel_data.h), without GL: conventions
// entry both ways, relaxation edits through the driver's ParamSet path (atomic, never clamped),
// joint picking along a ray, the picked constraint's trace (static chain: forces equal the weight
// carried), and the ladder's whiplash profile with its running peak.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <map>

#include "engine/sim/errors.h"
#include "scenes/ladder_scene.h"
#include "ui/core/rod_panel_data.h"

using namespace varsim;

namespace {

RodScene& rodScene(SimDriver& d) { return dynamic_cast<RodScene&>(d.scene()); }

SimDriver loadedDriver(const std::string& scene, const std::vector<std::pair<std::string, std::string>>& set = {}) {
  SimDriver d(100, 1024);
  ParamSet p = SceneRegistry::defaults(scene);
  for (const auto& [k, v] : set) p.setFromString(k, v, "test");
  d.load(scene, p);
  return d;
}

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
  CHECK(relDiff(ode[0], 4.0 / 9.0) < 1e-15);            // ERP = 4h/(h + 8h)
  CHECK(relDiff(ode[1], 4 * eps / (9 * h)) < 1e-15);    // CFM = 4 eps/(h + 8h)
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

TEST_CASE("rod panel: global, group and per-constraint edits reach the SPOOK stepper through the ParamSet") {
  SimDriver d = loadedDriver("ladder", {{"links", "3"}});
  RodScene& rod = rodScene(d);
  const double h = d.h();
  CHECK(tunableGroups(rod, d.params()) == std::vector<std::string>{"joints", "unit", "pins"});
  const int joint = rod.system().jointConstraintIndices().back();  // a joint (pins come first)
  REQUIRE(rod.constraintStatus(joint).group == kGroupJoints);
  int unitRow = -1;
  for (int i = 0; i < rod.constraintCount(); ++i)
    if (rod.constraintStatus(i).group == kGroupUnit) unitRow = i;
  REQUIRE(unitRow >= 0);

  applyTargetRelaxation(d, rod, {RelaxationTarget::Kind::Global, "", -1}, {1e-6, 4 * h});
  CHECK(d.params().real("epsilon") == 1e-6);
  CHECK(d.params().real("tau") == 4 * h);
  CHECK(rod.params().real("epsilon") == 1e-6);  // the running scene got the same values
  CHECK(rod.constraintStatus(unitRow).relaxation.epsilon == 1e-6);

  const RelaxationTarget joints{RelaxationTarget::Kind::Group, "joints", -1};
  applyTargetRelaxation(d, rod, joints, {1e-4, 6 * h});
  CHECK(d.params().real("eps_joints") == doctest::Approx(100).epsilon(1e-14));
  CHECK(d.params().real("tau_joints") == doctest::Approx(1.5).epsilon(1e-14));
  const SpookParameters g = targetRelaxation(rod, d.params(), joints);
  CHECK(relDiff(g.epsilon, 1e-4) < 1e-15);
  CHECK(relDiff(g.tau, 6 * h) < 1e-15);
  CHECK(relDiff(rod.constraintStatus(joint).relaxation.epsilon, 1e-4) < 1e-15);
  CHECK(rod.constraintStatus(unitRow).relaxation.epsilon == 1e-6);  // other groups untouched

  const RelaxationTarget picked{RelaxationTarget::Kind::Constraint, "", joint};
  applyTargetRelaxation(d, rod, picked, {3e-3, 0.5 * h});
  CHECK(rod.constraintStatus(joint).overridden);
  CHECK(rod.constraintStatus(joint).relaxation.epsilon == 3e-3);
  CHECK(targetRelaxation(rod, d.params(), picked).tau == 0.5 * h);
  CHECK(d.params().real("eps_joints") == doctest::Approx(100).epsilon(1e-14));  // an override is not a parameter
  // The override stays while the group changes, until cleared.
  applyTargetRelaxation(d, rod, joints, {1e-5, 2 * h});
  CHECK(rod.constraintStatus(joint).relaxation.epsilon == 3e-3);
  rod.clearConstraintRelaxation(joint);
  CHECK(relDiff(rod.constraintStatus(joint).relaxation.epsilon, 1e-5) < 1e-15);
  for (int k = 0; k < 30; ++k) REQUIRE(d.stepOnce());
}

TEST_CASE("rod panel: rejected edits change nothing and are never clamped") {
  SimDriver d = loadedDriver("ladder", {{"links", "2"}});
  RodScene& rod = rodScene(d);
  const double h = d.h();
  const ParamSet before = d.params();
  auto unchanged = [&] {
    for (const char* k : {"epsilon", "tau", "eps_joints", "tau_joints"}) CHECK(d.params().real(k) == before.real(k));
  };
  // ε above the slider's top: rejected with the range, and τ (valid) is not applied either.
  try {
    applyTargetRelaxation(d, rod, {RelaxationTarget::Kind::Global, "", -1}, {2.0, 3 * h});
    FAIL("no throw");
  } catch (const BadInput& e) {
    CHECK(std::string(e.what()).find("epsilon") != std::string::npos);
    CHECK(std::string(e.what()).find("[0, 1]") != std::string::npos);
  }
  unchanged();
  // τ multiplier above 100 for the group: the valid ε multiplier is not applied.
  CHECK_THROWS_AS(applyTargetRelaxation(d, rod, {RelaxationTarget::Kind::Group, "joints", -1}, {1e-8, 200 * 2 * h}), BadInput);
  unchanged();
  CHECK_THROWS_AS(applyTargetRelaxation(d, rod, {RelaxationTarget::Kind::Group, "no_such", -1}, {1e-8, h}), BadInput);
  const int joint = rod.system().jointConstraintIndices().back();
  CHECK_THROWS_AS(applyTargetRelaxation(d, rod, {RelaxationTarget::Kind::Constraint, "", joint}, {-1e-8, h}), BadInput);
  CHECK_FALSE(rod.constraintStatus(joint).overridden);
  // With the global ε at 0 no multiplier gives a group a positive ε.
  applyTargetRelaxation(d, rod, {RelaxationTarget::Kind::Global, "", -1}, {0.0, 2 * h});
  try {
    applyTargetRelaxation(d, rod, {RelaxationTarget::Kind::Group, "joints", -1}, {1e-6, 2 * h});
    FAIL("no throw");
  } catch (const BadInput& e) {
    CHECK(std::string(e.what()).find("eps_joints") != std::string::npos);
  }
  CHECK(d.params().real("eps_joints") == 1.0);
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
  ConstraintTrace trace(64);
  trace.reset(joints[3]);
  d.afterStep = [&](long, const Scene& s) { trace.sample(dynamic_cast<const RodScene&>(s)); };
  trace.sample(rod);
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
  REQUIRE(trace.data().size() == 61);
  CHECK(trace.data().value(1, 60) == rod.constraintStatus(joints[3]).force);
  CHECK(trace.data().value(0, 60) == rod.constraintStatus(joints[3]).violation);
  // Resuming from an earlier state rewrites the trace's future.
  d.scrubTo(30);
  REQUIRE(d.stepOnce());
  CHECK(trace.data().size() == 32);
  CHECK(trace.data().newestTime() == doctest::Approx(31 * d.h()).epsilon(1e-12));
  // The ring keeps the newest samples when full.
  for (int k = 0; k < 100; ++k) REQUIRE(d.stepOnce());
  CHECK(trace.data().size() == 64);
  CHECK(trace.data().newestTime() == doctest::Approx(131 * d.h()).epsilon(1e-12));
}

TEST_CASE("rod panel: whiplash profile of the ladder and its running peak") {
  SimDriver d = loadedDriver("ladder");
  const auto& ladder = dynamic_cast<const LadderScene&>(d.scene());
  const int N = int(d.params().integer("links"));
  SpeedEnvelope env;
  d.afterStep = [&](long, const Scene& s) { env.update(s.time(), speedProfile(dynamic_cast<const RodScene&>(s)).speeds); };
  for (int k = 0; k < 180; ++k) REQUIRE(d.stepOnce());  // 3 s: through the whiplash
  const SpeedProfile prof = speedProfile(ladder);
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
  const auto& peak = env.peak();
  REQUIRE(peak.size() == size_t(N));
  size_t argmax = 0;
  for (size_t k = 0; k < peak.size(); ++k) if (peak[k] > peak[argmax]) argmax = k;
  MESSAGE("ladder N=" << N << ", 3 s: peak link speed " << peak[0] << " m/s at link 1, " << peak[size_t(N / 2)] << " at link "
                      << N / 2 + 1 << ", " << peak.back() << " at link " << N << "; overall max at link " << argmax + 1 << " ("
                      << peak[argmax] << " m/s, t = " << env.peakTime()[argmax] << " s)");
  // The whip: the free end's peak is several times the pinned end's.
  CHECK(peak.back() > 3.0 * peak[0]);
  CHECK(argmax + 1 > size_t(N / 2));
  // Time going back (reset, history) restarts the peak from the current profile.
  d.reset();
  env.update(0.0, speedProfile(dynamic_cast<const RodScene&>(d.scene())).speeds);
  for (double p : env.peak()) CHECK(p == 0.0);
}

TEST_CASE("rod panel: speed envelope keeps the elementwise peak and restarts on a size change") {
  SpeedEnvelope env;
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
  RodScene& rod = rodScene(d);
  const double h = d.h();
  CHECK(stabilityWarningLines(rod, d.params(), {}).empty());
  CHECK(rod.stabilityWarning().empty());
  // τ = 0.2 h everywhere: one line naming all three groups instead of three copies.
  applyTargetRelaxation(d, rod, {RelaxationTarget::Kind::Global, "", -1}, {1e-8, 0.2 * h});
  auto lines = stabilityWarningLines(rod, d.params(), {});
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].rfind("joints, unit, pins: tau/h = 0.2 < 0.5", 0) == 0);
  CHECK_FALSE(rod.stabilityWarning().empty());
  // Back inside; then only a picked joint's override outside.
  applyTargetRelaxation(d, rod, {RelaxationTarget::Kind::Global, "", -1}, {1e-8, 2 * h});
  const int joint = rod.system().jointConstraintIndices().back();
  applyTargetRelaxation(d, rod, {RelaxationTarget::Kind::Constraint, "", joint}, {1e-8, 0.0});
  lines = stabilityWarningLines(rod, d.params(), {joint});
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].rfind(rod.constraintStatus(joint).name + ": tau/h = 0", 0) == 0);
  CHECK(rod.stabilityWarning().find(rod.constraintStatus(joint).name) != std::string::npos);
}

TEST_CASE("rod panel: ghost divergence indicator (energy growth warns before RK4-Baumgarte freezes)") {
  RodScene::GhostStatus g;
  g.energy = -1000.0;
  CHECK(ghostHealth(g, -1000.5) == GhostHealth::Running);     // +0.5 J < 1e-3 · 1000 J
  g.energy = -998.0;
  CHECK(ghostHealth(g, -1000.0) == GhostHealth::EnergyGrowth);
  g.diverged = true;
  CHECK(ghostHealth(g, -1000.0) == GhostHealth::Diverged);
  // The ladder at h = 1/60 (N = 20): the baselines as ghosts next to SPOOK.
  SimDriver d = loadedDriver("ladder", {{"ghosts", "true"}});
  const RodScene& rod = rodScene(d);
  const double e0 = rodDiagnostics(rod.system(), rod.state()).energy;
  std::map<std::string, double> firstGrowth, divergedAt;
  for (int k = 0; k < 180; ++k) {
    REQUIRE(d.stepOnce());
    for (const auto& gs : rod.ghosts()) {
      const GhostHealth h = ghostHealth(gs, e0);
      if (h == GhostHealth::EnergyGrowth && !firstGrowth.count(gs.stepper)) firstGrowth[gs.stepper] = rod.time();
      if (h == GhostHealth::Diverged && !divergedAt.count(gs.stepper)) divergedAt[gs.stepper] = gs.divergedAt;
    }
    // SPOOK itself never gains energy.
    CHECK(rodDiagnostics(rod.system(), rod.state()).energy <= e0 + 1e-9 * std::abs(e0));
  }
  for (const auto& [name, t] : divergedAt)
    MESSAGE(name << ": energy above E(0) from t = " << (firstGrowth.count(name) ? firstGrowth[name] : -1) << " s, froze at t = " << t << " s");
  REQUIRE(divergedAt.count("rk4_baumgarte"));
  REQUIRE(firstGrowth.count("rk4_baumgarte"));
  CHECK(firstGrowth["rk4_baumgarte"] < divergedAt["rk4_baumgarte"]);
  CHECK(divergedAt.count("rattle"));
}
