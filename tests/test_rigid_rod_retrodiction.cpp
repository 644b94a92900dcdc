// The retrodicted rows ğ of the rigid-rod SPOOK step (issue 16; SpookStepper::beginStep's hBefore,
// spook.cpp retrodict): retraced over the step that led to the state they are g_{k−1} to round-off, for a
// step of another length they are interpolated in time, and RigidRodSpook passes the last sub-step's length
// across frames, so the retrodiction jump after a change of sub-step stays at the level of the joint gaps.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/integrators/constraint_jacobian.h"
#include "engine/integrators/rigid_rod_spook.h"
#include "engine/models/hanging_chain.h"
#include "engine/models/ladder.h"
#include "engine/sim/errors.h"
#include "tests/random_rod_chain.h"

using namespace varsim;
using varsim::test::RandomChain;

namespace {

SpookConfig predictedConfig() {
  SpookConfig config;
  config.predictedLinearisation = true;  // as RigidRodSpook's
  return config;
}

double maxAbs(const Eigen::VectorXd& a) { return a.size() ? a.cwiseAbs().maxCoeff() : 0.0; }

// The retrodiction jump of the last step's first accepted sub-step: its pass is the log's last lastSubSteps()
// sub-steps (a redone pass comes before it), each starting with a solve of iteration 0.
double acceptedFirstJump(const RigidRodSpook& r) {
  const auto& log = r.lastSolveLog();
  int firsts = 0;
  for (size_t i = log.size(); i-- > 0;)
    if (log[i].iteration == 0 && ++firsts == r.lastSubSteps()) return log[i].jump;
  FAIL("the solve log holds fewer sub-steps than lastSubSteps()");
  return 0;
}

// On every frame of `sys` (h = 1/60, scene settings: ε = 1e-10, τ = 2h, max_chord 1e-4 m, 4 re-linearisations)
// whose sub-step count differs from the frame before: the first sub-step's retrodiction jump over the last
// sub-step (what the stepper does; checked against a probe) and over its own length (the former ğ); the max
// joint gap; and once, that the saved stepper state (with the last sub-step's length) resumes the frame.
struct JumpRun {
  int changes = 0;
  double newJump = 0, formerJump = 0, maxGap = 0;
};

JumpRun runJumps(const RodSystem& sys, double T) {
  const double h = 1.0 / 60;
  SpookConfig config;
  config.predictedLinearisation = true;
  auto make = [&](RigidRodSpook& r) { r.setRelinearise(4), r.spook().setAllRelaxation({1e-10, 2 * h, 1e-8}); };
  RigidRodSpook rigid(sys, config, 0.0, 1e-4);
  make(rigid);
  SpookStepper probe(rigid.model(), config, &rigid.model());
  MechanicalState s = sys.initialState(), twist, before;
  JumpRun run;
  int previousN = 1;
  std::vector<double> saved, savedBefore;
  for (long k = 0, n = std::lround(T / h); k < n; ++k) {
    twist = before = s;
    rigid.model().toTwist(s.q, s.v, twist.v);
    if (saved.empty()) savedBefore = rigid.saveState();
    rigid.step(s, h);
    run.maxGap = std::max(run.maxGap, rodDiagnostics(sys, s).constraintMax);
    const int subSteps = rigid.lastSubSteps();
    if (subSteps == previousN) continue;
    ++run.changes;
    probe.beginStep(twist, h / subSteps, h / previousN);
    CHECK(acceptedFirstJump(rigid) == probe.retrodictionJump());  // the stepper retrodicted over h/previousN
    run.newJump = std::max(run.newJump, probe.retrodictionJump());
    probe.beginStep(twist, h / subSteps);
    run.formerJump = std::max(run.formerJump, probe.retrodictionJump());
    if (saved.empty()) {  // the stepper state holds the last sub-step's length: the frame resumes bit for bit
      saved = savedBefore;
      RigidRodSpook resumed(sys, config, 0.0, 1e-4), forgetful(sys, config, 0.0, 1e-4);
      make(resumed), make(forgetful);
      MechanicalState a = before, b = before;
      resumed.loadState(saved);
      saved.back() = 0;  // no last sub-step: the first retraces its own length (the former ğ)
      forgetful.loadState(saved);
      resumed.step(a, h), forgetful.step(b, h);
      CHECK(a.q == s.q);
      CHECK(a.v == s.v);
      CHECK(b.v != s.v);
    }
    previousN = subSteps;
  }
  return run;
}

}  // namespace

