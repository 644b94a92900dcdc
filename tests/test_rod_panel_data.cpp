// The rod scenes' SPOOK tuning panel as scene-declared data (scenes/rods/rod_panel.h, rod_tuning.h) and its
// generic app side (ui/core/scene_panel_state.h), without GL: conventions both ways, relaxation actions
// becoming recorded live edits through the driver (all or nothing, never clamped), the ε/τ rule in one
// function. The panel's readouts (picking, traces, profile, warnings, ghosts): test_rod_panel_readouts.
#include <doctest/doctest.h>

#include <cmath>
#include <set>

#include "engine/sim/errors.h"
#include "scenes/rods/rod_tuning.h"
#include "tests/rod_panel_harness.h"
#include "ui/core/scene_panel_state.h"

using namespace varsim;
using varsim::test::loadedDriver;
using varsim::test::Panel;
using varsim::test::relDiff;
using varsim::test::rodScene;

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
  // The ladder's joints below ε = 1e-16 m/N are refused (its loops make the joint rows redundant), globally or by
  // their multiplier.
  CHECK_FALSE(panel.act("eps:global", "0"));
  CHECK(panel.error("eps:global").find("1e-16") != std::string::npos);
  CHECK_FALSE(panel.act("eps:g:joints", "0"));
  CHECK(panel.error("eps:g:joints").find("eps_joints") != std::string::npos);
  unchanged();
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

TEST_CASE("rod panel: the pick list is the scene's joint names, shared by every frame's panel, not copied") {
  SimDriver d = loadedDriver("ladder", {{"links", "3"}});
  Panel panel(d);
  const RodScene& rod = rodScene(d);
  const auto pickList = [&] {
    for (const ScenePanel& p : d.scene().panels(panel.state.context))
      for (const PanelTab& tab : p.tabs)
        for (const PanelWidget& w : tab.widgets)
          if (w.kind == PanelWidget::Kind::Choice && w.action == "pick") return w.options;
    return std::shared_ptr<const std::vector<std::string>>();
  };
  const auto first = pickList();
  REQUIRE(first);
  CHECK(first == rod.jointNames());  // the same list object, frame after frame
  REQUIRE(d.stepOnce());
  CHECK(pickList() == first);
  const std::vector<int>& joints = rod.joints();
  REQUIRE(first->size() == joints.size());
  CHECK_FALSE(joints.empty());
  for (size_t k = 0; k < joints.size(); ++k) CHECK((*first)[k] == rod.system().constraints()[size_t(joints[k])].name);
}
