// Tests of the sub-step retry of the implicit tree steppers (ImplicitTreeStepper, engine/integrators/
// tree_stepper.h): a step of h whose Newton fails is the same as n steps of the scheme started at h/n from the
// same state (momentum matching across the sub-steps), a step that converges at once is not sub-stepped, and
// a step that fails even in 64 sub-steps throws with the state kept.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "engine/integrators/tree_midpoint.h"
#include "engine/integrators/tree_trapezoidal.h"
#include "engine/sim/errors.h"
#include "engine/tree/pendulum_chain.h"
#include "tests/tree_stepper_fixtures.h"

using namespace varsim;
using namespace varsim::tree;

namespace {

template <class S>
std::unique_ptr<S> started(Tree& t, const VectorXd& q0, const VectorXd& v0, double h, const TreeForcing& f) {
  auto s = std::make_unique<S>(t);
  s->initialize(q0, v0, h, f);
  return s;
}

// A fast double pendulum: the first step size (of a short list) whose Newton fails at once but converges in
// sub-steps; the retried step against n steps of a stepper started at h/n.
// A fast double pendulum: the first step size (of a short list) whose Newton fails at once but converges in
// sub-steps; the retried step against n steps of a stepper started at h/n. With forcing q is compared (the
// trapezoidal qdot() is the conservative part of its momentum, which depends on h); without, q and qdot.
template <class S>
void retriedStepEqualsSubsteps(const std::string& name, const TreeForcing& f) {
  Tree t = pendulumChain(2, 1.0, 1.0);
  const Eigen::Vector2d q0(0.5, 2.0), v0(12.0, -16.0);
  for (double h : {0.1, 0.2, 0.3, 0.5, 1.0, 2.0, 5.0}) {
    auto a = started<S>(t, q0, v0, h, f);
    a->step(f);
    if (a->substeps() == 1) continue;
    const int n = a->substeps();
    auto b = started<S>(t, q0, v0, h / n, f);
    for (int i = 0; i < n; ++i) b->step(f);
    const VectorXd eq = a->q() - b->q(), ev = a->qdot() - b->qdot();
    const double dq = eq.lpNorm<Eigen::Infinity>(), dv = ev.lpNorm<Eigen::Infinity>();
    MESSAGE(name << ": h = " << h << " retried in " << n << " sub-steps; |q - q_sub| = " << dq
                  << ", |qdot - qdot_sub| = " << dv);
    CHECK(dq < 1e-10);
    if (f.damping.size() == 0) CHECK(dv < 1e-9);
    CHECK(a->newtonIterations() >= n);  // summed over the sub-steps
    a->step(f);                          // and it steps on at h from there
    CHECK(a->q().allFinite());
    return;
  }
  FAIL(name << ": no step size of the list needed a retry");
}

template <class S>
void convergedStepIsNotSubstepped() {
  Tree t = pendulumChain(3, 1.0, 0.5);
  auto s = started<S>(t, Eigen::Vector3d(0.3, -0.2, 0.1), Eigen::Vector3d::Zero(), 0.01, {});
  int most = 1;
  for (int i = 0; i < 50; ++i) s->step({}), most = std::max(most, s->substeps());
  CHECK(most == 1);
}

// A huge step from a fast state, where Newton from v_k fails (seed 002 Sec. 4's point) also in 64 sub-steps.
// (The midpoint's Newton on this double pendulum converges even at h = 50 s; its failure path is the same
// ImplicitTreeStepper code.)
void hopelessStepThrowsAndKeepsState() {
  Tree t = pendulumChain(2, 1.0, 1.0);
  TreeTrapezoidal s(t);
  s.initialize(Eigen::Vector2d(0.5, 2.0), Eigen::Vector2d(300, -400), 50.0, {});
  const VectorXd q0 = s.q(), v0 = s.qdot();
  CHECK_THROWS_AS(s.step({}), SimulationDiverged);
  CHECK(s.q() == q0);
  CHECK(s.qdot() == v0);
}

}  // namespace

TEST_CASE("RetriedStepEqualsSubstepsFromTheSameState") {
  for (const TreeForcing& f : {TreeForcing{}, test::fullForcing(2)}) {
    const std::string forced = f.damping.size() ? " (damped, driven)" : "";
    retriedStepEqualsSubsteps<TreeMidpoint>("midpoint" + forced, f);
    retriedStepEqualsSubsteps<TreeTrapezoidal>("trapezoidal" + forced, f);
  }
}

TEST_CASE("ConvergedStepIsNotSubstepped") {
  convergedStepIsNotSubstepped<TreeMidpoint>();
  convergedStepIsNotSubstepped<TreeTrapezoidal>();
}

TEST_CASE("HopelessStepThrowsAndKeepsState") {
  hopelessStepThrowsAndKeepsState();
}