// A step of hb from s0 reaches s1; a step of h from s1 retrodicts over hb: the pose is q_0 to round-off, ğ is
// g_1 + (h/hb)(g(q_0) − g_1), the jump is its distance from g_1; hBefore = h or 0 is the former step bit for bit.
TEST_CASE("rigid rod: ğ retraced over the step that led to q_k is g_{k-1}, interpolated to t_k - h") {
  RandomChain rc(5);
  const RigidRodModel model(rc.chain.system());
  SpookStepper spook(model, predictedConfig(), &model), former(model, predictedConfig(), &model);
  const double h = 1.0 / 60, hb = h / 7;
  MechanicalState s0 = rc.state;
  model.toTwist(rc.state.q, rc.state.v, s0.v);
  MechanicalState s1 = s0;
  spook.step(s1, hb);
  ConstraintJacobian g0(model, false), g1(model, false);  // values only
  g0.evaluateValues(s0.q, s0.t);
  g1.evaluateValues(s1.q, s1.t);
  const Eigen::VectorXd expected = g1.value() + (h / hb) * (g0.value() - g1.value());
  spook.beginStep(s1, h, hb);
  const double scale = maxAbs(s0.q);
  CHECK(maxAbs(spook.retrodictedPose() - s0.q) <= 4e-16 * scale);  // measured 1.1e-16
  const double miss = maxAbs(spook.retrodictedValues() - expected), jump = maxAbs(g0.value() - g1.value()) * (h / hb);
  MESSAGE("g_{k-1} over hb = h/7: pose miss " << maxAbs(spook.retrodictedPose() - s0.q) << ", interpolation miss "
                                              << miss << ", jump " << spook.retrodictionJump() << " (expected " << jump
                                              << ")");
  CHECK(miss <= 1e-14 * std::max(1.0, maxAbs(expected)));
  CHECK(std::abs(spook.retrodictionJump() - jump) <= 1e-14 * std::max(1.0, jump));
  // hBefore = h (or 0: unknown) is ğ = g(q_k ⊕ (−h v_k)) as before: the same step bit for bit.
  for (double same : {h, 0.0}) {
    MechanicalState a = s1, b = s1;
    spook.step(spook.beginStep(a, h, same), a);
    former.step(b, h);
    CHECK(spook.retrodictedValues() == former.retrodictedValues());
    CHECK(spook.retrodictionJump() == former.retrodictionJump());
    CHECK(a.q == b.q);
    CHECK(a.v == b.v);
  }
  CHECK_THROWS_AS(spook.beginStep(s1, h, -hb), BadInput);
  CHECK_THROWS_AS(spook.beginStep(s1, h, std::nan("")), BadInput);
  CHECK_THROWS_AS(spook.beginStep(s1, h, INFINITY), BadInput);
}

// The ladder of 75 whips at t = 11.9–12.05 s (sub-steps 1 → 5 → 4 → 1 → 7 → 5 → 1 → 4 → 1): on those frames the
// first sub-step's ğ retraced over its own length (the former ğ) jumps by decimetres from g_k, over the last
// sub-step by no more than the joint gaps.
TEST_CASE("rigid rod: after a change of sub-step the retrodiction jump is at the joint-gap level") {
  Ladder ladder(LadderConfig{75});
  const JumpRun run = runJumps(ladder.system(), 12.05);
  MESSAGE("ladder 75, 12.05 s: " << run.changes << " frames changed sub-steps; first sub-step's jump: max "
                                 << run.newJump << " m over the last sub-step, " << run.formerJump
                                 << " m over its own; max gap " << run.maxGap << " m");
  CHECK(run.changes >= 6);                     // measured 8
  CHECK(run.formerJump > 0.05);                // measured 0.135 m
  CHECK(run.newJump < 2e-3 * run.formerJump);  // measured 6.95e-5 m (5.1e-4 of it)
  CHECK(run.newJump < 0.5 * run.maxGap);       // max gap 2.86e-4 m
}
